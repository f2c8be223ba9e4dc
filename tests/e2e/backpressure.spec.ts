/**
 * The backpressure lab in a browser: the starvation case under FIFO and under the fair claim, side by
 * side with every chart drawn; zooming the charts together; Play and Step; the view surviving a link and
 * the Back button. With SCREENSHOTS set (npm run screenshots) it also retakes the README's pictures of it.
 *
 * Simulating the starvation case is most of this file's work (seconds of CPU time on Postgres), so one
 * page plays it once and is looked at every way.
 */
import type { Page } from '@playwright/test';
import { backpressureSimulated, expect, SIMULATING_TEST_MS, test } from './fixtures';

const DIR = 'docs/screenshots';
const STARVATION = 'backpressure&preset=starvation';

const lane = (page: Page, policy: 'fifo' | 'fair') => page.locator(`section[data-policy="${policy}"]`);
const clock = (page: Page) => page.locator('output.bp-clock');

/** Opens a backpressure link and waits until both claims have played to their end. */
async function openBackpressure(page: Page, fragment: string): Promise<void> {
  await page.goto(`/#${fragment}`);
  await expect(page.getByRole('heading', { name: /Backpressure/ })).toBeVisible();
  await backpressureSimulated(page);
}

/** The canvas has marks on it: some pixels differ from its first one. */
async function chartDrawn(page: Page, policy: 'fifo' | 'fair', chart: string): Promise<boolean> {
  return lane(page, policy)
    .locator(`figure[data-chart="${chart}"] canvas`)
    .evaluate((canvas: HTMLCanvasElement) => {
      const ctx = canvas.getContext('2d');
      if (!ctx || canvas.width === 0) return false;
      const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
      let colored = 0;
      for (let i = 0; i < data.length; i += 4) if (data[i + 3]! > 0 && Math.abs(data[i]! - data[i + 2]!) > 60) colored += 1;
      return colored > 50;
    });
}

test('starvation: FIFO keeps B behind all of A, the fair claim takes B at once; a wheel zooms every chart; Step and Play', async ({ page }) => {
  test.setTimeout(SIMULATING_TEST_MS);
  await page.emulateMedia({ colorScheme: 'light' });
  await openBackpressure(page, STARVATION);
  // One Postgres per tab: the view plays on the race lab's engine worker and starts no worker of its own.
  const workers = page.workers().map((worker) => worker.url());
  expect(workers.filter((url) => url.includes('engine.worker'))).toHaveLength(1);
  expect(workers.filter((url) => !url.includes('engine.worker'))).toEqual([]);
  const fifoWaits = lane(page, 'fifo').locator('figure[data-chart="waits"]');
  const fairWaits = lane(page, 'fair').locator('figure[data-chart="waits"]');
  // B's single run: under FIFO it waited behind all of A's (minutes), under the fair claim not at all.
  await expect(fifoWaits.locator('g', { hasText: /^B/ })).toContainText(/median [1-9]\d{2} s/);
  await expect(fairWaits.locator('g', { hasText: /^B/ })).toContainText('median 0 s');
  await expect(lane(page, 'fifo').locator('.bp-headline')).toContainText('101 done');
  await expect(lane(page, 'fair').locator('.bp-headline')).toContainText('101 done');
  for (const policy of ['fifo', 'fair'] as const) {
    for (const chart of ['queue', 'active', 'cost']) expect(await chartDrawn(page, policy, chart), `${policy} ${chart}`).toBe(true);
  }
  if (process.env.SCREENSHOTS) {
    await page.screenshot({ path: `${DIR}/backpressure-starvation.png`, fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForTimeout(100);
    await page.screenshot({ path: `${DIR}/backpressure-starvation-dark.png` });
  }

  // A wheel over one chart zooms every chart of both claims; a double-click shows everything again.
  const fifoQueue = lane(page, 'fifo').locator('figure[data-chart="queue"] canvas');
  const fairCost = lane(page, 'fair').locator('figure[data-chart="cost"] canvas');
  const pixels = (canvas: typeof fairCost) => canvas.evaluate((element: HTMLCanvasElement) => element.toDataURL());
  const whole = await pixels(fairCost);
  const box = (await fifoQueue.boundingBox())!;
  await fifoQueue.scrollIntoViewIfNeeded();
  const shown = (await fifoQueue.boundingBox())!;
  expect(shown.width).toBe(box.width);
  await page.mouse.move(shown.x + shown.width / 2, shown.y + shown.height / 2);
  await page.mouse.wheel(0, -400);
  await expect.poll(() => pixels(fairCost)).not.toBe(whole);
  await fifoQueue.dblclick();
  await expect.poll(() => pixels(fairCost)).toBe(whole);

  // Step and Play: the charts follow the second shown, and Play runs to the end on its own.
  await page.getByRole('button', { name: 'Restart' }).click();
  await expect(clock(page)).toContainText(/^0 s of/);
  await page.getByRole('button', { name: 'Step' }).click();
  await page.getByRole('button', { name: 'Step' }).click();
  await expect(clock(page)).toContainText(/^2 s of/);
  await expect(page).toHaveURL(/at=2$/);
  // At second 2, A's flood is queued and B's run has not been claimed under FIFO.
  await expect(lane(page, 'fifo').locator('.bp-headline')).toContainText('0 done');
  await page.getByRole('combobox', { name: 'Speed' }).selectOption('120');
  await page.getByRole('button', { name: 'Play' }).click();
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Play' })).toBeVisible({ timeout: 60_000 });
  await expect(lane(page, 'fifo').locator('.bp-headline')).toContainText('101 done');
  await expect(page).toHaveURL(/at=end$/);

  // The race lab's keys work here too: R restarts, → steps, ← goes back, Space plays.
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  await page.keyboard.press('r');
  await expect(clock(page)).toContainText(/^0 s of/);
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowLeft');
  await expect(clock(page)).toContainText(/^1 s of/);
  await page.keyboard.press(' ');
  await expect(page.getByRole('button', { name: 'Pause' })).toBeVisible();
});

test('a changed knob is in the link, survives Back from the race lab and a reload', async ({ page }) => {
  test.setTimeout(SIMULATING_TEST_MS);
  // A small case (20 runs), as it is simulated four times here.
  await openBackpressure(page, 'backpressure&preset=overload&streamRuns=20');
  const workers = page.getByLabel('Workers', { exact: true });
  await workers.fill('6');
  await workers.press('Enter');
  await expect(page).toHaveURL(/workers=6/);
  await backpressureSimulated(page);
  const fifoText = await lane(page, 'fifo').locator('figure[data-chart="waits"]').textContent();
  await page.getByRole('button', { name: '← Races & leases' }).click();
  await expect(page.getByRole('combobox', { name: 'Scenario' })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel('Workers', { exact: true })).toHaveValue('6');
  await backpressureSimulated(page);
  await expect(lane(page, 'fifo').locator('figure[data-chart="waits"]')).toHaveText(fifoText ?? '');
  await page.reload();
  await expect(page.getByLabel('Workers', { exact: true })).toHaveValue('6');
  await backpressureSimulated(page);
  await expect(lane(page, 'fifo').locator('figure[data-chart="waits"]')).toHaveText(fifoText ?? '');
});
