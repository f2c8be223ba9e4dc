/**
 * The interleaving explorer in the page: every schedule of the naive race counted in a worker of its own,
 * a witness that opens in the timeline, Cancel, and the atomic claim with no anomaly anywhere.
 */
import type { Page } from '@playwright/test';
import { STRATEGY_LABELS } from '../../src/sim/types';
import { expect, openLinkInPlace, outcome, position, sharedLabPage, shot, stepButton, test } from './fixtures';

const panel = (page: Page) => page.getByRole('region', { name: 'Every schedule' });
const exploreButton = (page: Page) => page.getByRole('button', { name: 'Explore all schedules' });
const cancelButton = (page: Page) => page.getByRole('button', { name: 'Cancel exploration' });
const groups = (page: Page) => panel(page).getByRole('list', { name: 'Outcome groups' }).getByRole('listitem');
/**
 * The finished exploration names what it explored: in a shared page the last test's result stays shown
 * (it belongs to the exploration, not to the view) until this one's replaces it.
 */
const exploredUnder = (page: Page, strategy: keyof typeof STRATEGY_LABELS, fencing: 'on' | 'off') =>
  expect(panel(page)).toContainText(`(${STRATEGY_LABELS[strategy]}, fencing ${fencing})`, { timeout: 150_000 });

/** The count and total a group's row states ("72 of 252 (29%)"). */
async function countOf(row: ReturnType<typeof groups>): Promise<{ count: number; total: number }> {
  const match = /^([\d,]+) of ([\d,]+) \(/.exec((await row.locator('.outcome-bar-count').textContent()) ?? '');
  expect(match, 'the row states its count').not.toBeNull();
  return { count: Number(match![1]!.replace(/,/g, '')), total: Number(match![2]!.replace(/,/g, '')) };
}

// One page, one Postgres start for the lab (and one for the explorer's own worker, which the page keeps):
// each test opens its race by link, followed in the tab. Cancel comes first, as it holds the explorer's
// worker script until it has cancelled and so needs the page's first exploration; the naive race comes
// last, as it leaves the window narrow and dark for its pictures.
test.describe('explorations in one page', () => {
  const lab = sharedLabPage();

  test('Cancel stops a long exploration while the lab keeps working', async () => {
    const page = lab();
    // An exploration's length depends on the machine (three-workers took 3.6 s on a quiet one, too short
    // to catch). So the test holds the explorer's own worker script until it has cancelled: the exploration
    // is under way (its second Postgres starting) for exactly as long as the test needs. The hold makes any
    // scenario's exploration long enough, so the run to the end after it is the race's, the shortest:
    // three-workers' run to the end was most of this test's time (34 s against 9 s, on a busy machine).
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/explorer\.worker-[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue().catch(() => undefined);
    });
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await exploreButton(page).click();
    await expect(cancelButton(page)).toBeVisible();
    await expect(exploreButton(page)).toBeDisabled();
    const bar = panel(page).getByRole('progressbar', { name: 'Exploration progress' });
    await expect(bar).toBeVisible();
    // The lab answers while the explorer works in its own worker.
    const before = await position(page);
    await stepButton(page).click();
    await expect.poll(() => position(page)).toBe(before + 1);
    await cancelButton(page).click();
    await expect(panel(page).getByRole('status')).toHaveText('Exploration cancelled.');
    await expect(bar).toHaveCount(0);
    await expect(exploreButton(page)).toBeEnabled();
    await expect(groups(page)).toHaveCount(0);
    // Let the held worker load: the cancelled exploration does not come back with a result.
    release();
    await page.waitForTimeout(1000);
    await expect(panel(page).getByRole('status')).toHaveText('Exploration cancelled.');
    await expect(groups(page)).toHaveCount(0);
    // And Explore runs again to the end.
    await exploreButton(page).click();
    await expect(panel(page).getByRole('status')).toContainText(/Explored all [\d,]+ schedules: \d+ outcomes\./, { timeout: 150_000 });
    await page.unroute(/\/explorer\.worker-[\w-]+\.js$/);
  });

  test('the atomic claim (SKIP LOCKED): no anomaly in any schedule of the race', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=skip-locked&fencing=off&schedule=&step=0');
    await exploreButton(page).click();
    await exploredUnder(page, 'skip-locked', 'off');
    await expect(panel(page).getByRole('status')).toContainText(/Explored all [\d,]+ schedules: 1 outcome\./, { timeout: 150_000 });
    await expect(groups(page)).toHaveCount(1);
    const only = groups(page).first();
    await expect(only).toContainText('no anomaly');
    const { count, total } = await countOf(only);
    expect(count).toBe(total);
  });

  test('the naive race: every schedule counted, and a witness of duplicate execution opens in the timeline', async () => {
    const page = lab();
    const testInfo = test.info();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await exploreButton(page).click();
    await exploredUnder(page, 'naive', 'off');
    await expect(panel(page).getByRole('status')).toContainText(/Explored all [\d,]+ schedules/, { timeout: 150_000 });
    await expect(panel(page)).toContainText('All');
    await expect(panel(page)).not.toContainText('sample');

    const duplicate = groups(page).filter({ hasText: 'duplicate execution of run 123' });
    expect(await duplicate.count()).toBeGreaterThan(0);
    const first = duplicate.first();
    const { count, total } = await countOf(first);
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThan(total);
    // The groups add up to every schedule.
    let sum = 0;
    for (const row of await groups(page).all()) sum += (await countOf(row)).count;
    expect(sum).toBe(total);

    await panel(page).scrollIntoViewIfNeeded();
    await shot(page, testInfo.outputPath('explorer-race-naive.png'));

    const witness = (await first.locator('code').textContent()) ?? '';
    expect(witness).toMatch(/^[A-B](,[A-B])+$/);
    const link = first.getByRole('link', { name: /Open a shortest witness/ });
    await expect(link).toHaveAttribute('href', `#scenario=race&strategy=naive&fencing=off&schedule=${witness}`);
    await link.click();
    // The lab opens exactly that schedule, all of it shown, and says what went wrong.
    await expect(page).toHaveURL(new RegExp(`schedule=${witness}&step=\\d+`));
    await expect(outcome(page)).toContainText('Run 123 was executed by both A and B');
    await expect(page.getByRole('img', { name: /Timeline/ })).toBeInViewport();

    await page.setViewportSize({ width: 420, height: 900 });
    await panel(page).scrollIntoViewIfNeeded();
    await shot(panel(page), testInfo.outputPath('explorer-race-naive-narrow.png'));
    await page.evaluate(() => document.documentElement.setAttribute('data-theme', 'dark'));
    await shot(panel(page), testInfo.outputPath('explorer-race-naive-dark.png'));
  });
});
