/**
 * The controls a learner sees on the first screen: shared by the first-screen test and the browser bench,
 * so both count the same way.
 */

export interface FoldControl {
  /** Its accessible name as far as the DOM says it (aria-label, its label, or its text). */
  name: string;
  /** Its visible text (a button's words, a field's label): what a learner reads. */
  text: string;
  role: string;
  /** Its text is code (a worker's program line, which reads the same in two workers' programs), not a label. */
  code: boolean;
}

/**
 * Runs in the page (page.evaluate): the interactive controls that are visible, enabled and at least partly
 * inside the first viewport (the page scrolled to the top); or, given `within` (a selector), every one
 * inside that element, on the first screen or below it. A function with no closure, so that Playwright
 * can send it.
 */
// biome-ignore lint/suspicious/noConfusingVoidType: page.evaluate(controlsAboveTheFold) with no argument hands it `void` (the bench's call)
export function controlsAboveTheFold(within?: string | void): FoldControl[] {
  // What a learner can operate: native controls and elements given a control's role.
  const selector = [
    'button',
    'a[href]',
    'input:not([type="hidden"])',
    'select',
    'textarea',
    'summary',
    '[role="button"]',
    '[role="link"]',
    '[role="tab"]',
    '[role="switch"]',
    '[role="checkbox"]',
    '[role="radio"]',
    '[role="slider"]',
    '[role="combobox"]',
    '[role="textbox"]',
    '[role="menuitem"]',
    '[role="option"]',
    '[contenteditable="true"]',
  ].join(', ');
  const height = window.innerHeight;
  const width = window.innerWidth;
  const scrolled = window.scrollY;
  const textOf = (el: Element) => (el.textContent ?? '').replace(/\s+/g, ' ').trim();
  const labelOf = (el: Element): string => {
    const labelledBy = el.getAttribute('aria-labelledby');
    if (labelledBy)
      return labelledBy
        .split(/\s+/)
        .map((id) => textOf(document.getElementById(id) ?? document.createElement('i')))
        .join(' ');
    const field = el as HTMLInputElement;
    const label = field.labels?.[0];
    if (label) {
      // A label wrapping its field: its own words, not the options inside.
      const words = label.cloneNode(true) as Element;
      for (const inner of words.querySelectorAll('select, input, textarea')) inner.remove();
      return textOf(words);
    }
    return textOf(el);
  };
  const found: FoldControl[] = [];
  const scope = within ? document.querySelector(within) : document;
  for (const el of scope?.querySelectorAll(selector) ?? []) {
    // A control inside a closed <details> (other than its summary) is not shown.
    const closed = el.closest('details:not([open])');
    if (closed && el.tagName !== 'SUMMARY' && el.closest('summary') === null) continue;
    if ((el as HTMLButtonElement).disabled || el.getAttribute('aria-disabled') === 'true' || el.closest('fieldset:disabled')) continue;
    if (el.closest('[inert], [aria-hidden="true"]')) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const box = el.getBoundingClientRect();
    if (box.width < 1 || box.height < 1) continue;
    const top = box.top + scrolled;
    if (!within && (top >= height || top + box.height <= 0 || box.left >= width || box.right <= 0)) continue;
    const text = el.tagName === 'SELECT' || el.tagName === 'INPUT' ? labelOf(el) : textOf(el);
    found.push({
      name: el.getAttribute('aria-label') ?? labelOf(el),
      text,
      role: el.getAttribute('role') ?? el.tagName.toLowerCase(),
      code: el.querySelector('code') !== null,
    });
  }
  return found;
}
