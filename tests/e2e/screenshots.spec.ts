/**
 * Screenshots of the main views for the README, at 1280×720 and on a narrow window. They are looked at
 * by a person; the test only checks that each view is the one it claims to be.
 */
import { expect, openLab, outcome, test, waitReady } from './fixtures';

const DIR = 'docs/screenshots';

test('race: double execution (1280×720, light)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openLab(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B,A,B,A,B&step=8');
  await expect(outcome(page)).toContainText('executed by both A and B');
  await page.screenshot({ path: `${DIR}/race-double-execution.png` });
});

test('paused worker, fencing on (1280×720, light)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openLab(page, 'scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=A,A,A,%2B10,%2B51,B,B,B,%2B40,A');
  await expect(outcome(page)).toContainText('write was rejected');
  await page.screenshot({ path: `${DIR}/paused-worker-fencing-on.png` });
});

test('paused worker, fencing off (1280×720, dark)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await openLab(page, 'scenario=paused-worker&strategy=skip-locked&fencing=off&schedule=A,A,A,%2B10,%2B51,B,B,B,%2B40,A');
  await expect(outcome(page)).toContainText('split ownership');
  await page.screenshot({ path: `${DIR}/paused-worker-fencing-off-dark.png` });
});

test('lock wait: B blocked behind A (1280×720, light)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openLab(page, 'scenario=lock-wait&strategy=for-update&fencing=on&schedule=A,B');
  await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('Blocked, waiting for A');
  await page.screenshot({ path: `${DIR}/lock-wait-blocked.png` });
});

test('narrow window: panels stack (480 wide)', async ({ page }) => {
  await page.setViewportSize({ width: 480, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await openLab(page, 'scenario=race&strategy=naive&fencing=off&schedule=A,B,A,B,A,B&step=6');
  await expect(outcome(page)).toContainText('executed by both A and B');
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(480);
  await page.screenshot({ path: `${DIR}/narrow.png`, fullPage: true });
});

test('help overlay (1280×720)', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openLab(page, 'scenario=three-workers&strategy=skip-locked&fencing=on&schedule=A,B,C,A,B,C&step=6');
  await page.keyboard.press('?');
  await expect(page.getByRole('dialog', { name: 'Keyboard' })).toBeVisible();
  await page.screenshot({ path: `${DIR}/help.png` });
});

/** The docked tour: the lesson's step "Both claim it" beside the timeline it describes. */
for (const [width, height, name] of [
  [1440, 900, 'tour-docked'],
  [390, 844, 'tour-phone'],
] as const) {
  test(`docked tour at ${width}×${height}`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: 'light' });
    await openLab(page);
    await page.getByRole('button', { name: 'Tour', exact: true }).click();
    const tour = page.getByRole('complementary', { name: 'Tour', exact: true });
    for (let i = 0; i < 3; i++) await tour.getByRole('button', { name: 'Continue →' }).click();
    await expect(tour.getByRole('heading', { level: 3 })).toHaveText('Both claim it');
    await expect(page.getByRole('img', { name: /Timeline/ })).toHaveAttribute('aria-label', /: 4 of 4 steps shown/);
    // The focus ring on the step's heading is for keyboard users; the picture shows the page at rest.
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await page.screenshot({ path: `${DIR}/${name}.png` });
  });
}

/** A first visit: the start card opens the story, with only the controls the race needs. */
for (const [width, height, name] of [
  [1440, 900, 'first-screen'],
  [390, 844, 'first-screen-phone'],
] as const) {
  test(`first visit at ${width}×${height}: the start card`, async ({ page }) => {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme: 'light' });
    await openLab(page);
    await expect(page.getByRole('region', { name: /Start here/ }).getByRole('heading')).toHaveText('Start here: two workers, one queue');
    await page.screenshot({ path: `${DIR}/${name}.png` });
  });
}

test('a level in play: its banner over the timeline (1440×900)', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await openLab(page, 'lesson/challenge/late-completion');
  const card = page.getByRole('region', { name: 'Lesson', exact: true }).getByRole('article', { name: /^Level \d+: Finish run 123/ });
  await card.getByRole('button', { name: 'Play this level', exact: true }).click();
  const banner = page.getByRole('region', { name: "Finish run 123 under A's frozen feet", exact: true });
  await expect(banner).toContainText('not solved yet');
  await waitReady(page);
  await banner.scrollIntoViewIfNeeded();
  await page.evaluate(() => window.scrollBy(0, -120));
  await page.screenshot({ path: `${DIR}/level-banner.png` });
});
