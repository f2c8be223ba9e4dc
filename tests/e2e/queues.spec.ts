/** The production queues in the lab: their group in the strategy picker, and an incident opened from a link. */
import { QUEUE_STRATEGY_IDS, STRATEGY_LABELS } from '../../src/strategies';
import { expect, openLinkInPlace, outcome, runsTable, sharedLabPage, stepToEnd, test, timeline } from './fixtures';

// Each test opens its own link in one page (one Postgres start for the three), as links followed in the tab.
test.describe('links opened in one page', () => {
  const lab = sharedLabPage();

  test('the strategy picker groups the production queues apart from the lab claims', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=&step=0');
    const group = page.getByLabel('Strategy').locator('optgroup[label="Production queues"] option');
    await expect(group).toHaveText(QUEUE_STRATEGY_IDS.map((id) => STRATEGY_LABELS[id]));
    await page.getByLabel('Strategy').selectOption('river');
    await expect(page).toHaveURL(/strategy=river/);
    await expect(timeline(page)).toHaveAttribute('aria-label', /River: .*fencing on/);
  });

  test('an incident opens under its queue with fencing off and plays to its anomaly', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=incident-solid-queue-589');
    await expect(page.getByLabel('Strategy')).toHaveValue('solid-queue');
    await expect(outcome(page)).not.toContainText(/finalized twice/i);
    await stepToEnd(page);
    await expect(outcome(page)).toContainText(/the rescuer marked it failed at step 5, then A's completion marked it done at step 6/);
    await expect(runsTable(page)).toContainText('done');
  });

  test("River PR #141: a cancel that comes after the last model call is lost under River's guard, and kept by the guarded completion", async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=incident-river-141');
    await expect(page.getByLabel('Strategy')).toHaveValue('river');
    await stepToEnd(page);
    await expect(outcome(page)).toContainText(/was cancelled at step 5, yet A completed it/);
    // The fix by link, followed in the tab: a new view (no schedule yet) with fencing on.
    await openLinkInPlace(page, 'scenario=incident-river-141&strategy=river&fencing=on');
    await stepToEnd(page);
    await expect(outcome(page)).not.toContainText(/yet A completed it/);
    await expect(runsTable(page)).toContainText('cancelled');
  });
});
