/** A worker that pauses past its lease: fencing rejects its late write; without fencing two owners. */
import { expect, notices, openLinkInPlace, outcome, sharedLabPage, stepToEnd, test } from './fixtures';
import { showAllControls } from './disclosure';

// Each test opens its own link in one page (one Postgres start for the three), as links followed in the tab.
test.describe('links opened in one page', () => {
  const lab = sharedLabPage();

  test('paused worker, fencing on: the stale write is rejected', async () => {
    const page = lab();
    // The lab as a first visit opens it (the race), then the paused worker chosen in the picker.
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await page.getByLabel('Scenario').selectOption('paused-worker');
    await expect(page.getByRole('switch', { name: 'Fencing' })).toBeChecked();
    await stepToEnd(page);
    await expect(outcome(page)).toContainText("A's write was rejected: it holds generation 18, the run is at 19");
    await expect(page.getByRole('region', { name: 'Workers' })).toContainText('lost-lease');
  });

  test('paused worker, fencing off: split ownership, shown at once when fencing flips', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=paused-worker&strategy=skip-locked&fencing=on');
    await stepToEnd(page);
    await expect(outcome(page)).toContainText('write was rejected');
    await page.getByRole('switch', { name: 'Fencing' }).click();
    await expect(page.getByRole('switch', { name: 'Fencing' })).not.toBeChecked();
    await expect(outcome(page)).toContainText("A's write to run 123 committed with stale generation 18 while B held generation 19: split ownership.");
    await expect(page).toHaveURL(/fencing=off/);
  });

  test('flipping fencing says which steps no longer apply', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B,A,B,A,B,A,B');
    await showAllControls(page);
    await page.getByRole('switch', { name: 'Fencing' }).click();
    await expect(notices(page)).toContainText('With fencing on, 2 steps of your schedule no longer apply and were skipped.');
    await expect(notices(page)).toContainText('Step 7 ("A"): A cannot move: A has finished (lost-lease).');
  });
});
