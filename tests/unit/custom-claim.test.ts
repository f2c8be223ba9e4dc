/**
 * A claim someone wrote becomes a strategy only with an after-wait behaviour the engine replays exactly on
 * PGlite (cannot-wait, relock-found for a waiting locking finder, resume-found for a finder that locks
 * nothing); every other shape is refused with its reason. The claims are corpus variants whose behaviour on
 * PostgreSQL tests/ground-truth/claim-corpus.test.ts checks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import { yourSqlRefusalOf } from '../../src/db/custom-claim-guard';
import { UnreplayableWait } from '../../src/db/unreplayable';
import { runSchedule } from '../../src/engine/run';
import { findScenario } from '../../src/scenarios';
import { analyzeStatement } from '../../src/sql/analyze';
import { CUSTOM_CLAIM_IDS, customClaimStrategy, customWrite } from '../../src/strategies/custom';

const corpus = (name: string) => join(__dirname, '../ground-truth/claim-corpus', `${name}.sql`);

async function build(name: string) {
  const text = readFileSync(corpus(name), 'utf8');
  const analysis = await analyzeStatement(text, 'claim');
  if (!analysis.ok) throw new Error(analysis.error.message);
  return { text, analysis, built: customClaimStrategy(text, analysis.shape, `${name}.sql`) };
}

describe('customClaimStrategy', () => {
  it.each([
    '01-atomic-skip-locked',
    '03-nowait-no-retry',
    '06-for-share-skip-locked',
    '09-for-no-key-update-skip-locked',
    '17-update-eq-subselect-skip-locked',
  ])("%s never waits at its finder: cannot-wait, with the analyzer's probe kept as the guard", async (name) => {
    const { analysis, built } = await build(name);
    if (!built.ok || built.definition.claim.shape !== 'one-statement') throw new Error(`refused: ${built.ok ? 'two steps' : built.reason}`);
    const claim = built.definition.claim.claim;
    expect(claim.afterWait).toEqual({ kind: 'cannot-wait' });
    expect(claim.id).toBe(CUSTOM_CLAIM_IDS.claim);
    expect(claim.params).toEqual(['worker', 'leaseSeconds']);
    expect(claim.probe?.text).toBe(analysis.ok ? analysis.shape.probe.text : '');
    expect(claim.text).not.toMatch(/;\s*$/);
  });

  it.each([
    '02-for-update-wait',
    '10-for-no-key-update',
    '16-update-eq-subselect-for-update',
    '26-for-update-wait-pending-only',
  ])("%s waits under LIMIT 1: relock-found with the analyzer's candidates and relock", async (name) => {
    const { analysis, built } = await build(name);
    if (!built.ok || built.definition.claim.shape !== 'one-statement' || !analysis.ok) throw new Error('refused');
    const after = built.definition.claim.claim.afterWait;
    if (after.kind !== 'relock-found') throw new Error(after.kind);
    expect(after.candidates.text).toBe(analysis.shape.afterWait.lockingFinder?.candidates);
    expect(after.relock.text).toBe(analysis.shape.afterWait.lockingFinder?.relock);
  });

  it.each([
    '04-cte-without-lock',
    '14-update-eq-subselect-no-recheck',
    '15-update-eq-subselect-recheck',
    '19-cte-no-lock-recheck-in-update',
    '20-update-every-claimable',
    '24-materialized-cte-without-lock',
    '25-update-eq-min-pending',
  ])("%s locks nothing at its finder, so only its UPDATE waits: resume-found with the analyzer's found, resume and its probe", async (name) => {
    const { analysis, built } = await build(name);
    if (!built.ok || built.definition.claim.shape !== 'one-statement' || !analysis.ok) throw new Error(built.ok ? 'two steps' : built.reason);
    const after = built.definition.claim.claim.afterWait;
    const resume = analysis.shape.afterWait.resume;
    if (after.kind !== 'resume-found' || !('found' in resume)) throw new Error(after.kind);
    expect(after.found).toEqual({ id: CUSTOM_CLAIM_IDS.found, text: resume.found, file: `${name}.sql` });
    expect(after.resume.text).toBe(resume.statement);
    expect(after.resumeProbe.text).toBe(resume.probe);
    expect(after.frozenCount).toBe(resume.frozenCount);
    // The resumed statement is restricted to the runs matched before the wait, passed last.
    expect(resume.statement).toMatch(new RegExp(`= ANY \\(CAST\\(\\$${3 + resume.frozenCount} AS int4\\[\\]\\)\\)`));
    expect(resume.probe).toMatch(/FOR NO KEY UPDATE OF runs NOWAIT$/);
  });

  it.each([
    ['05-for-share', /a waiting FOR SHARE finder/],
    ['27-for-update-wait-param-in-finder', /depend on the worker's parameters/],
  ])('%s is refused: %s', async (name, reason) => {
    const { built } = await build(name);
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.reason).toMatch(reason);
  });
});

describe('customClaimStrategy on a server (check --db)', () => {
  it.each(['05-for-share', '27-for-update-wait-param-in-finder'])('%s, refused on PGlite, is kept as server-only with the reason', async (name) => {
    const { text, analysis, built } = await build(name);
    if (built.ok || !analysis.ok) throw new Error('expected a refusal on PGlite');
    const onServer = customClaimStrategy(text, analysis.shape, `${name}.sql`, { onServer: true });
    if (!onServer.ok || onServer.definition.claim.shape !== 'one-statement') throw new Error('refused on a server');
    expect(onServer.definition.claim.claim.afterWait).toEqual({ kind: 'server-only', why: built.reason });
  });

  it('a server-only claim that would wait on PGlite stops the play with its reason, and never reaches a wait', async () => {
    const { text, analysis } = await build('05-for-share');
    if (!analysis.ok) throw new Error('refused by the analyzer');
    const onServer = customClaimStrategy(text, analysis.shape, '05-for-share.sql', { onServer: true });
    if (!onServer.ok) throw new Error(onServer.reason);
    const db = await bootLabDatabase();
    try {
      const played = runSchedule(db, findScenario('race')!, { strategy: 'skip-locked', fencing: false, definition: onServer.definition }, ['A', 'B'], {
        finish: { kind: 'none' },
      });
      await expect(played).rejects.toThrow(UnreplayableWait);
      await expect(played).rejects.toThrow(
        /^05-for-share\.sql: refused on PGlite at step 2 \(B\) of --schedule A,B: it would wait here, and a waiting FOR SHARE finder/,
      );
    } finally {
      await db.close();
    }
  });
});

describe('a claim with a transaction-level advisory try-lock on PGlite', () => {
  it('plays until it would wait for a row lock, and stops there: a waiter on a server keeps the advisory locks it took', async () => {
    // The corpus's plain FOR UPDATE claim, with a try-lock: B's finder waits for A's row, which B may not replay.
    const text = readFileSync(corpus('02-for-update-wait'), 'utf8').replace(
      'WHERE run_id IN (SELECT run_id FROM candidate)',
      'WHERE run_id IN (SELECT run_id FROM candidate) AND pg_try_advisory_xact_lock(run_id)',
    );
    const analysis = await analyzeStatement(text, 'claim');
    if (!analysis.ok) throw new Error(analysis.error.message);
    const built = customClaimStrategy(text, analysis.shape, 'xact.sql');
    if (!built.ok || built.definition.claim.shape !== 'one-statement') throw new Error('refused on PGlite');
    expect(built.definition.claim.claim.afterWait).toMatchObject({
      kind: 'server-only',
      why: expect.stringMatching(/^it takes a transaction-level advisory lock/),
    });
    const db = await bootLabDatabase();
    try {
      const played = runSchedule(db, findScenario('race')!, { strategy: 'skip-locked', fencing: false, definition: built.definition }, ['A', 'B'], {
        finish: { kind: 'none' },
      });
      await expect(played).rejects.toThrow(
        /^xact\.sql: refused on PGlite at step 2 \(B\) of --schedule A,B: it would wait here, and it takes a transaction-level advisory lock: .*--claim FILE --db URL\)$/,
      );
      // The page's engine boundary tells this refusal from an error PostgreSQL raised, and keeps the steps before it.
      expect(yourSqlRefusalOf(await played.catch((error: unknown) => error))).toEqual({
        role: 'claim',
        reason: expect.stringMatching(/^it would wait here, and it takes a transaction-level advisory lock/),
      });
    } finally {
      await db.close();
    }
  });
});

describe('customWrite (complete)', () => {
  it.each([
    '31-complete-fenced',
    '32-complete-by-id-only',
    '33-complete-by-status-only',
    '35-complete-fenced-and-running',
    '36-complete-not-done',
  ])('%s names its run by run_id = $1: run again after a wait (recheck-row)', async (name) => {
    const text = readFileSync(corpus(name), 'utf8');
    const analysis = await analyzeStatement(text, 'complete');
    if (!analysis.ok) throw new Error(analysis.error.message);
    const built = customWrite('complete', text, analysis.shape, name);
    if (!built.ok) throw new Error(built.reason);
    expect(built.statement.afterWait).toEqual({ kind: 'recheck-row' });
    expect(built.statement.params).toEqual(['run', 'generation', 'result']);
    expect(built.statement.probe?.text).toBe(analysis.shape.probe.text);
  });

  it('34-complete-by-generation-only matches by generation alone: refused', async () => {
    const text = readFileSync(corpus('34-complete-by-generation-only'), 'utf8');
    const analysis = await analyzeStatement(text, 'complete');
    if (!analysis.ok) throw new Error(analysis.error.message);
    const built = customWrite('complete', text, analysis.shape, 'x');
    expect(built.ok).toBe(false);
  });
});
