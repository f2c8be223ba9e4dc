/**
 * A trace recorded on PostgreSQL, as a learner meets it: from the compare-and-set chapter's link into the
 * lab, labelled as recorded and not run in the browser (and why), stepped with Next step to B's 40001 and
 * back, a move off the recording refused with why, and left for the same schedule at READ COMMITTED.
 * E2E_SHOTS=1 keeps screenshots at a desktop's and a phone's size in test-results/recordings-*.png.
 */
import { expectNoSeriousViolationsInBothThemes } from './axe';
import type { Page } from '@playwright/test';
import { chapterById } from '../../src/lessons/chapters';
import { recording } from '../../src/recordings/files';
import { showAllControls } from './disclosure';
import { answerRecordedPrediction, expect, openChapter, openLinkInPlace, sharedLabPage, shot, slider, stepButton, stepTimes, test } from './fixtures';

const lab = (page: Page) => page.locator('#lab-top');
const banner = (page: Page) => lab(page).getByRole('region', { name: 'Recorded trace' });
const NAIVE = recording('race-naive-repeatable-read');
/** B's UPDATE that fails 40001: the step the recording teaches, counted from 1 as the slider counts. */
const FAILED_AT = NAIVE.steps.findIndex((step) => step.outcome?.status === 'error') + 1;

async function expectLabel(page: Page): Promise<void> {
  await expect(banner(page)).toContainText(`Recorded at REPEATABLE READ on PostgreSQL ${NAIVE.serverVersion}, not run in your browser.`);
  await expect(banner(page)).toContainText("PGlite is one session and cannot hold two transactions' snapshots at once, so REPEATABLE READ cannot run here");
}

// Both tests follow their links in one page (one Postgres start for the two), each at its own window size:
// the first from the race as a first visit shows it, through the lesson's chapter.
test.describe('links followed in one page', () => {
  const shared = sharedLabPage();

  test("the chapter opens a recording; Next step walks it to B's 40001; a move off it is refused; the banner leaves it", async () => {
    const page = shared();
    await page.setViewportSize({ width: 1440, height: 900 });
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await expect(banner(page)).toHaveCount(0);
    const lesson = await openChapter(page, chapterById('compare-and-set').title);
    // The chapter's prediction is judged by a recording: it says so, and reads PostgreSQL's recorded answer.
    const predict = await answerRecordedPrediction(lesson, 'Predict: Above READ COMMITTED, recorded on PostgreSQL', 'PostgreSQL answered (recorded): It ');
    await shot(predict, 'test-results/recordings-predict.png');
    await lesson.getByRole('link', { name: /^Step through the naive claim at REPEATABLE READ/ }).click();
    await expect(lab(page)).toBeInViewport();
    await expectLabel(page);
    await expect(page).toHaveURL(/isolation=repeatable-read/);
    await expect(slider(page)).toHaveValue('0');

    await stepTimes(page, FAILED_AT);
    await expect(lab(page).getByRole('status')).toContainText('40001');
    await expect(lab(page)).toContainText('could not serialize access due to concurrent update');
    await shot(page, 'test-results/recordings-desktop.png');
    await shot(lab(page).getByRole('region', { name: 'Workers' }), 'test-results/recordings-workers.png');

    // Back walks the recorded steps; Next step takes the same one again.
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(slider(page)).toHaveValue(String(FAILED_AT - 1));
    await stepButton(page).click();
    await expect(slider(page)).toHaveValue(String(FAILED_AT));

    // The recording goes on with B's rollback: B's program offers its next line, A's offers none; with every
    // control shown, Step worker A is off and says why (a new run on a server).
    const workers = lab(page).getByRole('region', { name: 'Workers' });
    await expect(workers.getByRole('button', { name: /^Step B: run / })).toBeVisible();
    await expect(workers.getByRole('button', { name: /^Step A: run / })).toHaveCount(0);
    await showAllControls(page);
    const stepA = lab(page).getByRole('button', { name: 'Step worker A', exact: true });
    await expect(stepA).toBeDisabled();
    await expect(stepA).toHaveAttribute(
      'title',
      new RegExp(`^This trace was recorded on PostgreSQL ${NAIVE.serverVersion.replace('.', '\\.')} and the recording's next step is "B"`),
    );
    await expect(lab(page).getByRole('button', { name: 'Advance clock', exact: true })).toBeDisabled();
    await lab(page).getByRole('button', { name: 'Step worker B', exact: true }).click();
    await expect(slider(page)).toHaveValue(String(FAILED_AT + 1));
    await expect(lab(page).getByRole('status')).toContainText('B rolled back its failed transaction');

    await banner(page).getByRole('button', { name: 'Run it at READ COMMITTED here' }).click();
    await expect(banner(page)).toHaveCount(0);
    await expect(page).not.toHaveURL(/isolation=/);
    // Every control folded away again, as the next test's page is on a first visit.
    await page.getByRole('switch', { name: 'All controls' }).uncheck();
  });

  test('on a phone the label reads whole beside the stepped recording', async () => {
    const page = shared();
    await page.setViewportSize({ width: 390, height: 844 });
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&isolation=repeatable-read&schedule=&step=0');
    await expectLabel(page);
    await stepTimes(page, FAILED_AT);
    await expect(lab(page)).toContainText('could not serialize access due to concurrent update');
    await shot(page, 'test-results/recordings-phone.png');
    const box = await banner(page).boundingBox();
    expect(box!.width).toBeLessThanOrEqual(390);
    // The label and its button read in both themes: no serious or critical axe finding on the recording.
    await expectNoSeriousViolationsInBothThemes(page, '#lab-top');
  });
});
