/**
 * check's witness link for a claim with its own parameters (pgmq's order: LIMIT $1 batch size, $2 worker,
 * $3 lease; tests/fixtures/claims/batch-size-first.sql): the link carries the --param bindings, the page
 * plays the same schedule with them and names the same anomalies as check's group for that witness
 * (`npm run sim -- check race --claim tests/fixtures/claims/batch-size-first.sql --param 1=1 --param 2=worker
 * --param 3=lease`: "double claim of run 123 + duplicate execution of run 123 + split ownership of run 123",
 * shortest A,A,A,B,A,B,A,B; tests/unit/cli-check-params.test.ts holds check to that answer).
 */
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { claimStrategyFromFile, parseParamFlags, witnessLink } from '../../src/cli/check';
import { findScenario } from '../../src/scenarios';
import { expect, openLab, shot, test, timeline } from './fixtures';

const FLAGS = ['1=1', '2=worker', '3=lease'];
const WITNESS = ['A', 'A', 'A', 'B', 'A', 'B', 'A', 'B'];
const editor = (page: Page) => page.getByRole('region', { name: 'Your SQL' });

test("check's witness link with --param bindings opens in the page and plays check's verdict", async ({ page }) => {
  const { definition } = await claimStrategyFromFile(
    fileURLToPath(new URL('../fixtures/claims/batch-size-first.sql', import.meta.url)),
    {},
    parseParamFlags(FLAGS),
  );
  const link = witnessLink(findScenario('race')!, { strategy: 'naive', fencing: false, definition }, WITNESS, FLAGS);
  expect(link).toMatch(/&params=1=1,2=worker,3=lease$/);
  await openLab(page, link.slice(1));
  await expect(editor(page).locator('.your-sql-status')).toHaveText('Playing your SQL.');
  // The page's row holds the bindings, and the anomalies are check's group's, run 123 each.
  const row = editor(page).getByRole('group', { name: 'Parameters of your claim' });
  await expect(row.locator('input')).toHaveCount(3);
  expect(await row.locator('input').evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value))).toEqual(['1', 'worker', 'lease']);
  await expect(timeline(page)).toHaveAttribute('aria-label', /anomalies: .*double claim/);
  const label = (await timeline(page).getAttribute('aria-label')) ?? '';
  const kinds = [...new Set([...label.matchAll(/(double claim|duplicate execution|split ownership|duplicate work after)/g)].map((m) => m[1]))].sort();
  expect(kinds).toEqual(['double claim', 'duplicate execution', 'split ownership']);
  await expect(page).toHaveURL(/&params=1=1,2=worker,3=lease$/);
  await shot(row, 'test-results/your-sql-params-row.png');
});
