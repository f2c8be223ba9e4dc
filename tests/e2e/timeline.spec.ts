/** The timeline as a learner zooms in and keeps stepping: the newest step never leaves the view. */
import type { Page } from '@playwright/test';
import { expect, openLab, openLinkInPlace, sharedLabPage, stepTimes, test, timeline } from './fixtures';

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

// One page for both, each opening the same link in it: the first test ends with the zoom reset (Reset
// zoom off again), as a new page has it; the second, which leaves the timeline zoomed, panned and a
// step selected, comes last.
test.describe('the timeline on one page', () => {
  const lab = sharedLabPage();

  test('zoomed in, each new step scrolls into view; Reset zoom widens the view again', async () => {
    const page = lab();
    // Heartbeat under compare-and-set: fifteen steps with the clock moving, wider than a zoomed-in view.
    await openLinkInPlace(page, 'scenario=heartbeat&strategy=cas&fencing=on&schedule=&step=0');
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

  /** The steps whose marks are drawn, lowest first. */
  async function drawnSteps(page: Page): Promise<number[]> {
    const steps = await timeline(page)
      .locator('path.tl-mark[data-step]')
      .evaluateAll((marks) => marks.map((mark) => Number(mark.getAttribute('data-step'))));
    return [...new Set(steps)].sort((a, b) => a - b);
  }

  test('the keys, Ctrl + wheel and a drag zoom and pan the timeline; a plain wheel leaves it; a click still selects', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=heartbeat&strategy=cas&fencing=on&schedule=&step=0');
    await stepTimes(page, 12);
    const reset = page.getByRole('button', { name: 'Reset zoom' });
    const all = await drawnSteps(page);
    expect(all.length).toBeGreaterThan(8);
    const svg = timeline(page);

    // Keys: + zooms in about the middle, 0 resets.
    await svg.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press('+');
    await expect(reset).toBeEnabled();
    await expect.poll(async () => (await drawnSteps(page)).length).toBeLessThan(all.length);
    await page.keyboard.press('0');
    await expect(reset).toBeDisabled();
    await expect.poll(() => drawnSteps(page)).toEqual(all);

    // A plain vertical wheel scrolls the page, not the timeline.
    const box = (await svg.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.wheel(0, 120);
    await expect(reset).toBeDisabled();

    // Ctrl + wheel zooms in around the pointer.
    const middle = { x: box.x + box.width / 2, y: box.y + box.height / 2 };
    await svg.scrollIntoViewIfNeeded();
    const shown = (await svg.boundingBox())!;
    middle.x = shown.x + shown.width / 2;
    middle.y = shown.y + shown.height / 2;
    await page.mouse.move(middle.x, middle.y);
    await page.keyboard.down('Control');
    await page.mouse.wheel(0, -600);
    await page.keyboard.up('Control');
    await expect(reset).toBeEnabled();
    await expect.poll(async () => (await drawnSteps(page)).length).toBeLessThan(all.length);

    // Dragging right brings earlier steps into view.
    const before = await drawnSteps(page);
    expect(before[0]!).toBeGreaterThan(0);
    await page.mouse.move(middle.x - 200, middle.y);
    await page.mouse.down();
    await page.mouse.move(middle.x + 200, middle.y, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await drawnSteps(page))[0]!).toBeLessThan(before[0]!);

    // A click without a drag selects the step under it (one in the middle of the view, clear of its edges).
    const inView = await drawnSteps(page);
    const target = inView[Math.floor(inView.length / 2)]!;
    await svg.locator(`path.tl-mark[data-step="${target}"]`).first().click();
    await expect(svg).toHaveAttribute('data-selected', String(target));
  });
});

test('a click on a mark selects its step before the zoom’s code has come', async ({ page }) => {
  // The zoom (d3-zoom, a chunk of its own) comes in the first pause after the start; held back here, so
  // every click below comes before it. A press without it once fetched it and selected nothing.
  await page.route(/\/assets\/axis-zoom-[^/]*\.js$/, () => {});
  await openLab(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B&step=4');
  const details = page.getByRole('complementary', { name: 'Selected step' });
  await expect(details.getByRole('heading', { level: 2 })).toContainText('Step 4');
  await timeline(page).locator('path.tl-mark[data-step="1"]').first().click();
  await expect(details.getByRole('heading', { level: 2 })).toContainText('Step 2');
});
