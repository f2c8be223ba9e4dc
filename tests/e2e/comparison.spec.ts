/** The queues side by side: the lesson's Compare queues tab, an incident opened from one of its cells, and that incident's fix. */
import { expectNoSeriousViolationsInBothThemes } from './axe';
import type { Page } from '@playwright/test';
import { COMPARISON_QUESTIONS, QUEUE_COMPARISON } from '../../src/lessons/queue-comparison';
import { expect, openLinkInPlace, outcome, sharedLabPage, shot, stepToEnd, test, waitReady } from './fixtures';

const comparison = (page: Page) => page.getByRole('table', { name: /Production Postgres queues and this lab's claim/ });
const row = (page: Page, name: RegExp) =>
  comparison(page)
    .getByRole('row')
    .filter({ has: page.getByRole('rowheader', { name }) });

async function openComparison(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  await page.getByRole('tab', { name: 'Compare queues' }).click();
  await expect(comparison(page)).toBeVisible();
}

// Each of these opens the race and follows the comparison's links from it, or reads the comparison at a
// window size of its own: one page, one Postgres start, opens the race again for each.
test.describe('one page, the race opened for each', () => {
  const lab = sharedLabPage();

  test('the comparison opens an incident in the lab; its fix, toggled, takes the anomaly away; Back returns', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await openComparison(page);
    await expect(comparison(page).getByRole('columnheader')).toHaveText(['Queue', ...COMPARISON_QUESTIONS.map((question) => question.heading)]);
    await expect(comparison(page).getByRole('rowheader')).toHaveCount(QUEUE_COMPARISON.length);
    // The isolation column: River's claim runs at the server's default, and the cell names the code that shows it.
    const isolationColumn = COMPARISON_QUESTIONS.findIndex((question) => question.id === 'isolation');
    await expect(
      comparison(page)
        .getByRole('columnheader')
        .nth(isolationColumn + 1),
    ).toHaveText('At which isolation level does the claim run?');
    const riverIsolation = row(page, /^River/)
      .getByRole('cell')
      .nth(isolationColumn);
    await expect(riverIsolation).toContainText("READ COMMITTED, the server's default: JobGetAvailable is one statement on the pool");
    await expect(riverIsolation).toContainText('Read in producer.go, riverdriver/riverpgxv5/river_pgx_v5_driver.go');

    // Solid Queue #589 answers "What stops a stale write?": opened under its old guard, fencing off.
    const solidQueue = row(page, /^Solid Queue/);
    await solidQueue.getByRole('link', { name: /^open it/ }).click();
    await expect(page).toHaveURL(/scenario=incident-solid-queue-589&strategy=solid-queue&fencing=off/);
    await waitReady(page);
    await expect(page.getByLabel('Scenario')).toHaveValue('incident-solid-queue-589');
    await stepToEnd(page);
    await expect(outcome(page)).toContainText(/finalized twice/i);
    // Its fix is the claimed-execution guard: the fencing switch, on, replays the same schedule.
    await page.getByRole('switch', { name: 'Fencing' }).check();
    await expect(page).toHaveURL(/fencing=on/);
    await expect(outcome(page)).not.toContainText(/finalized twice|Replaying|Loading/i);
    await expect(outcome(page)).toContainText(/rejected|no anomaly|stale/i);

    // The incident was a new entry in the history: Back is the race the page opened at.
    await page.goBack();
    await expect(page).toHaveURL(/scenario=race&strategy=naive/);
    await expect(page.getByLabel('Scenario')).toHaveValue('race');

    // graphile-worker #169 answers "When does ownership end?"; its fix is another strategy, picked in the lab.
    await expect(comparison(page)).toBeAttached();
    await row(page, /^graphile-worker/)
      .getByRole('link', { name: /^open it/ })
      .click();
    await expect(page).toHaveURL(/scenario=incident-graphile-169&strategy=graphile-worker&fencing=off/);
    await waitReady(page);
    await stepToEnd(page);
    await expect(outcome(page)).toContainText(/executed by both A and B/);
    await page.getByLabel('Strategy').selectOption('skip-locked');
    await page.getByRole('switch', { name: 'Fencing' }).check();
    await expect(page).toHaveURL(/strategy=skip-locked&fencing=on/);
    await waitReady(page);
    await stepToEnd(page);
    await expect(outcome(page)).not.toContainText(/executed by both A and B/);
  });

  test("pg-boss #529's fix is a setting, not a guard: its link opens the scenario with the 6-hour expiry, where the job runs once", async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await openComparison(page);
    const incident = row(page, /^pg-boss/).locator('p.cmp-incident', { hasText: 'timgit/pg-boss#529' });
    await incident.getByRole('link', { name: /^open it/ }).click();
    await expect(page).toHaveURL(/scenario=incident-pg-boss-529&strategy=pg-boss&fencing=off/);
    await waitReady(page);
    await stepToEnd(page);
    await expect(outcome(page)).toContainText(/executed by both A and B/);
    await page.goBack();
    await expect(comparison(page)).toBeAttached();
    await incident.getByRole('link', { name: /^its fix/ }).click();
    await expect(page).toHaveURL(/scenario=pg-boss-pr-523&strategy=pg-boss&fencing=off/);
    await waitReady(page);
    await expect(page.getByLabel('Scenario')).toHaveValue('pg-boss-pr-523');
    await expect(page.getByLabel('Scenario').locator('optgroup[label="An incident\'s fix"] option')).toHaveText([/^pg-boss PR #523/]);
    await stepToEnd(page);
    await expect(outcome(page)).not.toContainText(/executed by both A and B|Replaying|Loading/);
    await expect(outcome(page)).toContainText(/no anomaly|Nothing more can happen/i);
  });

  test("every cell of River's row opens its scenario under River's claim; its limits open the backpressure lab; Back returns each time", async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await openComparison(page);
    const river = row(page, /^River/);
    const cells = QUEUE_COMPARISON.find((entry) => entry.strategy === 'river')!.cells;
    for (const [index, cell] of cells.entries()) {
      const target = cell.link.target;
      // Two columns may open the same scenario, so each link is found in its own cell.
      await river
        .getByRole('cell')
        .nth(index)
        .getByRole('link', { name: `▶ ${cell.link.label}` })
        .click();
      if (target.kind === 'backpressure') {
        await expect(page).toHaveURL(/#backpressure/);
        await expect(page.getByRole('heading', { name: /Backpressure/ })).toBeVisible();
      } else {
        await expect(page).toHaveURL(new RegExp(`scenario=${target.scenarioId}&strategy=river&fencing=off`));
        await waitReady(page);
        await expect(page.getByLabel('Scenario')).toHaveValue(target.scenarioId);
        await expect(page.getByLabel('Strategy')).toHaveValue('river');
        // The lab plays it with fencing off (its switch is folded away where the scenario cannot use it).
        await expect(page.getByRole('img', { name: /^Timeline of / })).toHaveAttribute('aria-label', /, fencing off\)/);
      }
      await page.goBack();
      await expect(page).toHaveURL(/scenario=race&strategy=naive/);
      await waitReady(page);
      await expect(page.getByLabel('Scenario')).toHaveValue('race');
      // The backpressure view replaces the whole page, so coming back from it mounts the lesson afresh.
      if (target.kind === 'scenario') await expect(comparison(page)).toBeAttached();
    }
  });

  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    test(`at ${width}×${height} the comparison scrolls in its own box and passes axe, light and dark`, async () => {
      const page = lab();
      const testInfo = test.info();
      // At the window size of this test, and back to the page's own after it: the other tests read the lab at that one.
      const size = page.viewportSize();
      await page.setViewportSize({ width, height });
      await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
      await openComparison(page);
      await comparison(page).scrollIntoViewIfNeeded();
      await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
      const box = page.getByRole('region', { name: 'Queue comparison (scrolls sideways)' });
      // On a phone the table is wider than its box, which scrolls; the page itself never does.
      if (width < 600) expect(await box.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
      await expectNoSeriousViolationsInBothThemes(page, '.cmp');
      await page.getByRole('heading', { name: 'Compare queues' }).scrollIntoViewIfNeeded();
      await shot(page, testInfo.outputPath(`comparison-${width}x${height}.png`));
      // Scrolled sideways, the queue's name stays beside its answers.
      await box.evaluate((element) => element.scrollBy({ left: 600 }));
      await comparison(page).getByRole('row').nth(1).scrollIntoViewIfNeeded();
      await expect(comparison(page).getByRole('rowheader').first()).toBeInViewport();
      await shot(page, testInfo.outputPath(`comparison-${width}x${height}-scrolled.png`));
      if (size) await page.setViewportSize(size);
    });
  }
});
