/**
 * Layout bugs of issue 18 that only a browser shows: the page never scrolls sideways, and labels never
 * sit on each other (checked by their bounding boxes).
 */
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures';

/** How far the page is wider than the window (0: no horizontal scrolling). */
const overflow = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

for (const [width, height] of [
  [390, 844],
  [1440, 900],
] as const) {
  test(`the backpressure lab fits a ${width}×${height} window, its SQL open`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.goto('/#backpressure&preset=starvation');
    await expect(page.getByRole('heading', { name: /Backpressure/ })).toBeVisible();
    await expect(page.locator('output.bp-clock')).not.toContainText('…', { timeout: 150_000 });
    // Every statement open: its code scrolls in its own box, the page does not.
    await page.locator('.bp-sql details').evaluateAll((all) => {
      for (const details of all) (details as HTMLDetailsElement).open = true;
    });
    await expect(page.locator('.bp-sql details:not([open])')).toHaveCount(0);
    await expect(page.locator('svg.bp-waits')).toHaveCount(2);
    await expect.poll(() => overflow(page)).toBe(0);
    // Each chart stays inside its lane.
    for (const chart of await page.locator('.bp-lane').all()) {
      const inside = await chart.evaluate((lane) => {
        const box = lane.getBoundingClientRect();
        return [...lane.querySelectorAll('svg, canvas')].every((el) => el.getBoundingClientRect().right <= box.right + 0.5);
      });
      expect(inside).toBe(true);
    }
  });
}
