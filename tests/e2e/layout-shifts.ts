/**
 * The browser's own layout-shift entries (what cumulative layout shift sums), recorded from navigation on
 * and read with the elements that moved, so a failure names the cause. As the bench counts them
 * (bench/browser.bench.ts): every shift the learner did not cause by input.
 */
import type { Page } from '@playwright/test';

export interface Shift {
  /** When, in ms since navigation. */
  at: number;
  value: number;
  /** Each element moved: what it is and its box before → after (clipped to the viewport, as the browser reports it). */
  sources: string[];
}

/** Installed before any page script (page.addInitScript): records every layout shift the learner did not cause. */
export function recordShifts(): void {
  const shifts: { at: number; value: number; sources: string[] }[] = [];
  (window as unknown as { layoutShifts: typeof shifts }).layoutShifts = shifts;
  const describe = (node: Node | null): string => {
    if (!node) return '(gone)';
    if (!(node instanceof Element)) return `#text "${(node.textContent ?? '').trim().slice(0, 30)}"`;
    const id = node.id ? `#${node.id}` : '';
    const classes = typeof node.className === 'string' && node.className ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
    const words = (node.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
    return `${node.tagName.toLowerCase()}${id}${classes} "${words}"`;
  };
  const rect = (r: DOMRectReadOnly) => `(${Math.round(r.x)},${Math.round(r.y)} ${Math.round(r.width)}×${Math.round(r.height)})`;
  try {
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as unknown as {
        startTime: number;
        value: number;
        hadRecentInput: boolean;
        sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
      }[]) {
        if (entry.hadRecentInput) continue;
        shifts.push({
          at: Math.round(entry.startTime),
          value: entry.value,
          sources: entry.sources.map((s) => `${describe(s.node)} ${rect(s.previousRect)} → ${rect(s.currentRect)}`),
        });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  } catch {}
}

export async function shiftsSoFar(page: Page): Promise<Shift[]> {
  return page.evaluate(() => (window as unknown as { layoutShifts: Shift[] }).layoutShifts);
}

export const totalShift = (shifts: readonly Shift[]): number => shifts.reduce((sum, s) => sum + s.value, 0);

/** Each shift, when and how much, with what moved: for a failure's message. */
export function shiftReport(shifts: readonly Shift[]): string {
  if (shifts.length === 0) return '(no shift)';
  return shifts.map((s) => `at ${s.at} ms, ${s.value.toFixed(4)}:\n    ${s.sources.join('\n    ')}`).join('\n  ');
}
