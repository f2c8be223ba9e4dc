/**
 * The chapter "What production queues do" as a learner meets it: open it from a lesson link, continue to
 * the step where graphile-worker hands the 6-hour job to a second worker, open that moment in the lab (the
 * incident under graphile-worker's own claim), predict what happens to a long job and read the engine's
 * answer, then answer one of the chapter's quiz questions.
 */
import type { Page } from '@playwright/test';
// A data module that imports no SQL files (Node cannot load those), like lesson.spec.ts.
import { CHAPTERS } from '../../src/lessons/chapters';
import { expect, shot, test, timeline, waitReady } from './fixtures';

const lesson = (page: Page) => page.getByRole('region', { name: 'Lesson', exact: true });
const panel = (page: Page) => lesson(page).getByRole('tabpanel');
const lab = (page: Page) => page.locator('#lab-top');
const chapter = CHAPTERS.find((c) => c.id === 'production-queues')!;

test('production queues: the 6-hour job in the lab, a long-job prediction the engine answers, and a new quiz question', async ({ page }, testInfo) => {
  await page.goto('/#lesson/chapter/production-queues');
  await waitReady(page);
  const article = panel(page).getByRole('article', { name: chapter.title, exact: true });
  await expect(article.getByText(`Chapter ${CHAPTERS.length} of ${CHAPTERS.length}`)).toBeVisible();
  await expect(article.getByText('Scenario: graphile-worker #169')).toBeVisible();

  // The first step reads graphile-worker's claim clause by clause, from the file the lab runs.
  await expect(article.getByText('src/strategies/graphile-worker/graphile-claim-available.sql')).toBeVisible();
  await shot(article, testInfo.outputPath('chapter-first-step.png'));

  const twice = chapter.steps.findIndex((s) => s.id === 'graphile-twice');
  for (let i = 0; i < twice; i++) await article.getByRole('button', { name: 'Continue →' }).click();
  await expect(article.locator('.ll-step-count')).toHaveText(`Step ${twice + 1} of ${chapter.steps.length}`);
  await expect(article.getByRole('heading', { level: 3 })).toHaveText(chapter.steps[twice]!.heading);

  // The step's moment in the lab: B's claim at 19:00:01 under graphile-worker's own claim, fencing off.
  const token = chapter.steps[twice]!.mark!.tokenIndex!;
  await article.getByRole('button', { name: new RegExp(`^Open in the lab at schedule step ${token + 1} \\(B\\)`) }).click();
  await expect(lab(page).getByRole('combobox', { name: 'Scenario', exact: true })).toHaveValue('incident-graphile-169');
  await expect(lab(page).getByRole('combobox', { name: 'Strategy', exact: true })).toHaveValue('graphile-worker');
  await expect(timeline(page)).toHaveAttribute('aria-label', /selected #8 .* worker B · claim · ok/);

  // Predict. The facts name the claim and whether B polls before or just after the horizon; only a claim
  // that ends ownership by time, polled after the horizon, hands the job to B.
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  const card = article.locator('.ll-predict');
  await expect(card.getByRole('heading', { level: 4 })).toHaveText('Predict: What happens to this long job?');
  const facts = (await card.getByRole('list', { name: 'This time' }).innerText()).replace(/\s+/g, ' ');
  const twiceExpected = !facts.includes("the lab's atomic claim") && facts.includes('just after');
  const pick = twiceExpected ? /^B claims run \d+ too: the job now runs twice$/ : /^B finds nothing to claim/;
  await card.getByRole('radio', { name: pick }).check();
  await card.getByRole('button', { name: 'Run it' }).click();
  const reveal = card.getByRole('status');
  await expect(reveal.locator('.ll-verdict')).toHaveText(new RegExp(`^Right\\. The engine says: ${twiceExpected ? 'B claims run' : 'B finds nothing'}`), {
    timeout: 60_000,
  });
  await expect(reveal.locator('.ll-explain li').first()).toContainText(twiceExpected ? 'past it' : 'before it');
  await expect(card.locator('label.is-answer .ll-tag')).toHaveText('what happened');
  await shot(card, testInfo.outputPath('long-job-predict.png'));

  // One of the chapter's quiz questions, from its lesson link (read when the page loads, so load it afresh).
  await page.goto('about:blank');
  await page.goto('/#lesson/question/q-queues-duplicates');
  await waitReady(page);
  const question = panel(page).locator('section.ll-question');
  await expect(question.getByRole('heading', { level: 3 })).toHaveText(/^Question \d+ of \d+ One answer$/);
  await question.getByRole('radio', { name: "The queue ended the first worker's ownership while that worker was still running the job", exact: true }).check();
  await question.getByRole('button', { name: 'Check', exact: true }).click();
  const feedback = question.getByRole('status');
  await expect(feedback.locator('.ll-verdict')).toHaveText('Correct.');
  await expect(feedback).toContainText('SKIP LOCKED made every claim safe');
  await expect(feedback.getByRole('link', { name: chapter.title })).toBeVisible();
  await expect(panel(page).locator('.ll-score')).toHaveText(/^Score: 1 of \d+ correct \(1 answered\)\./);
  await shot(question, testInfo.outputPath('quiz-question.png'));
});

test('the tour reads the incidents beside the lab: each step opens its own incident under its own queue, fencing on for the fix', async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto('/#lesson/chapter/production-queues');
  await waitReady(page);
  const article = panel(page).getByRole('article', { name: chapter.title, exact: true });
  const oban = chapter.steps.findIndex((s) => s.id === 'oban');
  for (let i = 0; i < oban; i++) await article.getByRole('button', { name: 'Continue →' }).click();
  await article.getByRole('button', { name: 'Read beside the lab' }).click();

  const tour = page.getByRole('complementary', { name: 'Tour', exact: true });
  const scenario = lab(page).getByRole('combobox', { name: 'Scenario', exact: true });
  const strategy = lab(page).getByRole('combobox', { name: 'Strategy', exact: true });
  const expectStep = async (id: string, scenarioId: string, strategyId: string, fencing: 'on' | 'off') => {
    const step = chapter.steps.find((s) => s.id === id)!;
    await expect(tour.getByRole('heading', { level: 3 })).toHaveText(step.heading);
    await expect(tour.getByText(/^Scenario: /)).toContainText(scenarioId === 'incident-pg-boss-555' ? 'pg-boss #555' : 'Oban (hexpm #1825)');
    await expect(scenario).toHaveValue(scenarioId);
    await expect(strategy).toHaveValue(strategyId);
    await expect(timeline(page)).toHaveAttribute('aria-label', new RegExp(`^Timeline of ${scenarioId} \\(.*, fencing ${fencing}\\): `));
  };
  await expectStep('oban', 'incident-oban-hexpm-1825', 'oban', 'off');
  await tour.getByRole('button', { name: 'Continue →' }).click();
  await expectStep('pg-boss', 'incident-pg-boss-555', 'pg-boss', 'off');
  await tour.getByRole('button', { name: 'Continue →' }).click();
  await expectStep('pg-boss-wrong-copy', 'incident-pg-boss-555', 'pg-boss', 'off');
  await tour.getByRole('button', { name: 'Continue →' }).click();
  await expectStep('pg-boss-fenced', 'incident-pg-boss-555', 'pg-boss', 'on');
  // The fenced replay stops at A's rejected write: the timeline's selected step says so.
  await expect(timeline(page)).toHaveAttribute('aria-label', /selected #11 .* worker A · work · rejected/);
  await shot(page, testInfo.outputPath('tour-pg-boss-fenced.png'));
});
