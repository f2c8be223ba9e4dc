/** A queue's rescuer as its own process: River #1302 opened by link, its rescuer lane, its SQL, and PR #1373's fix. */
import { expect, openLinkInPlace, outcome, runsTable, sharedLabPage, shot, stepToEnd, test, timeline } from './fixtures';

// Each test opens its incident's link in one page (one Postgres start for the three), as links followed in the tab.
test.describe('links opened in one page', () => {
  const lab = sharedLabPage();

  test("River #1302: the rescuer's lane, its write over a completed run, and the fix's re-check", async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=incident-river-1302');
    await expect(page.getByLabel('Strategy')).toHaveValue('river');
    await expect(page.getByRole('switch', { name: 'Fencing' })).not.toBeChecked();
    const svg = timeline(page);
    await expect(svg.locator('text.tl-lane-small', { hasText: 'rescuer' })).toHaveCount(1);
    await expect(outcome(page)).not.toContainText(/Run 123 was executed by both A and B/);

    await stepToEnd(page);
    await expect(outcome(page)).toContainText(/Run 123 was executed by both A and B/);
    // Step 7 (index 6) is the rescuer's write: its tooltip and the step details show the rescuer and its SQL.
    const write = svg.locator('path.tl-mark[data-step="6"]').first();
    await write.hover();
    const tip = page.getByRole('tooltip');
    await expect(tip).toContainText('rescuer · rescue');
    await expect(tip).toContainText('UPDATE runs');
    await write.click();
    const details = page.getByRole('complementary', { name: 'Selected step' });
    await expect(details).toContainText('rescuer · rescue');
    await expect(details).toContainText('although it was done under A by now');
    await expect(details.getByRole('region', { name: 'SQL' })).toContainText('WHERE run_id = $1');

    // The fix: PR #1373's re-check in the rescuer's write, under the fencing switch.
    await page.getByRole('switch', { name: 'Fencing' }).click();
    await expect(page).toHaveURL(/fencing=on/);
    await stepToEnd(page);
    await expect(outcome(page)).not.toContainText(/Run 123 was executed by both A and B/);
    await expect(page.getByRole('button', { name: 'Step the rescuer' })).toBeVisible();
    // The same moment by link: the details of step 7 under the fix.
    await openLinkInPlace(page, 'scenario=incident-river-1302&strategy=river&fencing=on&schedule=A,A,A,+3601,rescue,A,rescue&step=7');
    await expect(details).toContainText('rescuer · rescue');
    await expect(details).toContainText('matched no row: the run is done under A');
    await expect(details.getByRole('region', { name: 'SQL' })).toContainText('AND lease_generation = $2');
  });

  test("Oban (hexpm #1825): the Lifeline's one UPDATE in the rescuer's lane, then B's claim of the job A still runs", async () => {
    const page = lab();
    const testInfo = test.info();
    await openLinkInPlace(page, 'scenario=incident-oban-hexpm-1825');
    await expect(page.getByLabel('Strategy')).toHaveValue('oban');
    const svg = timeline(page);
    await expect(svg.locator('text.tl-lane-small', { hasText: 'rescuer' })).toHaveCount(1);
    await stepToEnd(page);
    await expect(outcome(page)).toContainText(/Run 123 was executed by both A and B/);
    // Step 7 (index 6) is the Lifeline's UPDATE: no read before it, no parameter in it.
    await svg.locator('path.tl-mark[data-step="6"]').first().click();
    const details = page.getByRole('complementary', { name: 'Selected step' });
    await expect(details).toContainText('rescuer · rescue');
    await expect(details).toContainText("run 123 (A's) back to pending in one UPDATE, purely on time");
    await expect(details.getByRole('region', { name: 'SQL' })).toContainText('AND lease_expires_at < now()');
    await shot(page, testInfo.outputPath('oban-lifeline.png'));
    // The fix, the lab's claim with its heartbeat: the rescue token has nothing to run, and no one runs the job twice.
    // By link, followed in the tab: a new view under the fix.
    await openLinkInPlace(page, 'scenario=incident-oban-hexpm-1825&strategy=skip-locked&fencing=on');
    await stepToEnd(page);
    await expect(outcome(page)).not.toContainText(/Run 123 was executed by both A and B/);
  });

  test("Solid Queue #589: the pruner fails A's claim in the rescuer's lane, A's finish lands anyway; the claimed-execution guard refuses it", async () => {
    const page = lab();
    const testInfo = test.info();
    await openLinkInPlace(page, 'scenario=incident-solid-queue-589');
    await expect(page.getByLabel('Strategy')).toHaveValue('solid-queue');
    const svg = timeline(page);
    await stepToEnd(page);
    await expect(outcome(page)).toContainText(/Run 123 was finalized twice: the rescuer marked it failed at step 5/);
    // Step 5 (index 4) is the pruner's UPDATE: its mark says what it did to the run.
    const prune = svg.locator('path.tl-mark[data-step="4"]').first();
    await expect(svg.locator('text', { hasText: /^fail 123$/ })).toHaveCount(1);
    await prune.click();
    const details = page.getByRole('complementary', { name: 'Selected step' });
    await expect(details).toContainText('rescuer · rescue');
    await expect(details).toContainText("marked run 123 (A's) failed in one UPDATE");
    await expect(details.getByRole('region', { name: 'SQL' })).toContainText("SET status           = 'failed'");
    await expect(runsTable(page)).toContainText('failed');
    await shot(page, testInfo.outputPath('solid-queue-pruner.png'));
    // The fix, v1.5.0's guard under the fencing switch: the run stays failed and nothing is flagged.
    await page.getByRole('switch', { name: 'Fencing' }).click();
    await expect(page).toHaveURL(/fencing=on/);
    await stepToEnd(page);
    await expect(outcome(page)).not.toContainText(/finalized twice|Replaying|Loading/i);
    await expect(runsTable(page)).toContainText('failed');
    await expect(runsTable(page)).not.toContainText('done');
  });
});
