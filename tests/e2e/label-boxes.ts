/** The bounding-box checks for words that must read whole: the timeline's, shared by the layout and time specs, and a picker's. */
import type { Locator, Page } from '@playwright/test';

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

/**
 * A select whose chosen option's words do not fit its closed box (the browser cuts them off at its right
 * edge): the words and by how many pixels, or null when they fit. The text is measured in the select's own
 * font; the browser's drop-down arrow is given 24 px (Chromium's is about 20).
 */
export async function cutSelectText(select: Locator): Promise<string | null> {
  return select.evaluate((el) => {
    const chosen = (el as HTMLSelectElement).selectedOptions[0]?.text ?? '';
    const style = getComputedStyle(el);
    const context = document.createElement('canvas').getContext('2d');
    if (context === null) return 'no canvas to measure the words with';
    context.font = style.font;
    const words = context.measureText(chosen).width;
    const room = el.clientWidth - Number.parseFloat(style.paddingLeft) - Number.parseFloat(style.paddingRight) - 24;
    return words <= room ? null : `"${chosen}" is ${Math.ceil(words - room)} px wider than its box`;
  });
}
