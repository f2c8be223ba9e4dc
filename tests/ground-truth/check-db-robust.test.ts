/**
 * `check --db` when things go wrong (issue 34 items 6–9, issue 33 defect 2): a claim that fails when run,
 * a claim that never ends, a server restart and a signal in the middle. Each ends in exit 2 with one line
 * (or 130/143 for a signal), never a stack trace and never a hang, and every way out drops the run's own
 * schema and leaves no statement of its running on the server.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot, simStarted } from '../support/cli';
import { createDatabase, type PostgresServer, startPostgresServer, withClient } from '../support/postgres-server';

const SKIP_LOCKED = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');
const SKIP_LOCKED_TEXT = readFileSync(SKIP_LOCKED, 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'lease-lab-check-db-'));
function claimFile(name: string, from: string, to: string): string {
  expect(SKIP_LOCKED_TEXT).toContain(from);
  const path = join(dir, name);
  writeFileSync(path, SKIP_LOCKED_TEXT.replace(from, to));
  return path;
}

/** A sub-select cross-joining ten VALUES lists of ten rows: 10^10 rows, a claim that never ends. */
const TEN_BY_TEN = Array.from({ length: 10 }, (_, i) => `(VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) AS v${i}(x)`).join(', ');
const RUNAWAY = () =>
  claimFile(
    'runaway.sql',
    'WHERE run_id IN (SELECT run_id FROM candidate)',
    `WHERE run_id IN (SELECT run_id FROM candidate) AND (SELECT count(*) FROM ${TEN_BY_TEN}) > 0`,
  );

/** The command line's schemas on the server (lease_lab_cli_…): none may outlive its run. */
const cliSchemas = (url: string) =>
  withClient(
    url,
    async (client) => (await client.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'lease\\_lab\\_cli\\_%'")).rows,
  );

/** The lab's backends still running a statement of the runaway claim (pg_stat_activity keeps a query's first 1 kB: its opening). */
const runawayStatements = (url: string) =>
  withClient(
    url,
    async (client) =>
      (
        await client.query(
          "SELECT pid FROM pg_stat_activity WHERE state = 'active' AND application_name LIKE 'lease\\_lab\\_%' AND query LIKE 'WITH candidate AS%'",
        )
      ).rows,
  );

async function until(what: () => Promise<boolean>, why: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    if (await what().catch(() => false)) return;
    await sleep(100);
  }
  throw new Error(`gave up waiting: ${why}`);
}

function expectOneLine(answer: { code: number | null; stderr: string }, code: number, message: RegExp): void {
  expect(answer.stderr).toMatch(message);
  expect(answer.stderr.trim().split('\n')).toHaveLength(1);
  expect(answer.stderr).not.toMatch(/\n\s+at /);
  expect(answer.code).toBe(code);
}

describe('check --db on the shared test server', () => {
  let url: string;
  beforeAll(async () => {
    url = await createDatabase(inject('postgresUrl'), 'check_db_robust');
  });

  it(
    'a claim naming a column that does not exist fails as a statement: exit 2, one line, schema dropped (it said "20 of 20 no anomaly", exit 0)',
    { timeout: 300_000 },
    async () => {
      const typo = claimFile('typo.sql', 'lease_owner      = $1', 'lease_ownr = $1');
      const answer = await simStarted(['check', 'race', '--claim', typo, '--db', url]).answer;
      expectOneLine(answer, 2, /typo\.sql: the statement fails when run: column "lease_ownr" of relation "runs" does not exist \(SQLSTATE 42703\)/);
      expect(answer.stdout).toBe('');
      const json = await simStarted(['check', 'race', '--claim', typo, '--db', url, '--json']).answer;
      expect(JSON.parse(json.stdout)).toMatchObject({ exitCode: 2, error: expect.stringContaining('SQLSTATE 42703') });
      expect(await cliSchemas(url)).toEqual([]);
    },
  );

  it('a claim that never ends is stopped by the server at --statement-timeout: exit 2, one line, nothing left running', { timeout: 300_000 }, async () => {
    const answer = await simStarted(['check', 'race', '--claim', RUNAWAY(), '--db', url, '--statement-timeout', '2']).answer;
    expectOneLine(answer, 2, /runaway\.sql: a statement ran longer than 2 s \(--statement-timeout\) and was stopped/);
    expect(await runawayStatements(url)).toEqual([]);
    expect(await cliSchemas(url)).toEqual([]);
  });

  it.for([
    { signal: 'SIGINT', code: 130 },
    { signal: 'SIGTERM', code: 143 },
  ] as const)(
    '$signal while the server runs a runaway claim: the statement is cancelled, the schema dropped, exit $code',
    { timeout: 300_000 },
    async ({ signal, code }) => {
      const { child, answer } = simStarted(['check', 'race', '--claim', RUNAWAY(), '--db', url, '--statement-timeout', '3600']);
      await until(async () => (await runawayStatements(url)).length > 0, 'the runaway claim running on the server');
      child.kill(signal);
      const done = await answer;
      expectOneLine(done, code, new RegExp(`stopped by ${signal}; cancelling the server's statements and dropping what the run created`));
      expect(await runawayStatements(url)).toEqual([]);
      expect(await cliSchemas(url)).toEqual([]);
    },
  );
});

describe('check --db when the server restarts under it', () => {
  let server: PostgresServer;
  let url: string;
  beforeAll(async () => {
    server = await startPostgresServer();
    url = await createDatabase(server.url, 'restarted');
  }, 120_000);
  afterAll(() => server?.stop());

  it('never hangs and never prints a stack trace: exit 2 with one line, and the schema is dropped once the server is back', { timeout: 300_000 }, async () => {
    const { answer } = simStarted(['check', 'paused-worker', '--claim', SKIP_LOCKED, '--fencing', 'on', '--db', url]);
    await until(async () => (await cliSchemas(url)).length > 0, "the run's schema on the server");
    await sleep(1500);
    server.pause();
    await sleep(2000);
    server.resume();
    const done = await answer;
    expect(done.signal).toBe(null);
    expectOneLine(done, 2, /^lease-lab: the connection to .* was lost/);
    expect(await cliSchemas(url)).toEqual([]);
  });
});
