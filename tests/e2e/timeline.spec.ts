/** The timeline as a learner zooms in and keeps stepping: the newest step never leaves the view. */
import type { Page } from '@playwright/test';
import { expect, openLab, stepTimes, test, timeline } from './fixtures';

/** Where the newest step's mark is drawn, across the timeline's width (0 left edge, 1 right edge); null if not drawn. */
async function newestMarkAcross(page: Page, step: number): Promise<number | null> {
  return timeline(page).evaluate((svg, index) => {
    const mark = svg.querySelector(`path.tl-mark[data-step="${index}"]`);
    if (!mark) return null;
    const box = svg.getBoundingClientRect();
    const at = mark.getBoundingClientRect();
    return (at.left + at.width / 2 - box.left) / box.width;
  }, step);
}

test('zoomed in, each new step scrolls into view; Reset zoom widens the view again', async ({ page }) => {
  // Heartbeat under compare-and-set: fifteen steps with the clock moving, wider than a zoomed-in view.
  await openLab(page, 'scenario=heartbeat&strategy=cas&fencing=on&schedule=&step=0');
  await stepTimes(page, 3);
  const zoomIn = page.getByRole('button', { name: 'Zoom in' });
  // As far in as it goes (four slots wide): later steps must scroll it.
  while (await zoomIn.isEnabled()) await zoomIn.click();
  await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeEnabled();
  for (let position = 4; position <= 15; position++) {
    await stepTimes(page, 1);
    const across = await newestMarkAcross(page, position - 1);
    expect(across, `step ${position} is drawn`).not.toBeNull();
    expect(across!, `step ${position} is inside the view`).toBeGreaterThan(0);
    expect(across!, `step ${position} is inside the view`).toBeLessThan(1);
  }
  // Zoomed in, the first steps have scrolled out of view; the default view holds many more.
  const marks = timeline(page).locator('path.tl-mark[data-step]');
  await expect(timeline(page).locator('path.tl-mark[data-step="0"]')).toHaveCount(0);
  const zoomed = await marks.count();
  await page.getByRole('button', { name: 'Reset zoom' }).click();
  await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeDisabled();
  expect(await marks.count()).toBeGreaterThan(zoomed + 5);
});
