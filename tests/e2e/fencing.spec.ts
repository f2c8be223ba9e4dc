/** A worker that pauses past its lease: fencing rejects its late write; without fencing two owners. */
import { expect, notices, openLab, outcome, stepToEnd, test } from './fixtures';
import { showAllControls } from './disclosure';

test('paused worker, fencing on: the stale write is rejected', async ({ page }) => {
  await openLab(page);
  await page.getByLabel('Scenario').selectOption('paused-worker');
  await expect(page.getByRole('switch', { name: 'Fencing' })).toBeChecked();
  await stepToEnd(page);
  await expect(outcome(page)).toContainText("A's write was rejected: it holds generation 18, the run is at 19");
  await expect(page.getByRole('region', { name: 'Workers' })).toContainText('lost-lease');
});

test('paused worker, fencing off: split ownership, shown at once when fencing flips', async ({ page }) => {
  await openLab(page, 'scenario=paused-worker');
  await stepToEnd(page);
  await expect(outcome(page)).toContainText('write was rejected');
  await page.getByRole('switch', { name: 'Fencing' }).click();
  await expect(page.getByRole('switch', { name: 'Fencing' })).not.toBeChecked();
  await expect(outcome(page)).toContainText("A's write to run 123 committed with stale generation 18 while B held generation 19: split ownership.");
  await expect(page).toHaveURL(/fencing=off/);
});

test('flipping fencing says which steps no longer apply', async ({ page }) => {
  await openLab(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B,A,B,A,B,A,B');
  await showAllControls(page);
  await page.getByRole('switch', { name: 'Fencing' }).click();
  await expect(notices(page)).toContainText('With fencing on, 2 steps of your schedule no longer apply and were skipped.');
  await expect(notices(page)).toContainText('Step 7 ("A"): A cannot move: A has finished (lost-lease).');
});
