/**
 * `check --param` on a real PostgreSQL server (issue 33 item 6): a claim with the batch size in $1 (pgmq's
 * `LIMIT $1`), the worker in $2 and the lease in $3, bound with --param, gets the same verdict, groups and
 * witnesses with `--db` as on PGlite, and the server is sent the same values (the constant as text, which
 * PostgreSQL reads as the bigint LIMIT takes). PGlite's side alone: tests/unit/cli-check-params.test.ts.
 * A reaper's own parameter (`--param reaper:1=…`) gives the verdict of the same reaper with the value written
 * in, on both; its batch size in LIMIT $1 binds and rescues on the server as on PGlite. A two-statement claim
 * whose UPDATE binds a $3 of its own gets :run_id as $4 and the same verdict on both.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import type { CheckReport } from '../../src/cli/check';
import { projectRoot, simInProcess } from '../support/cli';
import { createDatabase } from '../support/postgres-server';

const BATCH_FIRST = join(projectRoot, 'tests/fixtures/claims/batch-size-first.sql');
const BATCH_PARAMS = ['--param', '1=1', '--param', '2=worker', '--param', '3=lease'];
const TWO_STATEMENT_OWN = join(projectRoot, 'tests/fixtures/claims/two-statement-own-param.sql');
const TWO_STATEMENT_PARAMS = ['--param', '1=worker', '--param', '2=lease', '--param', "3='running'"];
const PENDING_ONLY = join(projectRoot, 'tests/ground-truth/claim-corpus/11-skip-locked-no-expired-branch.sql');
const LEAKY_GRACE = join(projectRoot, 'tests/fixtures/reapers/leaky-grace.sql');
const BATCH_SIZE = join(projectRoot, 'tests/fixtures/reapers/batch-size.sql');

let url: string;

beforeAll(async () => {
  url = await createDatabase(inject('postgresUrl'), 'check_params');
});

const verdict = (report: CheckReport) => ({
  exitCode: report.exitCode,
  params: report.claim.params,
  groups: report.groups.map(({ key, count, witness }) => ({ key, count, witness })),
});

describe('check --param with --db: the same answer as on PGlite', () => {
  it('a claim with the batch size in $1 and the worker in $2, in the race', { timeout: 300_000 }, async () => {
    const check = async (db: string) => {
      const { code, stdout, stderr } = await simInProcess(['check', 'race', '--claim', BATCH_FIRST, ...BATCH_PARAMS, '--db', db, '--json']);
      expect(stderr).toBe('');
      expect(code).toBe(1);
      return JSON.parse(stdout) as CheckReport;
    };
    const onServer = await check(url);
    const onPglite = await check('pglite');
    expect(onServer.database.kind).toBe('postgres');
    expect(verdict(onServer)).toEqual(verdict(onPglite));
    expect(onServer.groups.some((group) => group.kinds.includes('double-claim'))).toBe(true);
  });

  it('a two-statement claim whose UPDATE binds a $3 of its own: :run_id as $4, the same verdict on the server', { timeout: 300_000 }, async () => {
    const check = async (db: string) => {
      // A seeded sample, the same schedules on both (the whole race, 648 schedules, takes a minute on the server).
      const args = ['check', 'race', '--claim', TWO_STATEMENT_OWN, ...TWO_STATEMENT_PARAMS, '--sample', '20', '--seed', '1', '--db', db, '--json'];
      const { code, stdout, stderr } = await simInProcess(args);
      expect(stderr).toBe('');
      expect(code).toBe(1);
      return JSON.parse(stdout) as CheckReport;
    };
    const onServer = await check(url);
    const onPglite = await check('pglite');
    expect(onServer.database.kind).toBe('postgres');
    expect(onServer.claim.summary).toContain(':run_id bound as $4');
    expect(verdict(onServer)).toEqual(verdict(onPglite));
    expect(onServer.total).toBe(20);
    expect(onServer.groups.some((group) => group.kinds.includes('double-claim'))).toBe(true);
    expect(onServer.groups.some((group) => group.key === 'none')).toBe(true);
  });

  it('text where LIMIT needs a number: the same one line on the server, exit 2', { timeout: 120_000 }, async () => {
    const args = ['check', 'race', '--claim', BATCH_FIRST, '--param', "1='five'", '--param', '2=worker', '--param', '3=lease', '--json'];
    const [onServer, onPglite] = [await simInProcess([...args, '--db', url]), await simInProcess(args)];
    for (const answer of [onServer, onPglite]) expect(answer.code).toBe(2);
    expect(onServer.stderr).toBe(onPglite.stderr);
    expect(onServer.stderr).toMatch(/invalid input syntax for type bigint: "five" \(SQLSTATE 22P02\)\n$/);
  });

  it("a reaper's grace bound with --param reaper:1: the verdict of the same reaper with the value written in, on both", { timeout: 300_000 }, async () => {
    const inline = join(mkdtempSync(join(tmpdir(), 'lease-lab-reaper-')), 'leaky-inline.sql');
    writeFileSync(inline, readFileSync(LEAKY_GRACE, 'utf8').replace('$1::interval', "'1 hour'::interval"));
    // A small seeded sample of paused-worker: its rescue steps come after each step of the clock.
    const check = async (reaper: string, db: string, ...params: string[]) => {
      const args = ['check', 'paused-worker', '--claim', PENDING_ONLY, '--reaper', reaper, ...params, '--sample', '8', '--seed', '1', '--db', db, '--json'];
      const { code, stdout, stderr } = await simInProcess(args);
      expect(stderr).toBe('');
      expect(code).toBe(1);
      const { params: _, ...rest } = verdict(JSON.parse(stdout) as CheckReport);
      return rest;
    };
    const bound = ['--param', "reaper:1='1 hour'"];
    const onPglite = await check(LEAKY_GRACE, 'pglite', ...bound);
    expect(onPglite.groups.some((group) => group.key.includes('double-claim:123'))).toBe(true);
    expect(await check(inline, 'pglite')).toEqual(onPglite);
    expect(await check(LEAKY_GRACE, url, ...bound)).toEqual(onPglite);
    expect(await check(inline, url)).toEqual(onPglite);
  });

  it("a reaper's batch size in LIMIT $1 (--param reaper:1=10): the same rescue on the server as on PGlite", { timeout: 120_000 }, async () => {
    const rescues = async (db: string) => {
      const args = [
        'run',
        'crash-orphan',
        '--claim',
        PENDING_ONLY,
        '--reaper',
        BATCH_SIZE,
        '--param',
        'reaper:1=10',
        '--schedule',
        'A,A,A,crash:A,+30,rescue,+31,rescue',
      ];
      const { code, stdout, stderr } = await simInProcess([...args, '--finish', 'none', '--db', db, '--json']);
      expect(stderr).toBe('');
      expect(code).toBe(0);
      const { steps } = JSON.parse(stdout) as { steps: { actor: string; params: string[]; facts: unknown[] }[] };
      return steps.filter((step) => step.actor === 'rescuer').map(({ params, facts }) => ({ params, facts }));
    };
    const onServer = await rescues(url);
    expect(onServer.at(-1)).toEqual({ params: ['10'], facts: [{ kind: 'swept', runs: [{ run: 123, owner: 'A' }], marked: 'pending' }] });
    expect(onServer).toEqual(await rescues('pglite'));
  });

  // A reaper that fails sweeps nothing: played on, the check would call the runs it never put back safe.
  it("text the reaper's $1 cannot read as an interval: the same one line on both, exit 2", { timeout: 120_000 }, async () => {
    const args = ['check', 'crash-orphan', '--claim', PENDING_ONLY, '--reaper', LEAKY_GRACE, '--param', "reaper:1='an hour'"];
    const [onServer, onPglite] = [await simInProcess([...args, '--db', url]), await simInProcess(args)];
    for (const answer of [onServer, onPglite]) expect(answer.code).toBe(2);
    expect(onServer.stderr).toBe(onPglite.stderr);
    expect(onServer.stderr).toMatch(/leaky-grace\.sql: the statement fails when run: invalid input syntax for type interval: "an hour" \(SQLSTATE 22007\)\n$/);
  });
});
