/** The bounding-box check for the timeline's words, shared by the layout and time specs. */
import type { Page } from '@playwright/test';

/**
 * Pairs of the timeline's words that touch: two texts on one line closer than 2 px, or a text within 1 px
 * of a lease's expiry marker. Texts stacked in one column (a mark's label over its sublabel) share a pixel
 * or two of their line boxes; only boxes that overlap by more than 3 px vertically count as one line.
 */
export async function crowdedLabels(page: Page): Promise<string[]> {
  return page.locator('svg.tl-svg').evaluate((svg) => {
    const box = (el: Element) => el.getBoundingClientRect();
    const texts = [...svg.querySelectorAll('text')].filter((t) => box(t).width > 0 && (t.textContent ?? '').trim() !== '');
    // The marker: its head above the bar and its line through it (a line's box has no width: count its 1.5 px stroke).
    const heads = [...svg.querySelectorAll('path.tl-expiry-head, line.tl-expiry')];
    const found: string[] = [];
    const sameLine = (a: DOMRect, b: DOMRect) => Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 3;
    for (let i = 0; i < texts.length; i++) {
      for (let j = i + 1; j < texts.length; j++) {
        const [a, b] = [box(texts[i]!), box(texts[j]!)];
        if (sameLine(a, b) && a.left < b.right + 2 && b.left < a.right + 2) found.push(`"${texts[i]!.textContent}" touches "${texts[j]!.textContent}"`);
      }
      for (const head of heads) {
        const [a, b] = [box(texts[i]!), box(head)];
        const [left, right] = [b.left - 0.75, b.right + 0.75];
        if (a.left < right + 1 && left < a.right + 1 && a.top < b.bottom && b.top < a.bottom) found.push(`"${texts[i]!.textContent}" touches an expiry marker`);
      }
    }
    return found;
  });
}
