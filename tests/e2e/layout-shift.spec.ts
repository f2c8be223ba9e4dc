/**
 * Issue 31, item 6 ("No surprises while starting"): nothing on a first visit's first screen moves after
 * first paint. Measured as the bench measures it (bench/browser.bench.ts, "The first screen"): the
 * browser's layout-shift entries from navigation until a while after the lab is ready, summed. A failure
 * lists each shift's elements and where they went, so the cause can be read off it.
 */
import { expect, openLab, test } from './fixtures';
import { recordShifts, shiftReport, shiftsSoFar, totalShift } from './layout-shifts';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** The bound on the first screen's cumulative layout shift. */
const MOST_SHIFT = 0.02;

/** As the bench looks (its FIRST_SCREEN_SETTLE_MS): this long after ready, the start's late arrivals have come. */
const SETTLE_MS = 3000;

// As a first visit in the bench: the service worker saves the lab (the "Works offline" note comes), and
// the page moves as it does for a learner who has not asked for reduced motion.
test.use({ serviceWorkers: 'allow', reducedMotion: 'no-preference' });

for (const size of SIZES) {
  test(`${size.width}×${size.height}: a first visit's first screen moves by at most ${MOST_SHIFT} (cumulative layout shift) while the lab starts`, async ({
    page,
  }) => {
    await page.setViewportSize(size);
    await page.addInitScript(recordShifts);
    await openLab(page);
    await expect(page.getByRole('region', { name: /Start here/ })).toBeVisible();
    await page.waitForTimeout(SETTLE_MS);
    const shifts = await shiftsSoFar(page);
    expect(totalShift(shifts), `the first screen moved:\n  ${shiftReport(shifts)}`).toBeLessThanOrEqual(MOST_SHIFT);
  });
}
