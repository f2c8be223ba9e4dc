/** axe-core on the main views, light and dark: no serious or critical violations. */
import { seriousViolations } from './axe';
import { expect, openLab, test } from './fixtures';
import { showAllControls } from './disclosure';

test('no serious accessibility violations, light and dark', async ({ page }) => {
  // One page for both themes: each start of Postgres costs the suite seconds of CPU.
  await openLab(page, 'scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=A,A,A,%2B10,%2B51,B,B,B,%2B40,A');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), colorScheme).toEqual([]);
  }
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await page.getByLabel('Scenario').selectOption('lock-wait');
  await page.getByLabel('Strategy').selectOption('for-update');
  await page.getByRole('button', { name: 'Next step', exact: true }).click();
  await page.getByRole('button', { name: 'Next step', exact: true }).click();
  await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('Blocked, waiting for A');
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), colorScheme).toEqual([]);
  }
});

test('the help dialog and the theme toggle pass too', async ({ page }) => {
  await openLab(page);
  await showAllControls(page);
  await page.getByRole('button', { name: 'Theme: system' }).click();
  await page.getByRole('button', { name: 'Theme: light' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(page.getByRole('dialog', { name: 'Keyboard' })).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
});
