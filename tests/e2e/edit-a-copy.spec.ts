/**
 * "Edit a copy…" on a built-in scenario: the editor opens filled with it, one change plays as a scenario of
 * the instructor's own (with its own link), and the built-in is as it was when opened again; a copy of a
 * long-titled one is named in the picker short enough to read whole. Screenshots of the filled editor and the
 * picker at 1440×900 and 390×844 go to test-results/ (E2E_SHOTS=1).
 */
import { showAllControls } from './disclosure';
import { expect, openLab, runsTableAfter, shot, stepTimes, test, waitReady } from './fixtures';
import { cutSelectText } from './label-boxes';

const SHOTS = 'test-results/edit-a-copy';
const RACE = 'Two workers, two pending runs';

test('race → Edit a copy → one change → play: the copy plays, the built-in is unchanged', async ({ page }) => {
  await openLab(page, 'scenario=race');
  await showAllControls(page);
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `${SHOTS}/header-${width}x${height}.png`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.getByRole('button', { name: 'Edit a copy…' }).click();
  const editor = page.getByRole('dialog', { name: 'Your scenario' });
  await expect(editor.getByLabel('Title')).toHaveValue(`${RACE} (copy)`);
  await expect(editor.getByText(`A copy of “${RACE}”`)).toBeVisible();
  await expect(editor.getByLabel('Run 2 id')).toHaveValue('124');
  await expect(editor.getByLabel('Lease generation').nth(1)).toHaveValue('3');
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await shot(page, `${SHOTS}/editor-${width}x${height}.png`);
  }
  await page.setViewportSize({ width: 1280, height: 720 });
  await editor.getByLabel('Run 2 id').fill('130');
  await editor.getByRole('button', { name: 'Play this scenario' }).click();
  await expect(editor).toBeHidden();
  await waitReady(page);
  await expect(page.locator('#scenario option:checked')).toHaveText(`${RACE} (copy)`);
  await expect.poll(() => new URL(page.url()).hash).toMatch(/^#scenario=authored-[0-9a-f]{8}&sc=1\./);
  // The race's own script plays on the copy: the naive claim's two workers both take run 123, and run 130 waits.
  expect(await runsTableAfter(page, 0)).toMatch(/\n130\t/);
  await stepTimes(page, 4);
  expect(await runsTableAfter(page, 4)).toMatch(/\n123\trunning\tB\s[\s\S]*\n130\tpending/);

  await page.getByLabel('Scenario').selectOption('race');
  await waitReady(page);
  await expect(page.locator('#scenario option:checked')).toHaveText(RACE);
  expect(await runsTableAfter(page, 0)).toMatch(/\n124\t/);
  await page.getByRole('button', { name: 'Edit a copy…' }).click();
  await expect(editor.getByLabel('Run 2 id')).toHaveValue('124');
});

test('a long-titled copy: the picker names it by its headline and (copy), whole at both widths; the summary by its full title', async ({ page }) => {
  const CRASH = 'A crashes: its run is an orphan until the lease expires';
  await openLab(page, 'scenario=crash-orphan');
  await showAllControls(page);
  await page.getByRole('button', { name: 'Edit a copy…' }).click();
  const editor = page.getByRole('dialog', { name: 'Your scenario' });
  await expect(editor.getByLabel('Title')).toHaveValue(`${CRASH} (copy)`);
  await editor.getByLabel('Lease generation').fill('18');
  await editor.getByRole('button', { name: 'Play this scenario' }).click();
  await expect(editor).toBeHidden();
  await waitReady(page);
  const sizes = [
    [1440, 900],
    [390, 844],
  ] as const;
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    await shot(page, `${SHOTS}/picker-${width}x${height}.png`);
  }
  for (const [width, height] of sizes) {
    await page.setViewportSize({ width, height });
    await expect.poll(() => cutSelectText(page.locator('select#scenario')), `${width}×${height}`).toBeNull();
  }
  await expect(page.locator('#scenario option:checked')).toHaveText('A crashes (copy)');
  await expect(page.locator('#scenario-summary')).toContainText(`${CRASH} (copy)`);
});
