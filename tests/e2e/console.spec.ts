/**
 * The SQL console: the learner queries the lab's own Postgres at the step they are on, read-only, and
 * nothing they type can break the simulation or hang the page.
 */
import { seriousViolations } from './axe';
import type { Page } from '@playwright/test';
import { expect, notices, openLab, openLinkInPlace, sharedLabPage, slider, stepButton, stepTimes, test, timelineView } from './fixtures';

const panel = (page: Page) => page.locator('details.console');
const editor = (page: Page) => page.getByRole('textbox', { name: 'SQL console' });
const result = (page: Page) => page.getByRole('region', { name: 'Console result', exact: true });
const resultTable = (page: Page) => result(page).getByRole('table');
const runButton = (page: Page) => panel(page).getByRole('button', { name: 'Run', exact: true });

/** Opens the console; in a shared page an earlier test may have left it open (a click would close it). */
async function openConsole(page: Page): Promise<void> {
  if (!(await panel(page).evaluate((details) => (details as HTMLDetailsElement).open))) await page.getByText('SQL console', { exact: true }).click();
  await expect(editor(page)).toBeVisible();
}

/** Types a statement into the console and runs it with Ctrl+Enter. */
async function runSql(page: Page, sql: string): Promise<void> {
  await editor(page).fill(sql);
  await editor(page).press('Control+Enter');
}

test("right after the start, the console's SQL can use all of PGlite's files: a text search dictionary, another time zone", async ({ page, context }) => {
  // The lab starts with only the two files of PGlite's bundle it reads itself; the console waits for the
  // rest, here held back for longer than a console statement may run (a slow network), and is not stopped.
  await context.route(/\.data$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 3000));
    await route.continue();
  });
  await openLab(page, 'scenario=race&strategy=naive&fencing=on&schedule=&step=0');
  await openConsole(page);
  await runSql(
    page,
    "SELECT to_tsvector('english', 'leases expired')::text AS words, timestamptz '2030-01-01 12:00:00+00' AT TIME ZONE 'Europe/Paris' AS paris",
  );
  await expect(result(page)).toContainText('1 row', { timeout: 30_000 });
  await expect(resultTable(page)).toContainText("'expir':2 'leas':1");
  await expect(resultTable(page)).toContainText('2030-01-01 13:00:00');
});

test('the console is built when first opened, and what was typed survives closing and opening it', async ({ page }) => {
  await openLab(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
  // Closed since the start: nothing of it is rendered yet.
  await expect(editor(page)).toHaveCount(0);
  await openConsole(page);
  await editor(page).fill('SELECT 6 * 7 AS answer');
  const summary = page.getByText('SQL console', { exact: true });
  await summary.click();
  await expect(editor(page)).toBeHidden();
  await summary.click();
  await expect(editor(page)).toHaveValue('SELECT 6 * 7 AS answer');
  await editor(page).press('Control+Enter');
  await expect(resultTable(page)).toContainText('42');
});

// pg_sleep and a lock wait are timed in hostile.spec.ts; this one is sent before the spare has booted.
for (const [name, sql] of [['an endless recursive query', 'WITH RECURSIVE t AS (SELECT 1 UNION ALL SELECT 1 FROM t) SELECT count(*) FROM t']] as const) {
  test(`${name} is stopped after 1.5 s and the learner's place is restored`, async ({ page }) => {
    await openLab(page, 'scenario=three-workers&strategy=skip-locked&fencing=on&schedule=&step=0');
    await stepTimes(page, 4);
    // After Back, the console runs on the database as it stood one step earlier.
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(slider(page)).toHaveValue('3');
    await openConsole(page);
    const before = await timelineView(page);

    await runSql(page, sql);
    // Stopped 1.5 s after it was sent (hostile.spec.ts times it). The spare Postgres that opening the
    // console started takes over; sent at once as here, it may still be booting, and the lab waits for it.
    await expect(notices(page)).toContainText('Your console statement ran for more than 1.5 s, so the lab stopped it.', { timeout: 90_000 });
    await expect(notices(page)).toContainText('carried on with a spare Postgres');
    await expect(notices(page)).toContainText('replayed your 4 steps: you are where you were');
    await expect(result(page)).toContainText('Stopped.');
    await expect(stepButton(page)).toBeEnabled({ timeout: 90_000 });
    await expect(slider(page)).toHaveValue('3');
    expect(await timelineView(page)).toEqual(before);

    // The console works on the new Postgres, at the same place (once it takes statements again: a
    // Control+Enter while it is still busy is ignored).
    // On a starved machine (load 14–20 on 2 cores) the watchdog stopped this first statement on the spare
    // too, and its result reads "Stopped." as the last one did: that is the watchdog's job, so once the
    // console takes statements again it is sent again, until it answers.
    await expect(async () => {
      await expect(runButton(page)).toBeEnabled();
      if (!(await result(page).innerText()).includes('after step 3')) await runSql(page, 'SELECT gid FROM pg_prepared_xacts ORDER BY gid');
      await expect(result(page)).toContainText('after step 3');
    }).toPass({ timeout: 120_000 });
    await expect(resultTable(page)).toContainText('lease_lab_C');
    await expect(runButton(page)).toBeEnabled();

    // And the lab goes on: Step reveals step 4, then plays step 5.
    await stepTimes(page, 2);
    await expect(slider(page)).toHaveValue('5');
  });
}

// These open their own link, open the console (or find it open) and read only what they run: one page,
// one Postgres start, the links followed in the tab. The first start, the console's first opening and the
// timeout sent before the spare Postgres has booted keep a page of their own.
test.describe('links opened in one page', () => {
  const lab = sharedLabPage();

  test('shows runs and pg_prepared_xacts at a step with a parked claim, and follows the cursor back', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=three-workers&strategy=skip-locked&fencing=on&schedule=&step=0');
    await stepTimes(page, 1);
    await openConsole(page);

    await panel(page).getByRole('button', { name: 'pg_prepared_xacts' }).click();
    await expect(result(page)).toContainText('1 row');
    await expect(result(page)).toContainText('after step 1, clock 15:00:00');
    await expect(resultTable(page)).toContainText('lease_lab_A');

    await panel(page).getByRole('button', { name: 'runs', exact: true }).click();
    await expect(result(page)).toContainText('3 rows');
    // A's claim is parked, not committed: the table still says pending for every run.
    await expect(resultTable(page).locator('thead')).toContainText('lease_expires_at');
    await expect(resultTable(page).locator('tbody tr')).toHaveCount(3);
    await expect(resultTable(page).locator('tbody')).not.toContainText('running');

    await panel(page).getByRole('button', { name: 'who locks which run' }).click();
    await expect(resultTable(page).locator('tbody tr')).toHaveCount(1);
    await expect(resultTable(page).locator('tbody tr')).toContainText(/lease_lab_A\s*123\s*pending/);

    // The learner's own query; the lab's keys do nothing while typing (R, 1, Space, arrows).
    await editor(page).fill('');
    await editor(page).pressSequentially("SELECT run_id, now() AS clock FROM runs WHERE status = 'pending' AND run_id > 1 ORDER BY 1 ");
    await editor(page).press('ArrowLeft');
    await editor(page).press('ArrowRight');
    await expect(slider(page)).toHaveValue('1');
    await editor(page).press('Control+Enter');
    await expect(result(page)).toContainText('3 rows');
    await expect(resultTable(page)).toContainText('2030-01-01 15:00:00+00');

    // Values are text, never markup.
    await runSql(page, "SELECT '<img src=x onerror=alert(1)>' AS html, NULL AS nothing, 9007199254740993::int8 AS big");
    await expect(resultTable(page)).toContainText('<img src=x onerror=alert(1)>');
    await expect(resultTable(page)).toContainText('NULL');
    await expect(resultTable(page)).toContainText('9007199254740993');
    await expect(resultTable(page).locator('img')).toHaveCount(0);

    // 100,000 rows: the first 500 are shown, the rest counted.
    await runSql(page, 'SELECT g FROM generate_series(1, 100000) AS g');
    await expect(result(page)).toContainText('100000 rows, the first 500 shown');
    await expect(resultTable(page).locator('tbody tr')).toHaveCount(500);

    // Back before the first step: the console sees the database as it stood then.
    await page.getByRole('button', { name: 'Back', exact: true }).click();
    await expect(slider(page)).toHaveValue('0');
    await expect(result(page)).toContainText('from another step');
    await runSql(page, 'SELECT gid FROM pg_prepared_xacts');
    await expect(result(page)).toContainText('0 rows');
    await expect(result(page)).toContainText('before the first step');

    // History: ↑ recalls the statements run, newest first.
    await editor(page).fill('');
    await editor(page).press('ArrowUp');
    await expect(editor(page)).toHaveValue('SELECT gid FROM pg_prepared_xacts');
    await editor(page).press('ArrowUp');
    await expect(editor(page)).toHaveValue('SELECT g FROM generate_series(1, 100000) AS g');
    await editor(page).press('ArrowDown');
    await editor(page).press('ArrowDown');
    await expect(editor(page)).toHaveValue('');

    // The trace is as it was: Step reveals step 1 again, then plays step 2.
    await stepTimes(page, 2);
    await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('Step 2');

    expect(await seriousViolations(page, 'details.console')).toEqual([]);
  });

  test('a BEGIN and a locking statement are refused, and the lab goes on as before', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=lock-wait&strategy=for-update&fencing=on&schedule=&step=0');
    await stepTimes(page, 1);
    await openConsole(page);
    const before = await timelineView(page);

    await runSql(page, 'BEGIN');
    await expect(result(page)).toContainText('Not sent to Postgres');
    await expect(result(page)).toContainText('BEGIN READ ONLY … ROLLBACK');

    // A plain FOR UPDATE on the row A holds would spin forever inside PGlite; the read-only transaction stops it first.
    await runSql(page, 'SELECT * FROM runs WHERE run_id = 123 FOR UPDATE');
    await expect(result(page)).toContainText('ERROR: cannot execute SELECT FOR UPDATE in a read-only transaction');
    await expect(result(page)).toContainText('SQLSTATE 25006 (read_only_sql_transaction)');

    await runSql(page, 'LOCK TABLE runs IN ACCESS EXCLUSIVE MODE');
    await expect(result(page)).toContainText('Not sent to Postgres');

    await runSql(page, "UPDATE runs SET status = 'done'");
    await expect(result(page)).toContainText('cannot execute UPDATE in a read-only transaction');

    await runSql(page, 'SELECT * FROM runz');
    await expect(result(page)).toContainText('relation "runz" does not exist');
    await expect(result(page)).toContainText('SQLSTATE 42P01');
    await expect(result(page)).toContainText('line 1, column 15');

    expect(await timelineView(page)).toEqual(before);
    await expect(notices(page)).not.toContainText('restarted');
    // B's claim waits for A, exactly as without the console.
    await stepTimes(page, 1);
    await expect(page.getByRole('complementary', { name: 'Selected step' })).toContainText('Blocked, waiting for A');
    await runSql(page, 'SELECT status FROM runs ORDER BY run_id');
    await expect(result(page)).toContainText('2 rows');
  });

  test('a statement nested too deeply for PGlite is named as such, long text stays editable, and an over-long one is refused', async () => {
    const page = lab();
    await openLinkInPlace(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
    await openConsole(page);
    const deep = `SELECT ${Array.from({ length: 4_001 }, () => '1').join('+')} AS total`;
    await runSql(page, deep);
    const nestsTooDeeply = 'PGlite could not parse this statement: it nests too deeply';
    await expect(result(page)).toContainText(new RegExp(`${nestsTooDeeply}|did not finish within 1.5 s`));
    if (!(await result(page).innerText()).includes(nestsTooDeeply)) {
      // On a starved machine (a fresh-clone run at load 27 on 2 cores) the watchdog can stop the first try
      // before PGlite answers: that is the watchdog's job. On the spare Postgres it now runs on, try again.
      await runSql(page, deep);
    }
    await expect(result(page)).toContainText(nestsTooDeeply);
    await expect(result(page)).toContainText('A real PostgreSQL server parses it');
    // The editor colours only the start of a long statement.
    expect(await panel(page).locator('.console-highlight span').count()).toBeLessThanOrEqual(1_000);
    await runSql(page, `SELECT ${'1+'.repeat(10_000)}1`);
    await expect(result(page)).toContainText('characters long; the console runs statements of up to 16,000 characters');
    await runSql(page, 'SELECT 1 AS one');
    await expect(resultTable(page)).toContainText('one');
  });
});
