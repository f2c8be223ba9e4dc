/** Reaching a control the page folds away until a scenario uses it (src/store/disclosure.ts), as a learner would. */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Switches on "All controls" (the free lab): every control shows, whatever the scenario uses. */
export async function showAllControls(page: Page): Promise<void> {
  const all = page.getByRole('switch', { name: 'All controls' });
  await all.check();
  await expect(all).toBeChecked();
}

/**
 * The control that steps one worker: "Step worker X" in the toolbar where the scenario shows the workers'
 * own controls, else the line of X's program that it runs next ("Step X: run file.sql").
 */
export function workerStep(page: Page, worker: string) {
  return page
    .locator('#lab-top')
    .getByRole('button', { name: new RegExp(`^Step (worker ${worker}$|${worker}: run )`) })
    .first();
}
