/**
 * Write skew as a learner meets it: the compare-and-set chapter's link opens the tenant cap's claims
 * recorded at SERIALIZABLE on PostgreSQL, labelled as recorded and not run in the browser; Next step walks
 * it to B's COMMIT failing 40001 and B's claim again, which finds acme at its cap. The REPEATABLE READ
 * link opens the same claims, where both COMMITs succeed and acme runs two at once, named as the anomaly
 * tenant over cap. The level "Break the
 * tenant cap", once won, links to both from its lesson; opening one leaves the level.
 * E2E_SHOTS=1 keeps screenshots at a desktop's and a phone's size in test-results/write-skew-*.png.
 */
import type { Page } from '@playwright/test';
import { chapterById } from '../../src/lessons/chapters';
import { findLevel } from '../../src/lessons/levels';
import { recording } from '../../src/recordings/files';
import { answerRecordedPrediction, expect, openChapter, openLinkInPlace, outcome, sharedLabPage, shot, slider, stepTimes, test, timeline } from './fixtures';

const lab = (page: Page) => page.locator('#lab-top');
const banner = (page: Page) => lab(page).getByRole('region', { name: 'Recorded trace' });
const SERIALIZABLE = recording('tenant-cap-serializable');
const REPEATABLE_READ = recording('tenant-cap-repeatable-read');
/** B's COMMIT, counted from 1 as the slider counts: 40001 at SERIALIZABLE, a success at REPEATABLE READ. */
const commitOfB = (steps: typeof SERIALIZABLE.steps) => steps.findIndex((step) => step.actor === 'B' && step.action === 'commit') + 1;

async function openChapterLink(page: Page, link: RegExp): Promise<void> {
  const lesson = await openChapter(page, chapterById('compare-and-set').title);
  await shot(lesson, 'test-results/write-skew-chapter.png');
  await lesson.getByRole('link', { name: link }).click();
  await expect(lab(page)).toBeInViewport();
  await expect(slider(page)).toHaveValue('0');
}

/** The view a first visit opens (the race), from which the lesson's chapter links lead into the lab. */
const FIRST_VISIT = 'scenario=race&strategy=naive&fencing=off&schedule=&step=0';

// The chapter's links, its prediction and the REPEATABLE READ link are followed in one page (one Postgres
// start for the four), each test from the race as a first visit shows it, at its own window size.
test.describe('the chapter followed in one page', () => {
  const shared = sharedLabPage();

  for (const viewport of [
    { name: 'desktop', width: 1440, height: 900 },
    { name: 'phone', width: 390, height: 844 },
  ]) {
    test(`${viewport.name}: the chapter's link opens write skew at SERIALIZABLE; Next step reaches B's 40001 and its retry`, async () => {
      const page = shared();
      await page.setViewportSize(viewport);
      await openLinkInPlace(page, FIRST_VISIT);
      await openChapterLink(page, /^Step through write skew at SERIALIZABLE/);
      await expect(page).toHaveURL(/scenario=tenant-backlog&strategy=tenant-cap&.*isolation=serializable/);
      await expect(banner(page)).toContainText(`Recorded at SERIALIZABLE on PostgreSQL ${SERIALIZABLE.serverVersion}, not run in your browser.`);

      await stepTimes(page, commitOfB(SERIALIZABLE.steps));
      await expect(lab(page).getByRole('status')).toContainText('40001');
      await expect(lab(page)).toContainText('could not serialize access due to read/write dependencies among transactions');
      await expect(timeline(page)).not.toHaveAttribute('aria-label', /tenant over cap/);
      await shot(page, `test-results/write-skew-${viewport.name}.png`);
      if (viewport.name === 'phone') expect((await banner(page).boundingBox())!.width).toBeLessThanOrEqual(viewport.width);

      // B claims again: its count now sees A's committed claim, so it passes over acme and takes beta's run.
      const retry = SERIALIZABLE.steps.findIndex((step, index) => index >= commitOfB(SERIALIZABLE.steps) && step.actor === 'B') + 1;
      await stepTimes(page, retry - commitOfB(SERIALIZABLE.steps));
      await expect(lab(page).getByRole('status')).toContainText('B now owns run 124');
      await shot(page, `test-results/write-skew-${viewport.name}-retry.png`);
    });
  }

  test("the chapter's prediction on write skew reads its answer from the recording, and says so", async () => {
    const page = shared();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openLinkInPlace(page, FIRST_VISIT);
    const lesson = await openChapter(page, chapterById('compare-and-set').title);
    const predict = await answerRecordedPrediction(lesson, 'Predict: Write skew, recorded on PostgreSQL', 'PostgreSQL answered (recorded): ');
    await expect(predict).toContainText("After B's COMMIT acme runs");
    await shot(predict, 'test-results/write-skew-predict.png');
  });

  test("the REPEATABLE READ link opens the same claims, where B's COMMIT succeeds", async () => {
    const page = shared();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openLinkInPlace(page, FIRST_VISIT);
    await openChapterLink(page, /^Step through write skew at REPEATABLE READ/);
    await expect(page).toHaveURL(/scenario=tenant-backlog&strategy=tenant-cap&.*isolation=repeatable-read/);
    await expect(banner(page)).toContainText(`Recorded at REPEATABLE READ on PostgreSQL ${REPEATABLE_READ.serverVersion}, not run in your browser.`);
    await stepTimes(page, commitOfB(REPEATABLE_READ.steps) - 1);
    await expect(timeline(page)).not.toHaveAttribute('aria-label', /tenant over cap/);
    await stepTimes(page, 1);
    await expect(lab(page).getByRole('status')).toContainText('B committed its claim of run 121');
    // Both COMMITs passed the count: the lab names acme's second run as the cap broken, at B's COMMIT.
    await expect(outcome(page)).toContainText('Tenant acme has 2 runs running at once (run 120 under A and run 121 under B), over its cap of 1.');
    await expect(timeline(page)).toHaveAttribute('aria-label', /anomalies: tenant over cap/);
    await shot(page, 'test-results/write-skew-repeatable-read.png');
  });
});

test('the level "Break the tenant cap", once won, links its lesson to both recordings; opening one leaves the level', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const level = findLevel('tenant-cap-race')!;
  await page.goto(`/#lesson/challenge/${level.id}`);
  const lesson = page.getByRole('region', { name: 'Lesson', exact: true });
  await lesson
    .getByRole('article', { name: new RegExp(`: ${level.title}`) })
    .getByRole('button', { name: 'Play this level', exact: true })
    .click();
  const section = lab(page).getByRole('region', { name: level.title, exact: true });
  await expect(section).toBeVisible();
  // The level's solution, opened as a link on the level's scenario: the level stays in play and is judged.
  await openLinkInPlace(
    page,
    `scenario=${level.scenarioId}&strategy=${level.settings.strategy}&fencing=on&schedule=${level.solution.join(',')}&step=${level.solution.length}`,
  );
  await expect(section).toContainText('Level solved ✓');
  await expect(section).toContainText(level.lesson);
  await shot(section, 'test-results/write-skew-level.png');
  await section.getByRole('link', { name: /^Step through write skew at SERIALIZABLE/ }).click();
  await expect(section).toHaveCount(0);
  await expect(banner(page)).toContainText(`Recorded at SERIALIZABLE on PostgreSQL ${SERIALIZABLE.serverVersion}, not run in your browser.`);
  await expect(slider(page)).toHaveValue('0');
});
