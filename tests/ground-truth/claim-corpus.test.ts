// The truth corpus on a real PostgreSQL: each claim/complete variant played by two connections in the
// scene of src/sql/analyze/scenario.ts, once with A committing and once with A rolling back. The outcome
// each file declares (A's rows, whether B waits, B's rows after A ends) must be what the server does; the
// predictor (tests/unit/analyze-predict.test.ts) must agree with the same declarations. For every shape the
// analyzer accepts, its derived NOWAIT probe, run by B while A's transaction is open, must fail with 55P03
// exactly when B's statement then waits; a waiting finder's derived candidates and relock must run; a finder
// that locks nothing has its resumed statement and that statement's own probe checked the same way.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type Analysis, analyzeWith } from '../../src/sql/analyze/analyze';
import { loadParser } from '../../src/sql/analyze/parser';
import { isoAt, renderRows, sceneFor } from '../../src/sql/analyze/scenario';
import { sqlText } from '../../src/sql/registry';
import { createDatabase } from '../support/postgres-server';
import { type CorpusOutcome, type CorpusVariant, readCorpus } from '../support/claim-corpus';

let url: string;
let a: pg.Client;
let b: pg.Client;
let observer: pg.Client;

beforeAll(async () => {
  url = await createDatabase(inject('postgresUrl'), 'claim_corpus');
  const setup = new pg.Client({ connectionString: url });
  await setup.connect();
  await setup.query(sqlText('schema'));
  await setup.end();
  [a, b, observer] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
  for (const client of [a, b, observer]) await client.connect();
  for (const client of [a, b]) {
    await client.query(sqlText('session-setup'));
    // A guard only: a wait is detected through pg_stat_activity long before this.
    await client.query("SET lock_timeout = '60s'");
  }
});

afterAll(async () => {
  for (const client of [a, b, observer]) await client?.end();
});

async function reset(variant: CorpusVariant): Promise<void> {
  const scene = sceneFor(variant.role);
  const seed = scene.runs.map((run) => ({
    ...run,
    tenant: 'acme',
    created_at: isoAt(run.created_at),
    lease_expires_at: run.lease_expires_at === null ? null : isoAt(run.lease_expires_at),
    heartbeat_at: run.heartbeat_at === null ? null : isoAt(run.heartbeat_at),
  }));
  await observer.query('TRUNCATE runs');
  await observer.query(sqlText('seed-runs'), [JSON.stringify(seed)]);
  for (const client of [a, b]) await client.query(sqlText('set-clock'), [isoAt(scene.now)]);
}

type Result = { rows: string } | { error: string };

const render = (result: Result) => ('rows' in result ? result.rows : `error ${result.error}`);

async function attempt(client: pg.Client, variant: CorpusVariant, params: unknown[]): Promise<Result> {
  try {
    const result = await client.query(variant.sql, params);
    return { rows: renderRows(variant.role, result.rows) };
  } catch (error) {
    return { error: (error as { code?: string }).code ?? String(error) };
  }
}

/** Resolves true once B's backend waits for a lock, false if B's statement returns first. */
async function waitsForLock(pid: number, statement: Promise<unknown>): Promise<boolean> {
  let returned = false;
  void statement.then(() => {
    returned = true;
  });
  const deadline = Date.now() + 30_000;
  while (!returned) {
    const { rows } = await observer.query<{ wait_event_type: string | null }>('SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1', [pid]);
    if (rows[0]?.wait_event_type === 'Lock') return true;
    if (Date.now() > deadline) throw new Error('B neither returned nor waited for a lock within 30 s');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return false;
}

/** B's probe and after-wait statements, each in a transaction rolled back at once: 55P03, or null when it ran. */
async function probeAsB(analysis: Analysis, params: unknown[]): Promise<{ probe: string | null; relock: string | null; candidates: number[] }> {
  if (!analysis.ok) return { probe: null, relock: null, candidates: [] };
  const inRolledBack = async (sql: string, values: unknown[]) => {
    await b.query('BEGIN');
    try {
      return await b.query(sql, values);
    } finally {
      await b.query('ROLLBACK');
    }
  };
  const codeOf = async (sql: string, values: unknown[]) => {
    try {
      await inRolledBack(sql, values);
      return null;
    } catch (error) {
      return (error as { code?: string }).code ?? String(error);
    }
  };
  const { probe, afterWait } = analysis.shape;
  const probeCode = await codeOf(probe.text, params.slice(0, probe.parameterCount));
  let relock: string | null = null;
  let candidateIds: number[] = [];
  if (afterWait.lockingFinder) {
    const { candidates, relock: relockText, runParameter } = afterWait.lockingFinder;
    const found = await inRolledBack(candidates, params.slice(0, runParameter - 1));
    expect(found.rows.length).toBeGreaterThan(0);
    candidateIds = found.rows.map((row) => Number(row.run_id));
    const values = [...params.slice(0, runParameter - 1), found.rows[0]!.run_id];
    relock = await codeOf(relockText, values);
  }
  return { probe: probeCode, relock, candidates: candidateIds };
}

/** B runs the statement in a transaction rolled back at once: its error code, or null when it ran. */
async function codeOfAsB(sql: string, params: unknown[]): Promise<string | null> {
  await b.query('BEGIN');
  try {
    await b.query(sql, params);
    return null;
  } catch (error) {
    return (error as { code?: string }).code ?? String(error);
  } finally {
    await b.query('ROLLBACK');
  }
}

/** The resume recipe's `found` query, run by B before its statement: the frozen values, then the targets. */
async function foundAsB(sql: string, frozenCount: number, params: unknown[]): Promise<unknown[]> {
  await b.query('BEGIN');
  try {
    const row = (await b.query(sql, params)).rows[0] as Record<string, unknown>;
    const frozen = Array.from({ length: frozenCount }, (_, i) => row[`frozen_${i + 1}`]);
    return [...frozen.map((value) => (value === null ? null : JSON.stringify(value))), row.targets];
  } finally {
    await b.query('ROLLBACK');
  }
}

let parser: Awaited<ReturnType<typeof loadParser>>;
beforeAll(async () => {
  parser = await loadParser();
});

async function play(variant: CorpusVariant, ending: 'COMMIT' | 'ROLLBACK'): Promise<CorpusOutcome> {
  await reset(variant);
  const scene = sceneFor(variant.role);
  const bPid = (await b.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
  await a.query('BEGIN');
  const aResult = await attempt(a, variant, scene.params.a);
  const analysis = analyzeWith(parser, variant.sql, variant.role);
  const probed = await probeAsB(analysis, scene.params.b);
  const resume = analysis.ok && 'found' in analysis.shape.afterWait.resume ? analysis.shape.afterWait.resume : null;
  const found = resume ? await foundAsB(resume.found, resume.frozenCount, scene.params.b) : null;
  if (resume && found) {
    // The resumed statement's own NOWAIT twin, while A's transaction is open: it meets A's row exactly when B's statement waits.
    const resumeProbe = await codeOfAsB(resume.probe, [...scene.params.b, ...found]);
    expect(resumeProbe, `the resumed statement's probe: ${resume.probe}`).toBe(probed.probe);
  }
  await b.query('BEGIN');
  const bStatement = attempt(b, variant, scene.params.b);
  const bWaits = await waitsForLock(bPid, bStatement);
  await a.query(ending);
  const bResult = await bStatement;
  await b.query('ROLLBACK');
  const rendered = render(bResult);
  // What the lab would do on PGlite once A has ended, in a transaction of B's rolled back after.
  if (resume && found) {
    await b.query('BEGIN');
    const resumed = await attempt(b, { ...variant, sql: resume.statement }, [...scene.params.b, ...found]);
    await b.query('ROLLBACK');
    expect(render(resumed), `the resumed statement: ${resume.statement}`).toBe(rendered);
  }
  const finder = analysis.ok ? analysis.shape.afterWait.lockingFinder : null;
  if (finder && bWaits) {
    // Relock the runs found before the wait, in order, up to the first that still qualifies; then the statement.
    await b.query('BEGIN');
    for (const run of probed.candidates) {
      const row = (await b.query(finder.relock, [...scene.params.b.slice(0, finder.runParameter - 1), run])).rows[0];
      if (row?.qualifies) break;
    }
    const relocked = await attempt(b, variant, scene.params.b);
    await b.query('ROLLBACK');
    expect(render(relocked), 'relocking the candidates, then the statement').toBe(rendered);
  }
  if (analysis.ok) {
    expect(probed.probe === '55P03', `the probe ${probed.probe ?? 'ran'} but B ${bWaits ? 'waited' : 'did not wait'}`).toBe(bWaits);
    if (probed.probe !== null) expect(probed.probe).toBe('55P03');
    if (probed.relock !== null) expect(probed.relock).toBe('55P03');
  }
  return { a: render(aResult), bWaits, bAfterCommit: rendered, bAfterRollback: rendered };
}

describe('the claim corpus on a real PostgreSQL, two connections', () => {
  for (const variant of readCorpus()) {
    it(`${variant.file}: ${variant.title}`, async () => {
      const committed = await play(variant, 'COMMIT');
      const rolledBack = await play(variant, 'ROLLBACK');
      const seen: CorpusOutcome = { a: committed.a, bWaits: committed.bWaits, bAfterCommit: committed.bAfterCommit, bAfterRollback: rolledBack.bAfterRollback };
      expect(rolledBack.a).toBe(committed.a);
      expect(rolledBack.bWaits).toBe(committed.bWaits);
      expect(seen).toEqual(variant.outcome);
    });
  }
});
