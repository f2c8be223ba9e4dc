/** axe-core for the specs' accessibility checks, set to what they read. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * An axe run that gathers every node only for violations, the one result the specs assert on: axe still
 * runs every rule on every node, but keeps one node per rule for passes, incomplete and inapplicable
 * results (its resultTypes option). A whole-page scan here took ~6 s instead of ~11 s on a busy machine,
 * with the same violations.
 */
function axe(page: Page): AxeBuilder {
  return new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
}

/** The serious and critical findings on the page (or within one selector): one line each, naming the rule and up to three nodes. */
export async function seriousViolations(page: Page, within?: string): Promise<string[]> {
  const scan = within === undefined ? axe(page) : axe(page).include(within);
  const results = await scan.analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 3)
          .join(' | ')}`,
    );
}

/** No serious or critical finding in the light theme, then in the dark; the page is left light. */
export async function expectNoSeriousViolationsInBothThemes(page: Page, within?: string): Promise<void> {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page, within), colorScheme).toEqual([]);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}
