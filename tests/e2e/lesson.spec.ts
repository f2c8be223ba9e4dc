/**
 * The lesson as a learner uses it: answer quiz questions (one graded by running the engine), win a
 * challenge by driving the lab, see an exit criterion ticked, walk a chapter and open its example in the
 * lab, and survive damaged saved progress. Progress lives in localStorage, so reloads and new pages in the
 * same browser context must find it again.
 */
import type { Locator, Page } from '@playwright/test';
// Only data modules that import no SQL files: Node cannot load those (quiz, progress and exit criteria
// do), so the quiz's size and the exit criteria's counts are read from the page.
import { CHALLENGES } from '../../src/lessons/challenges';
import { CHAPTERS } from '../../src/lessons/chapters';
import { STRATEGY_LABELS } from '../../src/sim/types';
import { expect, shot, slider, test, timeline } from './fixtures';
import { workerStep } from './disclosure';

/** PROGRESS_STORAGE_KEY in src/lessons/progress.ts. */
const PROGRESS_KEY = 'lease-lab.lesson-progress';
const steps = (chapterId: string) => CHAPTERS.find((c) => c.id === chapterId)!.steps.length;

// ---- Where things are -------------------------------------------------------------------------------

/** The one-screen lab (the lesson also has live regions, so lab locators are scoped to it). */
const lab = (page: Page) => page.locator('#lab-top');
const labStatus = (page: Page) => lab(page).getByRole('status');
const lesson = (page: Page) => page.getByRole('region', { name: 'Lesson', exact: true });
const tab = (page: Page, name: string) => lesson(page).getByRole('tab', { name, exact: true });
const panel = (page: Page) => lesson(page).getByRole('tabpanel');
const summary = (page: Page) => lesson(page).locator('.ll-progress-summary');
const quizScore = (page: Page) => panel(page).locator('.ll-score');
const questionButton = (page: Page, n: number) =>
  panel(page)
    .getByRole('navigation', { name: 'Questions' })
    .getByRole('button', { name: new RegExp(`^Question ${n},`) });
const question = (page: Page) => panel(page).locator('section.ll-question');
const questionTitle = (page: Page) => question(page).getByRole('heading', { level: 3 });

/** How many questions the quiz has, from the title of the question on show ("Question 1 of 30"). */
async function quizSize(page: Page): Promise<number> {
  const text = await questionTitle(page).innerText();
  const match = /^Question \d+ of (\d+)/.exec(text);
  expect(match, text).not.toBeNull();
  return Number(match![1]);
}

/** "3 of 6 abilities shown. 21 things left to do." as numbers. */
async function exitScore(page: Page): Promise<{ met: number; criteria: number; left: number }> {
  const text = await panel(page).locator('.ll-score').innerText();
  const match = /^(\d+) of (\d+) abilities shown\. (\d+) things? left to do\.$/.exec(text);
  expect(match, text).not.toBeNull();
  return { met: Number(match![1]), criteria: Number(match![2]), left: Number(match![3]) };
}

/** Postgres answered the first load (the fixture's helper reads every status on the page; this one reads the lab's). */
async function labReady(page: Page): Promise<void> {
  await expect(lab(page).getByRole('button', { name: 'Reset', exact: true })).toBeEnabled({ timeout: 90_000 });
  await expect(labStatus(page)).not.toContainText(/Starting Postgres|Loading the scenario/);
}

async function openApp(page: Page, fragment = ''): Promise<void> {
  await page.goto(`/${fragment}`);
  await labReady(page);
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  // The button scrolls to the lesson's heading; a link to a level scrolls on to that level's card once the
  // card is drawn, which may come after the button's scroll and take the heading off the screen.
  const heading = lesson(page).getByRole('heading', { name: 'Lesson', level: 2, exact: true });
  const linkedLevel = lesson(page).locator('.ll-challenge.is-linked');
  await expect.poll(async () => (await isInViewport(heading)) || (await isInViewport(linkedLevel))).toBe(true);
}

async function isInViewport(locator: Locator): Promise<boolean> {
  if ((await locator.count()) === 0) return false;
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    return box.bottom > 0 && box.top < window.innerHeight;
  });
}

async function openTab(page: Page, name: string): Promise<void> {
  await tab(page, name).click();
  await expect(tab(page, name)).toHaveAttribute('aria-selected', 'true');
}

/** Picks a choice by its visible label and presses Check. */
async function answer(page: Page, label: string): Promise<Locator> {
  const card = question(page);
  await card.getByRole('radio', { name: label, exact: true }).check();
  await card.getByRole('button', { name: 'Check', exact: true }).click();
  return card.getByRole('status');
}

async function expectScore(page: Page, correct: number, answered: number, total: number): Promise<void> {
  await expect(quizScore(page)).toHaveText(`Score: ${correct} of ${total} correct (${answered} answered). Your first answer to each question counts.`);
  await expect(summary(page)).toContainText(`Quiz ${correct}/${total}`);
}

/** The lab's trace after the slider moved to `n` (every step of a naive claim is one trace step). */
async function expectLabAt(page: Page, n: number): Promise<void> {
  await expect(slider(page)).toHaveValue(String(n));
  await expect(timeline(page)).toHaveAttribute('aria-label', new RegExp(`: ${n} of ${n} steps shown`));
}

/** Steps worker X (its toolbar button, or its program's next line) and waits for the step to land. */
async function stepWorker(page: Page, worker: string): Promise<void> {
  const before = Number(await slider(page).inputValue());
  await workerStep(page, worker).click();
  await expectLabAt(page, before + 1);
}

/** Continue through a chapter from its current step and finish it. */
async function finishChapter(page: Page, chapterId: string): Promise<void> {
  const chapter = CHAPTERS.find((c) => c.id === chapterId)!;
  const article = panel(page).getByRole('article', { name: chapter.title, exact: true });
  await expect(article).toBeVisible();
  for (let i = 1; i < chapter.steps.length; i++) {
    await article.getByRole('button', { name: 'Continue →' }).click();
    await expect(article.locator('.ll-step-count')).toHaveText(`Step ${i + 1} of ${chapter.steps.length}`);
  }
  await article.getByRole('button', { name: /^Finish chapter/ }).click();
  await expect(article).toBeHidden();
}

/** Console errors and page errors of a second page fail the test like the fixture's page does. */
function watch(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`second page console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`second page error: ${error.message}`));
}

// ---- Tests ------------------------------------------------------------------------------------------

test('quiz: right, wrong and a predicted run are scored, and the score survives a reload and a new page', async ({ page, context, problems }) => {
  // A lesson link straight to the predict question ("Two workers poll at once").
  await openApp(page, '#lesson/question/q-predict-race');
  await expect(tab(page, 'Quiz')).toHaveAttribute('aria-selected', 'true');
  const total = await quizSize(page);
  const predictNumber = Number(/^Question (\d+)/.exec(await questionTitle(page).innerText())![1]);
  await expect(questionTitle(page)).toHaveText(`Question ${predictNumber} of ${total} Predict, then run`);
  await expectScore(page, 0, 0, total);

  // Its parameters are random and the engine decides. With the naive claim the second worker ends up on the
  // older run too; compare-and-set and the atomic claim send it on to the newer one.
  await expect(question(page).getByRole('heading', { level: 4 })).toHaveText('Two workers poll at once');
  const facts = (await question(page).getByRole('list', { name: 'This time' }).innerText()).replace(/\s+/g, ' ');
  const [, older, newer] = /run (\d+) is older than run (\d+)/.exec(facts) ?? [];
  expect(older, `facts: ${facts}`).toBeTruthy();
  const expected = facts.includes('the naive claim') ? older : newer;
  await question(page)
    .getByRole('radio', { name: `Run ${expected}`, exact: true })
    .check();
  await question(page).getByRole('button', { name: 'Run it' }).click();
  const reveal = question(page).locator('.ll-predict').getByRole('status');
  await expect(reveal.locator('.ll-verdict')).toHaveText(`Right. The engine says: Run ${expected}`, { timeout: 60_000 });
  await expect(reveal.getByText('Why, from the run')).toBeVisible();
  await expect(reveal.locator('.ll-explain li').first()).toContainText(`run ${expected}`);
  await expect(reveal).toContainText('The naive claim lets both workers take the oldest run');
  await expect(question(page).locator('label.is-answer .ll-tag')).toHaveText('what happened');
  await expectScore(page, 1, 1, total);
  await expect(questionButton(page, predictNumber)).toHaveAccessibleName(`Question ${predictNumber}, answered correctly`);

  // Question 1, single choice, answered right.
  await questionButton(page, 1).click();
  await expect(questionTitle(page)).toHaveText(`Question 1 of ${total} One answer`);
  let feedback = await answer(page, 'Whether it shows up depends on the timing of concurrent operations');
  await expect(feedback.locator('.ll-verdict')).toHaveText('Correct.');
  await expect(feedback).toContainText('A race condition is a bug whose appearance depends on how concurrent operations interleave');
  await expect(feedback.getByRole('link', { name: 'Why SELECT then UPDATE is unsafe' })).toBeVisible();
  await expectScore(page, 2, 2, total);
  await expect(questionButton(page, 1)).toHaveAccessibleName('Question 1, answered correctly');

  // Question 2, single choice, answered wrong: told why that answer is wrong, and not which one is right.
  await question(page).getByRole('button', { name: 'Next question →' }).click();
  await expect(questionTitle(page)).toHaveText(`Question 2 of ${total} One answer`);
  feedback = await answer(page, 'Idempotency keys do not work in Postgres');
  await expect(feedback.locator('.ll-verdict')).toHaveText('Not quite.');
  await expect(feedback).toContainText('They do: a unique key, or a status check in the final write, refuses a second completion');
  await expect(feedback).not.toContainText('Idempotency protects the last write, not the work before it.');
  await expectNoGiveaway(question(page));
  await expect(question(page).locator('label.is-wrong')).toContainText('Idempotency keys do not work in Postgres');
  await expectScore(page, 2, 3, total);
  await expect(questionButton(page, 2)).toHaveAccessibleName('Question 2, answered wrongly');

  const intact = async (p: Page) => {
    await openTab(p, 'Quiz');
    await expectScore(p, 2, 3, total);
    await expect(questionButton(p, 1)).toHaveAccessibleName('Question 1, answered correctly');
    await expect(questionButton(p, 2)).toHaveAccessibleName('Question 2, answered wrongly');
    await expect(questionButton(p, predictNumber)).toHaveAccessibleName(`Question ${predictNumber}, answered correctly`);
    // The quiz carries on at the first question not answered yet.
    await expect(p.getByRole('navigation', { name: 'Questions' }).locator('[aria-current="step"]')).toHaveAccessibleName('Question 3, not answered');
  };

  await page.reload();
  await labReady(page);
  await intact(page);

  // A new page in the same context reads the same localStorage.
  const second = await context.newPage();
  watch(second, problems);
  await second.goto('/');
  await labReady(second);
  await intact(second);

  // With both open, an answer given on one page shows on the other, and neither overwrites the other's.
  await expect(await answer(second, 'Another worker can read the same row between the two statements, and the UPDATE does not check it again')).toContainText(
    'Correct.',
  );
  await expectScore(second, 3, 4, total);
  await expectScore(page, 3, 4, total);
  // Question 2 again, right this time: the explanation shows, the score keeps the first answer.
  await questionButton(page, 2).click();
  await expect(
    await answer(page, 'By the time the final write is checked, the duplicate model and tool calls have already run and been paid for'),
  ).toContainText('Idempotency protects the last write, not the work before it.');
  await expectScore(page, 3, 4, total);
  await expectScore(second, 3, 4, total);
  await expect(questionButton(page, 2)).toHaveAccessibleName('Question 2, answered wrongly');
  await second.close();
});

/** Words that would mark a right choice, or where an event belongs. */
const GIVEAWAY = /correct answer|belongs at|right place/i;

/**
 * Nothing a learner, or a screen reader, can read in the question card gives a right choice away: not its
 * text, not its accessibility tree, and no tag but those that mark the learner's own wrong answer.
 */
async function expectNoGiveaway(card: Locator): Promise<void> {
  expect(`${await card.innerText()}\n${await card.ariaSnapshot()}`).not.toMatch(GIVEAWAY);
  await expect(card.locator('.is-answer')).toHaveCount(0);
  for (const tag of await card.locator('.ll-tag').allInnerTexts()) expect(['your answer', 'your answer: not true', 'too early']).toContain(tag);
}

/** Shows the first question of a kind ("Pick all that apply", "Put in order", "Spot the bug"), by its title. */
async function firstOfKind(page: Page, kind: string, total: number): Promise<void> {
  for (let n = 1; n <= total; n++) {
    await questionButton(page, n).click();
    if ((await questionTitle(page).innerText()).endsWith(kind)) return;
  }
  throw new Error(`no question of kind ${kind}`);
}

for (const size of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 390, height: 844 },
]) {
  test(`quiz (${size.name}): a wrong answer says why it is wrong and reveals no right choice; trying again does not change the score`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await openApp(page);
    await openTab(page, 'Quiz');
    const total = await quizSize(page);
    const card = question(page);
    const feedback = card.getByRole('status');

    // Several answers: a single tick (right or not), an order as it was first shown, line 1 of the SQL.
    await firstOfKind(page, 'Pick all that apply', total);
    const boxes = card.getByRole('checkbox');
    const labels = await card.locator('label.ll-choice').allInnerTexts();
    await boxes.first().check();
    await card.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(feedback.locator('.ll-verdict')).toHaveText('Not quite.');
    const said = await feedback.innerText();
    // It speaks only of what the learner ticked: no choice left unticked is named.
    for (const label of labels.slice(1)) expect(said).not.toContain(label.trim());
    await expectNoGiveaway(card);
    await shot(card, testInfo.outputPath(`quiz-wrong-multiple-${size.name}.png`));

    await firstOfKind(page, 'Put in order', total);
    await card.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(feedback.locator('.ll-verdict')).toHaveText('Not quite.');
    await expect(feedback).toContainText(/comes too early: it cannot happen before/);
    await expectNoGiveaway(card);
    await expect(card.locator('li.is-wrong .ll-tag')).toHaveText('too early');
    await shot(card, testInfo.outputPath(`quiz-wrong-order-${size.name}.png`));

    await firstOfKind(page, 'Spot the bug', total);
    await card.getByRole('radio').first().check();
    await card.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(feedback.locator('.ll-verdict')).toHaveText('Not quite.');
    await expect(feedback).toContainText(/Line 1, ".*", is not the faulty one\. /);
    await expectNoGiveaway(card);
    await shot(card, testInfo.outputPath(`quiz-wrong-bug-${size.name}.png`));

    // Three answered, none right; trying again (and again) is practice: the score stays.
    await expectScore(page, 0, 3, total);
    await card.getByRole('button', { name: 'Try again', exact: true }).click();
    await expect(card.getByText('Your score keeps your first answer; trying again is practice.')).toBeHidden();
    await card.getByRole('radio').nth(1).check();
    await card.getByRole('button', { name: 'Check', exact: true }).click();
    await expect(feedback.locator('.ll-verdict')).toHaveText(/^(Correct|Not quite)\.$/);
    await expect(feedback).toContainText('Your score keeps your first answer; trying again is practice.');
    await expectScore(page, 0, 3, total);
  });
}

test('challenge won by driving the lab ticks an exit criterion', async ({ page }) => {
  const challenge = CHALLENGES.find((c) => c.id === 'double-run')!;
  const criterion = (p: Page) => panel(p).getByRole('article', { name: /^I can explain the race/ });
  const requirement = (p: Page, text: string) => panel(p).locator('.ll-requirements > li').filter({ hasText: text });
  /** Goes back to the exit criteria and follows the link of a requirement still to do. */
  const follow = async (text: string) => {
    await openTab(page, 'Exit criteria');
    await expect(requirement(page, text)).toContainText('(to do)');
    await requirement(page, text).getByRole('link').click();
  };

  await openApp(page);
  await openTab(page, 'Exit criteria');
  const before = await exitScore(page);
  expect(before.met).toBe(0);
  await expect(criterion(page).getByRole('heading', { level: 3 })).toHaveAccessibleName('I can explain the race (not yet)');
  const required = await criterion(page).locator('.ll-requirements > li').count();
  expect(required).toBeGreaterThanOrEqual(3);

  // The two chapters it asks for: follow the link, Continue to the end of each ("Finish" moves on to the next).
  await follow('Finish the chapter "The race"');
  await expect(tab(page, 'Chapters')).toHaveAttribute('aria-selected', 'true');
  await finishChapter(page, 'race');
  await finishChapter(page, 'select-then-update');
  await expect(summary(page)).toContainText(`Chapters 2/${CHAPTERS.length}`);

  // The two questions, answered right from their links.
  await follow('Answer correctly the first time: "What makes a bug a race condition?"');
  await expect(await answer(page, 'Whether it shows up depends on the timing of concurrent operations')).toContainText('Correct.');
  await follow('Answer correctly the first time: "SELECT and UPDATE are each atomic.');
  await expect(await answer(page, 'Another worker can read the same row between the two statements, and the UPDATE does not check it again')).toContainText(
    'Correct.',
  );
  await openTab(page, 'Exit criteria');
  expect((await exitScore(page)).left).toBe(before.left - required + 1);
  await expect(criterion(page).getByRole('heading', { level: 3 })).toHaveAccessibleName('I can explain the race (not yet)');

  // What is left for this ability: the level.
  await follow(`Solve the level "${challenge.title}"`);
  await expect(tab(page, 'Levels')).toHaveAttribute('aria-selected', 'true');

  // The level, played in the lab: its goal in a banner above the timeline, judged after every step.
  const card = panel(page).getByRole('article', { name: new RegExp(`Level \\d+: ${escapeRe(challenge.title)}`) });
  await expect(card.locator('.ll-badge')).toHaveText('not solved yet');
  await card.getByRole('button', { name: 'Play this level', exact: true }).click();
  await expect(lab(page)).toBeInViewport();
  const banner = lab(page).getByRole('region', { name: challenge.title, exact: true });
  await expect(banner).toContainText(challenge.goal);
  const scenario = lab(page).getByRole('combobox', { name: 'Scenario', exact: true });
  const strategy = lab(page).getByRole('combobox', { name: 'Strategy', exact: true });
  await expect(scenario).toHaveValue('three-workers');
  await expect(strategy).toHaveValue('naive');
  await labReady(page);
  await expectLabAt(page, 0);

  // A wrong turn first: the level is about the naive claim.
  await strategy.selectOption({ label: STRATEGY_LABELS['skip-locked'] });
  await expect(timeline(page)).toHaveAttribute('aria-label', new RegExp(`\\(${escapeRe(STRATEGY_LABELS['skip-locked'])}, fencing off\\)`));
  await stepWorker(page, 'A');
  await stepWorker(page, 'B');
  await expect(banner).toContainText('Not yet: This challenge is about the naive claim');

  // Back to the naive claim: the lab replays A, B with it, and the level judges the new run.
  await strategy.selectOption({ label: STRATEGY_LABELS.naive });
  await expect(timeline(page)).toHaveAttribute('aria-label', new RegExp(`\\(${escapeRe(STRATEGY_LABELS.naive)}, fencing off\\): 2 of 2 steps shown`));
  await expect(banner).not.toContainText('about the naive claim');
  // The race everyone finds first: both read run 123, both claim it, both pay. Not what this level asks.
  await stepWorker(page, 'A');
  await stepWorker(page, 'B');
  await stepWorker(page, 'A');
  await expect(labStatus(page)).not.toContainText('executed by both');
  await stepWorker(page, 'B');
  await expect(labStatus(page)).toContainText('executed by both A and B');
  await expect(banner).toContainText('That is the race everyone finds first');
  await expect(banner).toContainText('not solved yet');

  // From a fresh start: A claims run 123 alone, then B and C race for run 124.
  await lab(page).getByRole('button', { name: 'Reset', exact: true }).click();
  await expectLabAt(page, 0);
  for (const worker of ['A', 'A', 'B', 'C', 'B', 'C', 'B']) await stepWorker(page, worker);
  await expect(banner).toContainText('not solved yet');
  await stepWorker(page, 'C');
  await expect(banner).toContainText('Level solved ✓ B and C both held a claim on run 124');
  await expect(banner).toContainText(challenge.lesson);
  await expect(banner).toContainText(' · solved');
  await expect(card.locator('.ll-badge')).toHaveText('solved');
  await expect(summary(page)).toContainText(`Levels 1/${CHALLENGES.length}`);

  // The exit criterion is ticked by what was done, and the page says what is left.
  await openTab(page, 'Exit criteria');
  expect(await exitScore(page)).toEqual({ met: 1, criteria: before.criteria, left: before.left - required });
  await expect(criterion(page).getByRole('heading', { level: 3 })).toHaveAccessibleName('I can explain the race (done)');
  await expect(criterion(page).locator('.ll-requirements > li')).toHaveText(Array(required).fill(/\(done\)$/));
  await expect(requirement(page, `Solve the level "${CHALLENGES.find((c) => c.id === 'split-ownership')!.title}"`)).toContainText('(to do)');
  await expect(panel(page).locator('.ll-criterion.is-met')).toHaveCount(1);

  // A requirement still to do links to where it is done.
  await requirement(page, `Solve the level "${CHALLENGES.find((c) => c.id === 'split-ownership')!.title}"`)
    .getByRole('link')
    .click();
  await expect(tab(page, 'Levels')).toHaveAttribute('aria-selected', 'true');
});

test('a puzzle level: a hint, the obvious schedule not won, the winning one won at its step, and both still there after a reload', async ({ page }) => {
  const challenge = CHALLENGES.find((c) => c.id === 'atomic-race')!;
  const card = (p: Page) => panel(p).getByRole('article', { name: new RegExp(`Level \\d+: ${escapeRe(challenge.title)}`) });
  const banner = (p: Page) => lab(p).getByRole('region', { name: challenge.title, exact: true });
  await openApp(page, '#lesson/challenge/atomic-race');
  await expect(tab(page, 'Levels')).toHaveAttribute('aria-selected', 'true');
  await expect(card(page).locator('.ll-badge')).toHaveText('not solved yet');

  // It opens in the lab at a fresh start, with its scenario, claim and fencing.
  await card(page).getByRole('button', { name: 'Play this level', exact: true }).click();
  await expect(lab(page).getByRole('combobox', { name: 'Scenario', exact: true })).toHaveValue('race');
  await expect(lab(page).getByRole('combobox', { name: 'Strategy', exact: true })).toHaveValue('skip-locked');
  await expect(lab(page).getByRole('switch', { name: 'Fencing' })).toBeChecked();
  await labReady(page);
  await expectLabAt(page, 0);

  // Hints come one at a time.
  await banner(page).getByRole('button', { name: 'Show hint 1 of 3' }).click();
  await expect(banner(page).getByRole('list', { name: 'Hints' }).getByRole('listitem')).toHaveText([challenge.hints[0]]);
  await expect(banner(page).getByRole('button', { name: 'Show hint 2 of 3' })).toBeEnabled();

  // The obvious schedule: the claims overlap, and B passes over A's locked run. Not won.
  await stepWorker(page, 'A');
  await stepWorker(page, 'B');
  await expect(banner(page)).toContainText("Not yet: At step 2 B claimed while A's claim transaction still held run 123");

  // From a fresh start: A claims, dies before committing, and B takes the run with the clock still.
  await lab(page).getByRole('button', { name: 'Reset', exact: true }).click();
  await expectLabAt(page, 0);
  await stepWorker(page, 'A');
  const before = Number(await slider(page).inputValue());
  // The race's script crashes nobody, but this level's moves do: its Crash is shown while it is in play.
  await lab(page).getByRole('button', { name: 'Crash worker A', exact: true }).click();
  await expectLabAt(page, before + 1);
  await stepWorker(page, 'B');
  await stepWorker(page, 'B');
  await expect(banner(page)).toContainText('not solved yet');
  await stepWorker(page, 'B');
  await expect(banner(page)).toContainText('Level solved ✓');
  await expect(banner(page)).toContainText('A crashed at step 2 with its claim uncommitted');
  await expect(banner(page)).toContainText('solved with hints (1)');
  await expect(banner(page)).toContainText(challenge.lesson);

  // A reload keeps the level in play, its win and its hint.
  await expect(page).toHaveURL(/step=5$/);
  await page.reload();
  await labReady(page);
  await expect(banner(page)).toContainText('solved with hints (1)');
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  await openTab(page, 'Levels');
  await expect(card(page).locator('.ll-badge')).toHaveText('solved with hints (1)');
  await expect(summary(page)).toContainText(`Levels 1/${CHALLENGES.length}`);
});

test('chapter: Continue through the narration and open its example in the lab at that point', async ({ page }) => {
  await openApp(page);
  const race = CHAPTERS.find((c) => c.id === 'race')!;
  const article = panel(page).getByRole('article', { name: race.title, exact: true });
  const count = article.locator('.ll-step-count');
  await expect(article.getByText(`Chapter 1 of ${CHAPTERS.length}`)).toBeVisible();
  await expect(count).toHaveText(`Step 1 of ${steps('race')}`);
  await expect(article.getByRole('button', { name: '← Back' })).toBeDisabled();

  await article.getByRole('button', { name: 'Continue →' }).click();
  await expect(count).toHaveText(`Step 2 of ${steps('race')}`);
  await expect(article.getByRole('heading', { level: 3 })).toHaveText('A finds run 123');
  await article.getByRole('button', { name: 'Continue →' }).click();
  await expect(article.getByRole('heading', { level: 3 })).toHaveText('B finds run 123 too');
  await expect(count).toHaveText(`Step 3 of ${steps('race')}`);

  // The step talks about schedule step 2 (B's SELECT): the lab opens there.
  await article.getByRole('button', { name: 'Open in the lab at schedule step 2 (B)' }).click();
  await expect(lab(page)).toBeInViewport();
  await expect(lab(page).getByRole('combobox', { name: 'Scenario', exact: true })).toHaveValue('race');
  await expect(lab(page).getByRole('combobox', { name: 'Strategy', exact: true })).toHaveValue('naive');
  // The label names the scenario, the claim, how many steps are shown, and the step in focus (B's SELECT).
  await expect(timeline(page)).toHaveAttribute(
    'aria-label',
    new RegExp(`^Timeline of race \\(${escapeRe(STRATEGY_LABELS.naive)}, fencing off\\): 2 of 2 steps shown; selected #2 .* worker B · select · ok`),
  );
  await expect(slider(page)).toHaveValue('2');
  await expect(labStatus(page)).toContainText('Step 2:');

  // On to "Both claim it", whose example is four steps in; the learner's place in the chapter was kept.
  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  await expect(count).toHaveText(`Step 3 of ${steps('race')}`);
  await article.getByRole('button', { name: 'Continue →' }).click();
  await expect(article.getByRole('heading', { level: 3 })).toHaveText('Both claim it');
  await article.getByRole('button', { name: 'Open in the lab at schedule step 4 (B)' }).click();
  await expect(timeline(page)).toHaveAttribute(
    'aria-label',
    new RegExp(`^Timeline of race \\(${escapeRe(STRATEGY_LABELS.naive)}, fencing off\\): 4 of 4 steps shown; selected #4 .* worker B · naive-update`),
  );
  await expect(labStatus(page)).toContainText('Step 4:');

  // A chapter whose step uses other settings: NOWAIT in "Wait, fail or skip".
  const lockModes = CHAPTERS.find((c) => c.id === 'lock-modes')!;
  const nowaitStep = lockModes.steps.findIndex((s) => s.mark?.settings?.strategy === 'nowait');
  await lesson(page)
    .getByRole('navigation', { name: 'Lesson chapters' })
    .getByRole('link', { name: new RegExp(`^${escapeRe(lockModes.title)}`) })
    .click();
  const lockArticle = panel(page).getByRole('article', { name: lockModes.title, exact: true });
  for (let i = 0; i < nowaitStep; i++) await lockArticle.getByRole('button', { name: 'Continue →' }).click();
  await expect(lockArticle.locator('.ll-step-count')).toHaveText(`Step ${nowaitStep + 1} of ${lockModes.steps.length}`);
  const token = lockModes.steps[nowaitStep]!.mark!.tokenIndex!;
  await lockArticle.getByRole('button', { name: new RegExp(`^Open in the lab at schedule step ${token + 1} `) }).click();
  await expect(lab(page).getByRole('combobox', { name: 'Scenario', exact: true })).toHaveValue('lock-wait');
  await expect(lab(page).getByRole('combobox', { name: 'Strategy', exact: true })).toHaveValue('nowait');
  await expect(timeline(page)).toHaveAttribute(
    'aria-label',
    new RegExp(`^Timeline of lock-wait \\(${escapeRe(STRATEGY_LABELS.nowait)}, fencing on\\): (\\d+) of \\1 steps shown`),
  );

  // The place in each chapter is saved: after a reload the lesson reopens the chapter being read.
  await page.reload();
  await labReady(page);
  await expect(panel(page).getByRole('article', { name: lockModes.title, exact: true }).locator('.ll-step-count')).toHaveText(
    `Step ${nowaitStep + 1} of ${lockModes.steps.length}`,
  );
  await lesson(page)
    .getByRole('navigation', { name: 'Lesson chapters' })
    .getByRole('link', { name: /^The race/ })
    .click();
  await expect(count).toHaveText(`Step 4 of ${steps('race')}`);
});

test('damaged saved progress: a notice, a usable lesson, and a reset that asks first', async ({ page }) => {
  await page.addInitScript((key) => {
    // Only before the first load: later loads must see what the page itself saved.
    if (sessionStorage.getItem('lesson-spec-seeded') === null) {
      sessionStorage.setItem('lesson-spec-seeded', '1');
      localStorage.setItem(key, '{"version":1,"quiz":{"q-race-condition":"yes"');
    }
  }, PROGRESS_KEY);
  await openApp(page);

  const notice = lesson(page).getByRole('alert');
  await expect(notice).toContainText('Your saved progress could not be read (it was damaged or edited). It was set aside, and the lesson starts fresh.');
  await expect(summary(page)).toHaveText(/^Chapters 0\/\d+ · Quiz 0\/\d+ · Levels 0\/\d+$/);

  // The lesson still works, and saving over the damaged data works too.
  await openTab(page, 'Quiz');
  const total = await quizSize(page);
  await expect(await answer(page, 'Whether it shows up depends on the timing of concurrent operations')).toContainText('Correct.');
  await expectScore(page, 1, 1, total);
  const saved = await page.evaluate(
    (key) => JSON.parse(localStorage.getItem(key) ?? 'null') as { quiz?: Record<string, { correct: boolean }> } | null,
    PROGRESS_KEY,
  );
  expect(saved?.quiz?.['q-race-condition']?.correct).toBe(true);
  // The damaged text was kept aside before the first save replaced it.
  expect(await page.evaluate((key) => localStorage.getItem(`${key}:unreadable`), PROGRESS_KEY)).toBe(
    JSON.stringify(['{"version":1,"quiz":{"q-race-condition":"yes"']),
  );
  await notice.getByRole('button', { name: 'Dismiss' }).click();
  await expect(notice).toBeHidden();

  // Reset asks first; "Keep it" keeps everything.
  const footer = lesson(page).locator('.ll-hub-footer');
  await footer.getByRole('button', { name: 'Reset my progress' }).click();
  const confirm = footer.getByRole('group', { name: /Erase your finished chapters, quiz answers and solved levels\?/ });
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole('button', { name: 'Keep it' })).toBeFocused();
  await confirm.getByRole('button', { name: 'Keep it' }).click();
  await expect(confirm).toBeHidden();
  await expect(footer.getByRole('button', { name: 'Reset my progress' })).toBeFocused();
  await expectScore(page, 1, 1, total);

  // Erasing clears the score and the saved data.
  await footer.getByRole('button', { name: 'Reset my progress' }).click();
  await confirm.getByRole('button', { name: 'Erase my progress' }).click();
  await expect(lesson(page).locator('.ll-notice')).toContainText('Your progress has been erased.');
  await expectScore(page, 0, 0, total);
  await expect(questionButton(page, 1)).toHaveAccessibleName('Question 1, not answered');
  expect(await page.evaluate((key) => localStorage.getItem(key), PROGRESS_KEY)).toBeNull();

  // And it stays erased after a reload, with no complaint about damaged data.
  await page.reload();
  await labReady(page);
  await expect(summary(page)).toContainText(`Quiz 0/${total}`);
  await expect(lesson(page).getByRole('alert')).toHaveCount(0);
});

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
