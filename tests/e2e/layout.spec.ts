/**
 * Layout bugs of issue 18 that only a browser shows: the page never scrolls sideways, and labels never
 * sit on each other (checked by their bounding boxes).
 */
import type { Page } from '@playwright/test';
import { backpressureSimulated, expect, openLab, openLinkInPlace, runsTable, SIMULATING_TEST_MS, sharedLabPage, slider, stepToEnd, test } from './fixtures';
import { crowdedLabels } from './label-boxes';

/** How far the page is wider than the window (0: no horizontal scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

// One page simulates the starvation case once (seconds of CPU time) and is looked at in both windows:
// opened in the wide one (where a chart once stuck out of its lane), then narrowed. The charts follow
// their box a frame or two after a resize, and a chart not yet narrowed is wider, never narrower, than
// it will be: so each check is polled, and an old size can only delay a pass, not make one.
test('the backpressure lab fits a 1440×900 and a 390×844 window, its SQL open', async ({ page }) => {
  test.setTimeout(SIMULATING_TEST_MS);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#backpressure&preset=starvation');
  await expect(page.getByRole('heading', { name: /Backpressure/ })).toBeVisible();
  await backpressureSimulated(page);
  for (const [width, height] of [
    [1440, 900],
    [390, 844],
  ] as const) {
    await test.step(`${width}×${height}`, async () => {
      await page.setViewportSize({ width, height });
      // Every statement open: its code scrolls in its own box, the page does not.
      await page.locator('.bp-sql details').evaluateAll((all) => {
        for (const details of all) (details as HTMLDetailsElement).open = true;
      });
      await expect(page.locator('.bp-sql details:not([open])')).toHaveCount(0);
      await expect(page.locator('svg.bp-waits')).toHaveCount(2);
      await expect.poll(() => overflow(page)).toBe(0);
      // Each chart stays inside its lane.
      for (const chart of await page.locator('.bp-lane').all()) {
        const inside = () =>
          chart.evaluate((lane) => {
            const box = lane.getBoundingClientRect();
            return [...lane.querySelectorAll('svg, canvas')].every((el) => el.getBoundingClientRect().right <= box.right + 0.5);
          });
        await expect.poll(inside).toBe(true);
      }
    });
  }
});

for (const [width, height] of [
  [1440, 900],
  [390, 844],
] as const) {
  // One page per window size: the second strategy's link is opened in it, as a link followed in the tab,
  // on the Postgres the first one started.
  test(`crash-orphan under skip-locked and naive at ${width}×${height}: no timeline label touches another or an expiry marker, at any step`, async ({
    page,
  }) => {
    test.setTimeout(2 * 240_000);
    await page.setViewportSize({ width, height });
    for (const [i, strategy] of ['skip-locked', 'naive'].entries()) {
      await test.step(strategy, async () => {
        const link = `scenario=crash-orphan&strategy=${strategy}&fencing=on`;
        if (i === 0) await openLab(page, link);
        else await openLinkInPlace(page, link);
        await stepToEnd(page);
        const last = Number(await slider(page).getAttribute('max'));
        for (let step = last; step >= 1; step--) {
          await slider(page).fill(String(step));
          // The timeline draws one task behind the store: wait for its selected step's tick.
          await expect(page.locator('text.tl-step-tick-selected')).toHaveText(String(step));
          expect(await crowdedLabels(page), `${strategy}, step ${step}`).toEqual([]);
        }
      });
    }
  });
}

// One page for both window sizes: the same link, opened in it (the second time as a link followed in the
// tab, on the Postgres the first one started), looked at in each window.
test.describe('the runs table in one page', () => {
  const lab = sharedLabPage();

  for (const [width, height] of [
    [1440, 900],
    [1280, 800],
  ] as const) {
    test(`the runs table's rows come into view by scrolling the page at ${width}×${height}, with the selected step beside them`, async () => {
      const page = lab();
      await page.setViewportSize({ width, height });
      await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B&step=4');
      const rows = runsTable(page).locator('tbody tr');
      await expect(rows).toHaveCount(2);
      // Scroll the page (not any panel) until the table's last row would sit in the middle of the window.
      await rows.last().evaluate((row) => {
        window.scrollTo(0, row.getBoundingClientRect().top + window.scrollY - window.innerHeight / 2);
      });
      // In view, and not clipped by a column that scrolls on its own.
      await expect(rows.first()).toBeInViewport();
      await expect(rows.last()).toBeInViewport();
      await expect(page.getByRole('complementary', { name: 'Selected step' })).toBeInViewport();
    });
  }
});
