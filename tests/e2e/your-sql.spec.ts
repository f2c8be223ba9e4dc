/**
 * "Your SQL" in the page: the learner's own claim edited, checked by PostgreSQL's parser (fetched only on
 * the first Apply), stepped, explored in the explorer's own worker, and shared by a link that opens the
 * same view in a new browser context; a syntax error shows PostgreSQL's message and position, a refused
 * shape the analyzer's reason. The claim edited here is the lab's atomic claim without its generation bump
 * (tests/ground-truth/claim-corpus/12): with it a reclaim keeps the old fencing token, so fencing rejects
 * nothing and a paused worker's run is done twice.
 */
import { expectNoSeriousViolationsInBothThemes } from './axe';
import type { Page } from '@playwright/test';
import skipLockedClaim from '../../src/strategies/skip-locked/claim-skip-locked.sql?raw';
import goodJobSession from '../fixtures/claims/good-job-advisory.sql?raw';
import goodJobXact from '../fixtures/claims/good-job-advisory-xact.sql?raw';
import forUpdateWait from '../ground-truth/claim-corpus/02-for-update-wait.sql?raw';
import twoStatementPlain from '../fixtures/claims/two-statement-plain.sql?raw';
import { expect, notices, openLab, openLinkInPlace, outcome, runsTableAfter, shot, stepButton, stepTimes, test, waitReady } from './fixtures';

const START = 'scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=&step=0';
const picker = (page: Page) => page.getByLabel('Strategy', { exact: true });
const editor = (page: Page) => page.getByRole('region', { name: 'Your SQL' });
const claimText = (page: Page) => page.getByLabel('Your claim', { exact: true });
const status = (page: Page) => editor(page).locator('.your-sql-status');
const applyButton = (page: Page) => editor(page).getByRole('button', { name: 'Apply' });
const BUMP = /^\s*lease_generation = lease_generation \+ 1,\n/m;

async function openEditor(page: Page): Promise<void> {
  await picker(page).selectOption('your-sql');
  await expect(editor(page)).toBeVisible();
}

/** Opens the editor and types the claim without the generation bump, then applies it. */
async function applyNoBump(page: Page): Promise<string> {
  await openEditor(page);
  const prefilled = await claimText(page).inputValue();
  expect(prefilled).toContain('FOR UPDATE SKIP LOCKED');
  expect(prefilled).toMatch(BUMP);
  const mine = prefilled.replace(BUMP, '');
  await claimText(page).fill(mine);
  await applyButton(page).click();
  await expect(status(page)).toHaveText('Playing your SQL.', { timeout: 60_000 });
  return mine;
}

test('edit the claim, apply, step it: the parser is fetched on the first Apply only, and the steps run your SQL', async ({ page }) => {
  const wasm: string[] = [];
  const parserCode: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (/libpg-query.*\.wasm$/.test(path)) wasm.push(path);
    if (/\/(analyze|libpg-query)-[^/]*\.js$/.test(path)) parserCode.push(path);
  });
  await openLab(page, START);
  await openEditor(page);
  // Each role's parameters and RETURNING columns beside it.
  await expect(editor(page)).toContainText('$1 worker (text)');
  await expect(editor(page)).toContainText('$2 lease seconds (integer)');
  await expect(editor(page).locator('.your-sql-contract').first()).toContainText('run_idlease_generationlease_expires_atcancel_requested');
  await editor(page).getByLabel('Write my own heartbeat').check();
  await expect(page.getByLabel('Your heartbeat', { exact: true })).toHaveValue(/UPDATE runs/);
  await expect(editor(page)).toContainText('$3 generation (integer)');
  await editor(page).getByLabel('Write my own heartbeat').uncheck();
  await page.waitForLoadState('networkidle');
  expect(wasm, 'the parser is not part of the first load').toEqual([]);
  expect(parserCode, "nor is the analyzer's code").toEqual([]);

  const mine = await applyNoBump(page);
  expect(wasm).toHaveLength(1);
  expect(parserCode.length).toBeGreaterThan(0);
  await expect(page).toHaveURL(/strategy=your-sql&.*claim=WITH%20candidate/);
  expect(await runsTableAfter(page, 0)).toMatch(/123\s+pending\s+NULL\s+17\s/);
  await stepTimes(page, 2);
  // A's claim ran as typed (and A committed it): the run is A's, and its generation was not bumped.
  expect((await runsTableAfter(page, 2)).replace(/\n\(changed\)\n/g, '')).toMatch(/123\s+running\s+A\s+17\s/);
  // Back to A's claim: the step details show the SQL that ran.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await runsTableAfter(page, 1);
  await expect(page.getByRole('region', { name: 'SQL', exact: true })).toContainText(mine.trim().split('\n')[0]!);
  await expect(page.getByRole('region', { name: 'SQL', exact: true })).not.toContainText('lease_generation + 1');
});

test("explore your claim: the explorer's worker plays it (no stale write rejected; the paused worker's writes commit over B's run)", async ({ page }) => {
  await openLab(page, START);
  await applyNoBump(page);
  const panel = page.getByRole('region', { name: 'Every schedule' });
  await panel.scrollIntoViewIfNeeded();
  await expect(panel).toContainText('with Your SQL, fencing on');
  await panel.getByRole('button', { name: 'Explore all schedules' }).click();
  await expect(panel.getByRole('status')).toContainText(/Explored all [\d,]+ schedules/, { timeout: 180_000 });
  const groups = panel.getByRole('list', { name: 'Outcome groups' }).getByRole('listitem');
  await expect(groups.filter({ hasText: 'split ownership of run 123' }).first()).toBeVisible();
  // The lab's own claim bumps the generation, so there fencing rejects the paused worker's stale writes.
  await expect(panel.getByRole('list', { name: 'Outcome groups' })).not.toContainText('stale write rejected');
  const witness = groups
    .filter({ hasText: 'split ownership of run 123' })
    .first()
    .getByRole('link', { name: /Open a shortest witness/ });
  await expect(witness).toHaveAttribute('href', /strategy=your-sql&.*claim=WITH%20candidate/);
});

test('the link opens the same view in a new browser context (a two-statement claim too), and the draft survives a reload', async ({ page, browser }) => {
  await openLab(page, START);
  const mine = await applyNoBump(page);
  await stepTimes(page, 3);
  const table = await runsTableAfter(page, 3);
  await expect(page).toHaveURL(/step=3/);
  const link = page.url();

  const other = await browser.newContext();
  try {
    const fresh = await other.newPage();
    await fresh.goto(link);
    await expect(editor(fresh)).toBeVisible({ timeout: 90_000 });
    await expect(claimText(fresh)).toHaveValue(mine.trim().replace(/;$/, ''));
    await expect(picker(fresh)).toHaveValue('your-sql');
    expect(await runsTableAfter(fresh, 3)).toBe(table);
    await expect(fresh.locator('.notices')).not.toContainText('could not be opened');
  } finally {
    await other.close();
  }

  // A claim in two statements, psql's way, in race: pasted, applied and stepped worker by worker along
  // check's witness, each SELECT and UPDATE a step of its own; the double claim is the one
  // `npm run sim -- run race --claim tests/fixtures/claims/two-statement-plain.sql --schedule …` prints.
  await openLinkInPlace(page, 'scenario=race&strategy=skip-locked&fencing=off&schedule=&step=0');
  await openEditor(page);
  await claimText(page).fill(twoStatementPlain);
  await applyButton(page).click();
  await expect(status(page)).toHaveText('Playing your SQL.', { timeout: 60_000 });
  const program = (worker: string) => page.getByRole('list', { name: `${worker}'s program` });
  // Each statement named as the learner wrote it, psql's words, never by the lab's ids (your-claim-select).
  await expect(program('A').locator('li[aria-current="step"]')).toContainText('your SELECT … \\gset');
  // The UPDATE's :run_id, which nobody types a value for, listed with the claim's parameters, and where it comes from.
  const contract = editor(page).locator('.your-sql-contract');
  await expect(contract).toContainText(':run_id ($3 of your UPDATE) the run_id your SELECT … \\gset found (integer; set by it, not by you)');
  for (const [i, worker] of [...'AABAABABAB'].entries()) {
    await program(worker)
      .getByRole('button', { name: new RegExp(`^Step ${worker}: run `) })
      .click();
    if (i === 0) {
      await expect(program('A').locator('li[aria-current="step"]')).toContainText('your UPDATE');
      await expect(program('A').locator('li[aria-current="step"]')).toContainText('UPDATE runs');
      await expect(page.getByRole('region', { name: 'Workers' })).not.toContainText('your-claim');
      await shot(page, 'test-results/two-statement-wide.png');
      await page.setViewportSize({ width: 390, height: 844 });
      await shot(page.getByRole('article', { name: 'Worker A' }), 'test-results/two-statement-phone-card.png');
      await shot(contract, 'test-results/two-statement-phone-parameters.png');
      await page.setViewportSize({ width: 1280, height: 720 });
    }
  }
  await expect(outcome(page)).toContainText("Workers A and B both believe they own run 123: B claimed it while A's lease on it still had 60 s to run.");
  await expect(outcome(page)).toContainText("A's write to run 123 committed with stale generation 18 while B held generation 19: split ownership.");
  await expect(page).toHaveURL(/schedule=A,A,B,A,A,B,A,B,A,B&step=11&claim=.*%5Cgset/);
  const witness = await runsTableAfter(page, 11);
  const twoLink = page.url();
  const again = await browser.newContext();
  try {
    const fresh = await again.newPage();
    await fresh.goto(twoLink);
    await expect(claimText(fresh)).toHaveValue(twoStatementPlain, { timeout: 90_000 });
    expect(await runsTableAfter(fresh, 11)).toBe(witness);
    await expect(outcome(fresh)).toContainText('Workers A and B both believe they own run 123');
  } finally {
    await again.close();
  }

  // A draft that was never applied comes back after a reload.
  await claimText(page).fill(`${mine}\n-- still thinking`);
  await page.goto('/');
  await expect(picker(page)).toHaveValue('your-sql', { timeout: 90_000 });
  await openEditor(page);
  await expect(claimText(page)).toHaveValue(/-- still thinking$/);
});

test("a syntax error shows PostgreSQL's message, its line and column, and a caret under the text", async ({ page }) => {
  await openLab(page, START);
  await openEditor(page);
  const broken = (await claimText(page).inputValue()).replace("  WHERE status = 'pending'", "  WERE status = 'pending'");
  await claimText(page).fill(broken);
  await applyButton(page).click();
  const problem = editor(page).getByRole('alert');
  // PostgreSQL reads WERE as an alias of runs, so the error is at the word after it.
  await expect(problem).toContainText('syntax error at or near "status"', { timeout: 60_000 });
  await expect(problem).toContainText('line 4, column 8');
  await expect(problem.getByTestId('your-sql-caret')).toHaveText("  WERE status = 'pending'\n       ^");
  // Nothing was played: the lab still plays the strategy chosen before.
  await expect(status(page)).toContainText('Not applied yet');
  await expect(page).toHaveURL(/strategy=skip-locked/);
});

test("a refused shape shows the analyzer's reason and says it runs on a real server", async ({ page }) => {
  await openLab(page, START);
  await openEditor(page);
  // A waiting FOR SHARE finder (corpus 05): after the wait PostgreSQL re-checks the row, which PGlite cannot replay for a share lock.
  const forShare = (await claimText(page).inputValue()).replace(/^(\s*)FOR UPDATE SKIP LOCKED\n/m, '$1FOR SHARE\n');
  await claimText(page).fill(forShare);
  await applyButton(page).click();
  const problem = editor(page).getByRole('alert');
  await expect(problem).toContainText('a waiting FOR SHARE finder', { timeout: 60_000 });
  await expect(problem).toContainText('real server');
  await expect(problem).toContainText('check <scenario> --claim FILE --db URL');
  await expect(page).toHaveURL(/strategy=skip-locked/);
});

test('a claim ending in ";" plays once applied; a shape check --db refuses too is not sent to --db', async ({ page }) => {
  await openLab(page, START);
  await openEditor(page);
  const prefilled = (await claimText(page).inputValue()).trimEnd();
  await claimText(page).fill(`${prefilled};\n`);
  await applyButton(page).click();
  await expect(status(page)).toHaveText('Playing your SQL.', { timeout: 60_000 });
  await expect(page).toHaveURL(/strategy=your-sql&/);
  // Two statements: the lab sends one per step, on PGlite and on a server alike.
  await claimText(page).fill(`${prefilled};\nDELETE FROM runs;`);
  await applyButton(page).click();
  const problem = editor(page).getByRole('alert');
  await expect(problem).toContainText('more than one statement', { timeout: 60_000 });
  await expect(problem).toContainText('--db URL refuses it too');
  await expect(problem).not.toContainText('runs it as written');
  await expect(status(page)).toHaveText('Playing your last applied SQL; apply to play these edits.');
});

test('the editor reads well on a wide screen and on a phone, light and dark, with a syntax error shown', async ({ page }, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openLab(page, START);
  await openEditor(page);
  await editor(page).getByLabel('Write my own completion').check();
  await page.getByLabel('Your completion', { exact: true }).fill("UPDATE runs\nSET status = 'done'\nWERE run_id = $1\nRETURNING status, result");
  await applyButton(page).click();
  await expect(editor(page).getByRole('alert')).toContainText('Your completion: PostgreSQL says syntax error at or near "WERE" at line 3, column 1', {
    timeout: 60_000,
  });
  await expectNoSeriousViolationsInBothThemes(page, '.your-sql');
  await shot(editor(page), testInfo.outputPath('your-sql-1440.png'));
  await page.setViewportSize({ width: 390, height: 844 });
  await editor(page).scrollIntoViewIfNeeded();
  // Nothing of the editor is wider than the phone's screen.
  const overflow = await editor(page).evaluate((element) => element.scrollWidth - element.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await shot(page, testInfo.outputPath('your-sql-390.png'));
  await editor(page).getByRole('alert').scrollIntoViewIfNeeded();
  await shot(page, testInfo.outputPath('your-sql-390-error.png'));
});

/** The lab's own SKIP LOCKED claim, as the editor prefills it: the cases below change one thing in it. */
const LAB_CLAIM = skipLockedClaim.trim().replace(/;$/, '');
const linkTo = (claim: string) => `scenario=race&strategy=your-sql&schedule=A,B,A,B&step=4&claim=${encodeURIComponent(claim)}`;
/** Claims PostgreSQL's parser takes but PostgreSQL refuses to run (as issue 34 found them), and what it says. */
const FAILING_WHEN_RUN: [string, string, RegExp][] = [
  ['a misspelt column', LAB_CLAIM.replace("WHERE status = 'pending'", "WHERE statuss = 'pending'"), /column "statuss" does not exist/],
  ['no $1 or $2', LAB_CLAIM.replace('= $1', "= 'A'").replace('secs => $2', 'secs => 30'), /PostgreSQL raised an error when the lab ran it \(.+\)/],
  [
    'a qualified operator that fails',
    LAB_CLAIM.replace('lease_generation = lease_generation + 1', "lease_generation = lease_generation OPERATOR(pg_catalog.+) 'one'"),
    /invalid input syntax for type integer/,
  ],
  [
    'a column assigned twice',
    LAB_CLAIM.replace("SET status           = 'running',", "SET status = 'running', status = 'done',"),
    /multiple assignments to same column "status"/,
  ],
];

test('a link whose SQL parses but fails when run opens the scenario with its own strategy and says why; draft and quiz answers stay', async ({ page }) => {
  test.setTimeout(480_000);
  await openLab(page, START);
  await openEditor(page);
  const draft = `${await claimText(page).inputValue()}\n-- my draft, not applied`;
  await claimText(page).fill(draft);
  const quiz = page.locator('.ll-quiz');
  await page.getByRole('region', { name: 'Lesson', exact: true }).getByRole('tab', { name: 'Quiz', exact: true }).click();
  await quiz
    .getByRole('navigation', { name: 'Questions' })
    .getByRole('button', { name: /^Question 1,/ })
    .click();
  await quiz.locator('section.ll-question').getByRole('radio').first().check();
  await quiz.locator('section.ll-question').getByRole('button', { name: 'Check', exact: true }).click();
  const score = await quiz.locator('.ll-score').innerText();

  for (const [what, claim, error] of FAILING_WHEN_RUN) {
    // The notices of the case before are dismissed, so each case's own is read.
    const dismiss = page.locator('.notices').getByRole('button', { name: /^Dismiss/ });
    while ((await dismiss.count()) > 0) await dismiss.first().click();
    await page.evaluate((fragment) => {
      location.hash = fragment;
    }, linkTo(claim));
    const notice = page.locator('.notices');
    await expect(notice, what).toContainText('This link could not be opened exactly as written.', { timeout: 90_000 });
    await expect(notice, what).toContainText(/Its SQL was not played: PostgreSQL raised an error when the lab ran it/);
    await expect(notice, what).toContainText(error);
    await expect(notice, what).toContainText('The lab used "Naive SELECT then UPDATE"; your statements are in the editor.');
    // Not stuck on "Loading the scenario…": the race plays with its own strategy, every control works.
    await waitReady(page);
    await expect(status(page)).toHaveText('Not applied yet: the lab plays the strategy chosen before.');
    expect(await runsTableAfter(page, 4)).toContain('123');
    await expect(stepButton(page)).toBeEnabled();
    await expect(page).toHaveURL(/scenario=race&strategy=naive&.*step=4$/);
    // The editor shows the link's statements and why they were not played.
    await expect(claimText(page)).toHaveValue(claim);
    await expect(editor(page).getByRole('alert')).toContainText(error);
  }

  // The saved draft and the quiz answers are the learner's still.
  await page.goto('/');
  await waitReady(page);
  await openEditor(page);
  await expect(claimText(page)).toHaveValue(draft);
  await page.getByRole('region', { name: 'Lesson', exact: true }).getByRole('tab', { name: 'Quiz', exact: true }).click();
  await expect(quiz.locator('.ll-score')).toHaveText(score);
});

test('a claim nested too deeply says so (not that the parser could not be loaded), and the lab plays what it played', async ({ page }) => {
  await openLab(page, START);
  await openEditor(page);
  const depth = 1_400;
  const nested = `UPDATE runs SET status='running',lease_owner=$1,lease_expires_at=now()+make_interval(secs=>$2),lease_generation=lease_generation+1 WHERE ${'NOT('.repeat(depth)}run_id=123${')'.repeat(depth)} RETURNING run_id,lease_generation,lease_expires_at,cancel_requested`;
  expect(encodeURIComponent(nested).length, 'it fits in a link, so Apply reads it').toBeLessThanOrEqual(7_500);
  await claimText(page).fill(nested);
  await applyButton(page).click();
  const problem = editor(page).getByRole('alert');
  await expect(problem).toContainText('Your claim: it is nested too deeply for the lab to read', { timeout: 60_000 });
  await expect(problem).not.toContainText('could not be loaded');
  await expect(page).toHaveURL(/strategy=skip-locked/);
  await expect(stepButton(page)).toBeEnabled();
});

test("good_job's advisory claims: the xact one double-claims run 123 as the CLI's witness does; the session one is refused in one line; an xact claim's step that would wait is refused there, one notice however many presses, its steps kept", async ({
  page,
}) => {
  await openLab(page, 'scenario=race&strategy=skip-locked&fencing=off&schedule=&step=0');
  await openEditor(page);
  await claimText(page).fill(goodJobXact);
  await applyButton(page).click();
  await expect(status(page)).toHaveText('Playing your SQL.', { timeout: 60_000 });
  await expect(page).toHaveURL(/strategy=your-sql&.*claim=/);
  // The witness `npm run sim -- check race --claim tests/fixtures/claims/good-job-advisory-xact.sql` prints, played to its end.
  await openLinkInPlace(page, new URL(page.url()).hash.slice(1).replace(/schedule=[^&]*&step=\d+/, 'schedule=A,A,A,B,A,B,A,B&step=9'));
  await expect(outcome(page)).toContainText("Workers A and B both believe they own run 123: B claimed it while A's lease on it still had 60 s to run.");
  await expect(outcome(page)).toContainText("A's write to run 123 committed with stale generation 18 while B held generation 19: split ownership.");
  expect(await runsTableAfter(page, 9)).toMatch(/123\s+done\s+B\s+19\s/);

  // The session-level lock: why PGlite cannot play it and how to check it on a server, in one line (no hint saying "yet").
  await claimText(page).fill(goodJobSession);
  await applyButton(page).click();
  const problem = editor(page).getByRole('alert');
  await expect(problem).toContainText('pg_try_advisory_lock on PGlite: PGlite is one backend playing every worker', { timeout: 60_000 });
  await expect(problem).toContainText('--claim FILE --db postgres://USER@HOST/DATABASE');
  await expect(problem.locator('p')).toHaveCount(1);
  await expect(status(page)).toHaveText('Playing your last applied SQL; apply to play these edits.');

  // The xact try-lock on a claim whose FOR UPDATE finder waits: B's step would wait for A's open claim, holding on a
  // server the advisory locks it took. Refused in one line where it happens; A's step is kept; Step pressed there
  // again adds no second notice, and an edit ends it.
  const xactWaiting = forUpdateWait.replace(
    'WHERE run_id IN (SELECT run_id FROM candidate)',
    'WHERE run_id IN (SELECT run_id FROM candidate) AND pg_try_advisory_xact_lock(run_id)',
  );
  expect(xactWaiting).toContain('pg_try_advisory_xact_lock(run_id)');
  await claimText(page).fill(xactWaiting);
  await applyButton(page).click();
  await expect(status(page)).toHaveText('Playing your SQL.', { timeout: 60_000 });
  // The link carries the claim just applied (not the one before it) once the page has written it.
  await expect(page).toHaveURL(/pg_try_advisory_xact_lock(\(|%28)run_id(\)|%29)/);
  await openLinkInPlace(page, new URL(page.url()).hash.slice(1).replace(/schedule=[^&]*&step=\d+/, 'schedule=&step=0'));
  await stepButton(page).click();
  await expect(page).toHaveURL(/schedule=A&/);
  // Named by its number, as the timeline and check's one line name it: A's claim was step 1, B's is step 2.
  const refusal = notices(page).locator('.notice', { hasText: 'Your claim cannot take step 2 in the lab.' });
  await stepButton(page).click();
  await expect(refusal).toHaveCount(1);
  for (let press = 0; press < 2; press++) {
    // Marked, so the notice of the next press is told from this one: the press refuses again and replaces it.
    await refusal.evaluate((element) => element.setAttribute('data-seen', ''));
    await stepButton(page).click();
    await expect(notices(page).locator('.notice[data-seen]')).toHaveCount(0);
    await expect(refusal).toHaveCount(1);
  }
  await expect(refusal).toContainText('It would wait here, and it takes a transaction-level advisory lock');
  await expect(refusal).toContainText('--claim FILE --db URL');
  await expect(refusal).toContainText('The lab kept your steps before it.');
  await expect(refusal).not.toContainText('PostgreSQL raised an error');
  await expect(problem).toContainText('Your claim is refused here: it would wait here, and it takes a transaction-level advisory lock');
  await expect(problem.locator('p')).toHaveCount(1);
  await expect(page).toHaveURL(/schedule=A&/);
  await shot(page, 'test-results/xact-wait-refused.png');
  await claimText(page).press('End');
  await claimText(page).pressSequentially(' ');
  await expect(refusal).toHaveCount(0);
});
