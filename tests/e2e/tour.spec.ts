/**
 * The docked tour (issue 18, 3.3): the lesson's current step beside the timeline at 1440×900 (both on
 * screen, nothing scrolled), a sheet over the lab on a phone, Continue plays the step in the lab, the keys
 * step the tour and nothing else, and leaving keeps the place and the quiz.
 */
import { seriousViolations } from './axe';
import type { Page } from '@playwright/test';
import { CHAPTERS } from '../../src/lessons/chapters';
import { expect, openLab, slider, test, timeline } from './fixtures';

const race = CHAPTERS.find((c) => c.id === 'race')!;
const tour = (page: Page) => page.getByRole('complementary', { name: 'Tour', exact: true });
const tourButton = (page: Page) => page.getByRole('button', { name: 'Tour', exact: true });
const stepHeading = (page: Page) => tour(page).getByRole('heading', { level: 3 });
const stepCount = (page: Page) => tour(page).locator('.ll-step-count');
const continueButton = (page: Page) => tour(page).getByRole('button', { name: 'Continue →' });

/** The lab shows the first n steps, the timeline drawn for them (it draws one task behind the store). */
async function labAt(page: Page, n: number): Promise<void> {
  await expect(slider(page)).toHaveValue(String(n));
  await expect(timeline(page)).toHaveAttribute('aria-label', new RegExp(`: ${n} of ${n} steps shown`));
}

/** The element's box lies inside the window, as the page is scrolled now. */
async function wholeOnScreen(page: Page, box: { x: number; y: number; width: number; height: number } | null): Promise<boolean> {
  const size = page.viewportSize()!;
  return box !== null && box.y >= 0 && box.x >= 0 && box.y + box.height <= size.height + 0.5 && box.x + box.width <= size.width + 0.5;
}

test('1440×900: the tour sits beside the timeline, Continue plays each step in the lab, and both stay on screen without scrolling', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page);
  await tourButton(page).click();
  await expect(tourButton(page)).toHaveAttribute('aria-pressed', 'true');
  await expect(stepHeading(page)).toHaveText(race.steps[0]!.heading);
  await expect(stepCount(page)).toHaveText(`Step 1 of ${race.steps.length}`);
  await labAt(page, 0);

  for (const [index, shown] of [
    [1, 1],
    [2, 2],
    [3, 4],
  ] as const) {
    await continueButton(page).click();
    await expect(stepHeading(page)).toHaveText(race.steps[index]!.heading);
    // The step's schedule, played in the lab up to the moment the words talk about.
    await labAt(page, shown);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    expect(await wholeOnScreen(page, await tour(page).boundingBox()), 'the tour is whole on screen').toBe(true);
    expect(await wholeOnScreen(page, await timeline(page).boundingBox()), 'the timeline is whole on screen').toBe(true);
    // Side by side: the tour starts right of the timeline.
    const [t, l] = [(await tour(page).boundingBox())!, (await timeline(page).boundingBox())!];
    expect(t.x).toBeGreaterThanOrEqual(l.x + l.width);
  }
  await tour(page).getByRole('button', { name: '← Back' }).click();
  await expect(stepHeading(page)).toHaveText(race.steps[2]!.heading);
  await labAt(page, 2);
});

test('keys: Continue and Back are reached with Tab, the arrows step the tour only, and a setting left focused is not changed', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, 'scenario=race&strategy=naive&fencing=off');
  const strategy = page.getByRole('combobox', { name: 'Strategy', exact: true });
  await tourButton(page).click();
  await expect(stepHeading(page)).toHaveText(race.steps[0]!.heading);
  // Tab from the tour's own first control reaches Continue.
  await tour(page).getByRole('button', { name: 'Leave the tour' }).focus();
  for (let i = 0; i < 10 && !(await continueButton(page).evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  await expect(continueButton(page)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(stepHeading(page)).toHaveText(race.steps[1]!.heading);
  await labAt(page, 1);
  // Focus is in the tour (on the step's heading): → is the tour's next step, which plays two steps in the
  // lab, not the lab's Step on top of that (which would show three).
  await page.keyboard.press('ArrowRight');
  await expect(stepHeading(page)).toHaveText(race.steps[2]!.heading);
  await labAt(page, 2);
  await page.keyboard.press('ArrowLeft');
  await expect(stepHeading(page)).toHaveText(race.steps[1]!.heading);
  await labAt(page, 1);
  await expect(strategy).toHaveValue('naive');
});

test('leaving the tour keeps the place and the quiz; coming back, and after a reload, it resumes there', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page);
  // A quiz answer first, from the lesson below the lab.
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  const lesson = page.getByRole('region', { name: 'Lesson', exact: true });
  await lesson.getByRole('tab', { name: 'Quiz', exact: true }).click();
  const question = lesson.locator('section.ll-question');
  await question.getByRole('radio').first().check();
  await question.getByRole('button', { name: 'Check', exact: true }).click();
  const score = lesson.locator('.ll-score');
  await expect(score).toContainText('(1 answered)');
  const scoreText = await score.innerText();

  await tourButton(page).click();
  await continueButton(page).click();
  await continueButton(page).click();
  await expect(stepHeading(page)).toHaveText(race.steps[2]!.heading);
  await tour(page).getByRole('button', { name: 'Leave the tour' }).click();
  await expect(tour(page)).toHaveCount(0);
  await expect(tourButton(page)).toHaveAttribute('aria-pressed', 'false');
  await expect(score).toHaveText(scoreText);

  await tourButton(page).click();
  await expect(stepHeading(page)).toHaveText(race.steps[2]!.heading);
  await labAt(page, 2);

  await page.reload();
  await expect(page.getByRole('button', { name: 'Reset', exact: true })).toBeEnabled({ timeout: 90_000 });
  await tourButton(page).click();
  await expect(stepHeading(page)).toHaveText(race.steps[2]!.heading);
  await expect(stepCount(page)).toHaveText(`Step 3 of ${race.steps.length}`);
  await labAt(page, 2);
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  await lesson.getByRole('tab', { name: 'Quiz', exact: true }).click();
  await expect(score).toHaveText(scoreText);
});

test('"Read beside the lab" in the lesson opens the tour at the step being read', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page);
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  const article = page.getByRole('region', { name: 'Lesson', exact: true }).getByRole('article', { name: race.title, exact: true });
  await article.getByRole('button', { name: 'Continue →' }).click();
  await article.getByRole('button', { name: 'Read beside the lab' }).click();
  await expect(stepHeading(page)).toHaveText(race.steps[1]!.heading);
  await labAt(page, 1);
  await expect(tour(page)).toBeInViewport();
  await expect(timeline(page)).toBeInViewport();
});

test('when the tour moves on to the next chapter, the lesson below the lab shows that chapter too', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page);
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  const lesson = page.getByRole('region', { name: 'Lesson', exact: true });
  const chapterBelow = (title: string) => lesson.getByRole('article', { name: title, exact: true });
  await expect(chapterBelow(race.title)).toBeVisible();

  await tourButton(page).click();
  for (let index = 1; index < race.steps.length; index++) {
    await continueButton(page).click();
    await expect(stepHeading(page)).toHaveText(race.steps[index]!.heading);
  }
  const next = CHAPTERS[CHAPTERS.indexOf(race) + 1]!;
  await tour(page)
    .getByRole('button', { name: `Finish chapter, then: ${next.title}` })
    .click();
  await expect(stepHeading(page)).toHaveText(next.steps[0]!.heading);
  await expect(chapterBelow(next.title)).toBeVisible();
  await expect(chapterBelow(race.title)).toHaveCount(0);
});

test('390×844: the tour is a sheet over the lab, the timeline above it after Continue, and the page never scrolls sideways', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openLab(page);
  await tourButton(page).click();
  await expect(stepHeading(page)).toHaveText(race.steps[0]!.heading);
  for (const [index, shown] of [
    [1, 1],
    [2, 2],
  ] as const) {
    await continueButton(page).click();
    await expect(stepHeading(page)).toHaveText(race.steps[index]!.heading);
    await labAt(page, shown);
    const sheet = (await tour(page).boundingBox())!;
    // A sheet: along the window's bottom edge, full width, under half its height.
    expect(Math.round(sheet.y + sheet.height)).toBe(844);
    expect(Math.round(sheet.width)).toBe(390);
    expect(sheet.height).toBeLessThan(844 / 2);
    // The timeline's top, where the step's marks begin, shows above the sheet.
    await expect.poll(async () => (await timeline(page).boundingBox())!.y).toBeGreaterThanOrEqual(0);
    const line = (await timeline(page).boundingBox())!;
    expect(line.y + 40).toBeLessThan(sheet.y);
    await expect(continueButton(page)).toBeInViewport();
  }
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
});

// One axe pass per layout, each in one theme (a11y.spec.ts checks the lab itself in both): the docked
// tour on a wide window in light, the tour's sheet on a phone in dark.
test('the tour and the time-to-scale timeline pass axe: docked on a wide window (light), as a sheet on a phone (dark)', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, 'scenario=heartbeat&strategy=skip-locked&fencing=on&schedule=A,A,A,%2B30,A&step=5');
  await page.getByRole('checkbox', { name: 'time to scale' }).check();
  await tourButton(page).click();
  await expect(stepHeading(page)).toBeVisible();
  for (const [width, height, colorScheme] of [
    [1440, 900, 'light'],
    [390, 844, 'dark'],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.emulateMedia({ colorScheme });
    expect(await seriousViolations(page), `${width}×${height} ${colorScheme}`).toEqual([]);
  }
});
