// The analyzer over PostgreSQL's real parser: syntax errors with PostgreSQL's own message and position,
// the shapes of the lab's own files (locking clauses, NOWAIT probe, after-wait statements), and every
// refusal in src/sql/analyze/refusals.ts reached by an example.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Analysis, analyzeWith, type Shape } from '../../src/sql/analyze/analyze';
import type { Role } from '../../src/sql/analyze/contract';
import { analyzeGsetClaim } from '../../src/sql/analyze/gset';
import { loadParser, type Parser } from '../../src/sql/analyze/parser';
import { ENGINE_ONLY_REFUSALS, REFUSALS, type RefusalId } from '../../src/sql/analyze/refusals';
import { labStatementText } from '../../src/strategies';

let parser: Parser;
beforeAll(async () => {
  parser = await loadParser();
});

/** One of the lab's own statements (src/sql/ or a strategy's folder), as the lab sends it. */
function labText(id: string): string {
  const found = labStatementText(id);
  if (!found) throw new Error(`no lab statement ${id}`);
  return found.text;
}

function shapeOf(sql: string, role: Role): Shape {
  const analysis = analyzeWith(parser, sql, role);
  if (!analysis.ok) throw new Error(`expected a shape, got ${JSON.stringify(analysis.error)}`);
  return analysis.shape;
}

function refusalOf(analysis: Analysis): RefusalId | null {
  return !analysis.ok && analysis.error.kind === 'refused' ? analysis.error.refusal.id : null;
}

const SET = "SET status = 'running', lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2), lease_generation = lease_generation + 1";
const RET = 'RETURNING run_id, lease_generation, lease_expires_at, cancel_requested';
const claim = (where: string, withs = '') => `${withs} UPDATE runs ${SET} WHERE ${where} ${RET}`;

describe('syntax errors', () => {
  it("PostgreSQL's message, its cursor, and the line and column it points at", () => {
    const analysis = analyzeWith(parser, "UPDATE runs\nSET status = 'é'\nWERE run_id = $1", 'complete');
    expect(analysis.ok).toBe(false);
    if (analysis.ok || analysis.error.kind !== 'syntax') throw new Error('expected a syntax error');
    expect(analysis.error.message).toBe('syntax error at or near "WERE"');
    expect(analysis.error.line).toBe(3);
    expect(analysis.error.column).toBe(1);
    expect("UPDATE runs\nSET status = 'é'\nWERE run_id = $1".slice(analysis.error.cursor)).toMatch(/^WERE/);
  });
  it('an unterminated statement points at its end', () => {
    const analysis = analyzeWith(parser, 'UPDATE runs SET status = ', 'complete');
    expect(!analysis.ok && analysis.error.kind === 'syntax' && analysis.error.message).toBe('syntax error at end of input');
  });
  it('the cursor counts characters as PostgreSQL does, outside the basic plane too', () => {
    const sql = "UPDATE runs SET status = '😀'\n  WERE run_id = $1";
    const analysis = analyzeWith(parser, sql, 'complete');
    if (analysis.ok || analysis.error.kind !== 'syntax') throw new Error('expected a syntax error');
    expect(sql.slice(analysis.error.cursor)).toMatch(/^WERE/);
    expect([analysis.error.line, analysis.error.column]).toEqual([2, 3]);
  });
  it('hostile input: a NUL character, a statement too long, deep nesting', () => {
    expect(analyzeWith(parser, "UPDATE runs SET status = 'done'\u0000 WHERE", 'complete')).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    expect(analyzeWith(parser, `${claim('run_id = 1')} ${'-- padding\n'.repeat(2000)}`, 'claim')).toMatchObject({ ok: false, error: { kind: 'invalid' } });
    const nested = `UPDATE runs SET status = ${'('.repeat(7000)}'done'${')'.repeat(7000)} WHERE run_id = $1 AND lease_generation = $2 AND result IS DISTINCT FROM $3 RETURNING status, result`;
    const analysis = analyzeWith(parser, nested, 'complete');
    expect(analysis.ok || analysis.error.kind).not.toBe('invalid');
  });
  it('an empty statement and one of comments only are errors, not refusals', () => {
    expect(analyzeWith(parser, '  ', 'claim')).toMatchObject({ ok: false, error: { kind: 'empty' } });
    expect(analyzeWith(parser, '-- nothing', 'claim')).toMatchObject({ ok: false, error: { kind: 'empty' } });
  });
});

describe("the lab's own files", () => {
  it('claim-for-update: a waiting FOR UPDATE finder in a CTE, its probe and its relock', () => {
    const shape = shapeOf(labText('claim-for-update'), 'claim');
    expect(shape.locks).toEqual([
      expect.objectContaining({ strength: 'update', wait: 'wait', where: { kind: 'cte', name: 'candidate' }, limit: 1, orderBy: ['created_at'] }),
    ]);
    expect(shape.finder).toBe('cte');
    expect(shape.parameters.used).toEqual([1, 2]);
    expect(shape.recheck).toEqual({ onTheRow: [], againstRowsFoundBefore: ['run_id IN (SELECT run_id FROM candidate)'] });
    expect(shape.probe.text).toMatch(/FOR UPDATE NOWAIT\)/);
    expect(shape.probe.text).toMatch(/FOR NO KEY UPDATE OF runs NOWAIT$/);
    expect(shape.probe.parameterCount).toBe(0);
    expect(shape.afterWait.lockingFinder?.runParameter).toBe(1);
    expect(shape.afterWait.lockingFinder?.relock).toMatch(/runs\.run_id = \$1\s+FOR UPDATE NOWAIT$/);
    expect(shape.afterWait.lockingFinder?.candidates).not.toMatch(/LIMIT|FOR UPDATE/);
  });
  it('claim-skip-locked keeps SKIP LOCKED in its probe; claim-nowait probes with SKIP LOCKED (its own NOWAIT never waits)', () => {
    expect(shapeOf(labText('claim-skip-locked'), 'claim').probe.text).toMatch(/FOR UPDATE SKIP LOCKED\)/);
    const nowait = shapeOf(labText('claim-nowait'), 'claim');
    expect(nowait.locks[0]?.wait).toBe('nowait');
    expect(nowait.probe.text).toMatch(/FOR UPDATE SKIP LOCKED\)/);
    expect(nowait.afterWait.lockingFinder).toBeNull();
  });
  it('complete-fenced and heartbeat-fenced: the UPDATE re-checks its own WHERE on the row', () => {
    const complete = shapeOf(labText('complete-fenced'), 'complete');
    expect(complete.finder).toBe('where');
    expect(complete.recheck.onTheRow).toEqual(['run_id = $1', 'lease_generation = $2']);
    expect(complete.probe.parameterCount).toBe(2);
    const heartbeat = shapeOf(labText('heartbeat-fenced'), 'heartbeat');
    expect(heartbeat.probe.text).toMatch(/lease_owner = \$2/);
    expect(shapeOf(labText('work-fenced'), 'work').returning).toEqual(['progress', 'cancel_requested']);
  });
  it('every derived statement parses again', () => {
    for (const [file, role] of [
      ['claim-for-update', 'claim'],
      ['claim-skip-locked', 'claim'],
      ['complete-fenced', 'complete'],
      ['heartbeat-fenced', 'heartbeat'],
    ] as const) {
      const shape = shapeOf(labText(file), role);
      for (const text of [shape.probe.text, shape.afterWait.lockingFinder?.candidates, shape.afterWait.lockingFinder?.relock]) {
        if (text) expect(parser.parse(text).ok, text).toBe(true);
      }
    }
  });
  it('a probe references, with their types, the parameters below the highest it uses', () => {
    const shape = shapeOf(
      "UPDATE runs SET status = 'done', result = $3 WHERE run_id = $1 AND $2::integer > 0 AND result IS DISTINCT FROM $3 RETURNING status, result",
      'complete',
    );
    expect(shape.probe.parameterCount).toBe(3);
    const lean = shapeOf(
      "UPDATE runs SET status = 'done', result = $3, lease_generation = $2, progress = progress + 0 * $1 WHERE result = $3 RETURNING status, result",
      'complete',
    );
    expect(lean.probe.text).toMatch(/CAST\(\$1 AS int4\) AS unused_1/);
    expect(lean.probe.text).toMatch(/CAST\(\$2 AS int4\) AS unused_2/);
  });
  it('a derived table in FROM without a lock: frozen after a wait, its rows read back from a parameter, as EvalPlanQual keeps its row', () => {
    const derived = "(SELECT run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1) AS picked";
    const shape = shapeOf(`UPDATE runs ${SET} FROM ${derived} WHERE runs.run_id = picked.run_id ${RET}`, 'claim');
    expect(shape.finder).toBe('derived-table');
    const resume = shape.afterWait.resume;
    if (!('statement' in resume)) throw new Error(resume.why);
    expect(resume.frozenCount).toBe(1);
    // The resumed UPDATE no longer reads runs in its FROM: the derived table is the rows found before the wait.
    expect(resume.statement).toMatch(/FROM \( SELECT \*\s+FROM jsonb_to_recordset\(CAST\(\$3 AS jsonb\)\) frozen \(run_id int4\) \) AS picked/);
    expect(resume.found).toMatch(/lab_found_1 AS MATERIALIZED/);
    for (const text of [resume.found, resume.statement, resume.probe]) expect(parser.parse(text).ok, text).toBe(true);
  });
  it('a WITH nested in a sub-select is a WITH query, not another table', () => {
    const nested = "run_id = (WITH c AS (SELECT run_id, created_at FROM runs WHERE status = 'pending') SELECT run_id FROM c ORDER BY created_at LIMIT 1)";
    expect(shapeOf(claim(nested), 'claim').finder).toBe('sub-select');
    // Out of its scope the name is still another table.
    expect(refusalOf(analyzeWith(parser, claim(`${nested} AND run_id IN (SELECT run_id FROM c)`), 'claim'))).toBe('other-table');
  });
  it('a scalar sub-select that locks is a finder in a sub-select', () => {
    const shape = shapeOf(claim("run_id = (SELECT run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1 FOR SHARE)"), 'claim');
    expect(shape.locks[0]).toMatchObject({ strength: 'share', wait: 'wait', where: { kind: 'sub-select' } });
    expect(shape.finder).toBe('sub-select');
  });
});

/** A two-statement claim file (psql's \\gset), read by analyzeGsetClaim. */
const GSET_FILE = 'claim file';
const SELECT_ONE = "SELECT run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1";

const REFUSED: Record<RefusalId, [Role | typeof GSET_FILE, string]> = {
  'gset-not-a-select': [GSET_FILE, `${claim('run_id = 1')} \\gset\n${claim('run_id = :run_id')}`],
  'gset-variable': [
    GSET_FILE,
    `SELECT run_id AS id, lease_generation FROM runs LIMIT 1 \\gset\n${claim('run_id = :id AND lease_generation = :lease_generation')}`,
  ],
  'gset-lock': [GSET_FILE, `${SELECT_ONE} FOR SHARE \\gset\n${claim('run_id = :run_id')}`],
  'several-statements': ['claim', `${claim('run_id = 1')}; SELECT 1`],
  'not-an-update': ['claim', 'SELECT run_id FROM runs FOR UPDATE'],
  'transaction-control': ['claim', 'COMMIT'],
  isolation: ['claim', 'SET TRANSACTION ISOLATION LEVEL REPEATABLE READ'],
  settings: ['claim', "SET lock_timeout = '1s'"],
  'table-lock': ['claim', 'LOCK TABLE runs'],
  'wrong-target': ['complete', "UPDATE jobs SET status = 'done' WHERE id = $1 RETURNING status, result"],
  'other-table': ['claim', claim('run_id IN (SELECT run_id FROM queue)')],
  'data-modifying-cte': ['claim', claim('run_id IN (SELECT run_id FROM gone)', 'WITH gone AS (DELETE FROM runs RETURNING run_id)')],
  'recursive-cte': ['claim', claim('run_id IN (SELECT n FROM r)', 'WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r WHERE n < 3)')],
  'set-returning': ['claim', claim('run_id IN (SELECT g FROM generate_series(1, 3) g)')],
  function: ['claim', claim('run_id = 1 AND random() < 0.5')],
  'qualified-name': ['claim', claim('run_id OPERATOR(public.=) 1')],
  'changes-key': [
    'claim',
    `UPDATE runs SET run_id = run_id + 1000, lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2) WHERE run_id = 1 ${RET}`,
  ],
  'parameter-out-of-contract': ['claim', claim('run_id = $3')],
  'parameter-gap': ['complete', "UPDATE runs SET status = 'done', result = $3 WHERE run_id = $1 RETURNING status, result"],
  'returning-mismatch': ['claim', `UPDATE runs ${SET} WHERE run_id = 1 RETURNING run_id`],
  'returning-not-the-row': [
    'claim',
    `UPDATE runs ${SET} WHERE run_id = 1 RETURNING run_id, lease_generation, now() - interval '1 hour' AS lease_expires_at, cancel_requested`,
  ],
  'delete-returning': ['complete', 'DELETE FROM runs WHERE run_id = $1 RETURNING status'],
  'returning-old-new': ['claim', `UPDATE runs ${SET} WHERE run_id = 1 RETURNING old.run_id, lease_generation, lease_expires_at, cancel_requested`],
  'several-locking-clauses': [
    'claim',
    claim(
      'run_id IN (SELECT run_id FROM a) AND run_id = (SELECT run_id FROM runs LIMIT 1 FOR UPDATE)',
      'WITH a AS (SELECT run_id FROM runs ORDER BY created_at LIMIT 1 FOR UPDATE)',
    ),
  ],
  'locking-join': [
    'claim',
    claim('run_id IN (SELECT run_id FROM a)', 'WITH a AS (SELECT r.run_id FROM runs r, runs s WHERE r.run_id = s.run_id LIMIT 1 FOR UPDATE)'),
  ],
  'locking-with-sub-select': [
    'claim',
    claim(
      'run_id IN (SELECT run_id FROM a)',
      "WITH a AS (SELECT run_id FROM runs WHERE (SELECT count(*) FROM runs WHERE status = 'running') < 3 ORDER BY created_at LIMIT 1 FOR UPDATE)",
    ),
  ],
  'locking-in-in-list': ['claim', claim("run_id IN (SELECT run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED)")],
  'locking-correlated': ['claim', claim('run_id = (SELECT r.run_id FROM runs r WHERE r.created_at < runs.created_at LIMIT 1 FOR UPDATE)')],
  'locking-aggregate': ['claim', claim('run_id IN (SELECT m FROM a)', 'WITH a AS (SELECT max(run_id) AS m FROM runs FOR UPDATE)')],
  'where-current-of': ['claim', claim('CURRENT OF c')],
  'key-share-finder': [
    'claim',
    claim('run_id IN (SELECT run_id FROM a)', 'WITH a AS (SELECT run_id FROM runs ORDER BY created_at LIMIT 1 FOR KEY SHARE SKIP LOCKED)'),
  ],
  'cannot-resume': ['claim', claim("EXISTS (SELECT 1 FROM runs r WHERE r.run_id = runs.run_id AND r.status = 'pending')")],
  'advisory-lock': ['claim', claim("status = 'pending' AND pg_try_advisory_lock(run_id)")],
  'advisory-server-only': ['claim', claim("status = 'pending' AND pg_advisory_lock(run_id) IS NOT NULL")],
  'no-where': ['claim', `UPDATE runs ${SET} ${RET}`],
};

const COMPLETE_UNLOCKING =
  "UPDATE runs SET status = 'done', result = $3 WHERE run_id = $1 AND lease_generation = $2 AND pg_advisory_unlock(run_id) RETURNING status, result";

describe("RETURNING run_id, lease_generation, lease_expires_at: the row's own, the values the lab judges ownership by", () => {
  const returning = (lease: string, from = '', alias = '') =>
    `UPDATE runs ${alias} ${SET} ${from} WHERE ${alias ? alias.trim() : 'runs'}.run_id = 1 RETURNING ${alias ? alias.trim() : 'runs'}.run_id, lease_generation, ${lease}, cancel_requested`;
  it('the column, bare, qualified by the table or by its alias, is accepted', () => {
    expect(analyzeWith(parser, returning('lease_expires_at'), 'claim').ok).toBe(true);
    expect(analyzeWith(parser, returning('runs.lease_expires_at'), 'claim').ok).toBe(true);
    expect(analyzeWith(parser, returning('r.lease_expires_at', '', 'r'), 'claim').ok).toBe(true);
  });
  it('an expression or another query’s column under that name is refused, for the heartbeat too', () => {
    expect(refusalOf(analyzeWith(parser, returning("lease_expires_at - interval '1 hour' AS lease_expires_at"), 'claim'))).toBe('returning-not-the-row');
    expect(
      refusalOf(analyzeWith(parser, returning('p.lease_expires_at', 'FROM (SELECT run_id, lease_expires_at FROM runs WHERE run_id = 1) p'), 'claim')),
    ).toBe('returning-not-the-row');
    const heartbeat =
      'UPDATE runs SET lease_expires_at = now() + make_interval(secs => $4) WHERE run_id = $1 AND lease_owner = $2 AND lease_generation = $3 RETURNING now() AS lease_expires_at, cancel_requested';
    expect(refusalOf(analyzeWith(parser, heartbeat, 'heartbeat'))).toBe('returning-not-the-row');
    // A run id or generation handed back as anything else could name a run the worker never locked.
    expect(
      refusalOf(
        analyzeWith(
          parser,
          `UPDATE runs ${SET} WHERE run_id = 1 RETURNING run_id + 1 AS run_id, lease_generation, lease_expires_at, cancel_requested`,
          'claim',
        ),
      ),
    ).toBe('returning-not-the-row');
    expect(
      refusalOf(
        analyzeWith(parser, `UPDATE runs ${SET} WHERE run_id = 1 RETURNING run_id, 7 AS lease_generation, lease_expires_at, cancel_requested`, 'claim'),
      ),
    ).toBe('returning-not-the-row');
  });
});

describe('every refusal, reached by an example', () => {
  for (const [id, [role, sql]] of Object.entries(REFUSED) as [RefusalId, [Role | typeof GSET_FILE, string]][]) {
    it(`${id}: ${REFUSALS[id]}`, () => {
      const gset = role === GSET_FILE ? analyzeGsetClaim(parser, sql) : null;
      const analysis = gset ? (gset.ok ? ({ ok: true } as Analysis) : gset) : analyzeWith(parser, sql, role as Role);
      expect(analysis.ok ? 'accepted' : analysis.error.kind === 'refused' ? refusalOf(analysis) : analysis.error.message).toBe(id);
    });
  }
  it('BEGIN ISOLATION LEVEL SERIALIZABLE is refused for its isolation level; a plain BEGIN as transaction control', () => {
    expect(refusalOf(analyzeWith(parser, 'BEGIN ISOLATION LEVEL SERIALIZABLE', 'claim'))).toBe('isolation');
    expect(refusalOf(analyzeWith(parser, 'BEGIN', 'claim'))).toBe('transaction-control');
  });
  it('an isolation level says why the page runs READ COMMITTED and how a server runs the claim at another', () => {
    expect(REFUSALS.isolation).toContain('READ COMMITTED on PGlite (one session, which cannot hold two transactions’ snapshots at once)');
    expect(REFUSALS.isolation).toContain('--isolation repeatable-read or serializable with --db URL');
    // The CLI refuses the statement on a server too (the level is its option, not the claim's), as the page's hint says.
    expect(ENGINE_ONLY_REFUSALS.has('isolation')).toBe(false);
    expect(REFUSALS.isolation).not.toContain('live mode only');
  });
  it('a locking clause on a UNION is refused as PostgreSQL refuses it', () => {
    const union = claim('run_id IN (SELECT run_id FROM a)', 'WITH a AS (SELECT run_id FROM runs UNION SELECT run_id FROM runs FOR UPDATE)');
    expect(refusalOf(analyzeWith(parser, union, 'claim'))).toBe('locking-aggregate');
  });
  it('an engine-only refusal still gives the predictor its shape', () => {
    const keyShare = claim('run_id IN (SELECT run_id FROM a)', 'WITH a AS (SELECT run_id FROM runs ORDER BY created_at LIMIT 1 FOR KEY SHARE)');
    expect(refusalOf(analyzeWith(parser, keyShare, 'claim'))).toBe('key-share-finder');
    expect(analyzeWith(parser, keyShare, 'claim', { engineRefusals: false }).ok).toBe(true);
  });
  it("an operator or a type of another schema's is refused, however it is written; PostgreSQL's own, qualified or not, is not", () => {
    for (const where of [
      'run_id = 1 AND lease_generation OPERATOR(public.+) 1 > 0',
      'run_id OPERATOR(public.=) ANY (SELECT run_id FROM runs)',
      'run_id = 1 AND tenant::public.t IS NOT NULL',
      'run_id = 1 AND CAST(tenant AS theirs.t) IS NOT NULL',
      'run_id = 1 AND ARRAY[tenant]::public.t[] IS NOT NULL',
    ]) {
      expect(refusalOf(analyzeWith(parser, claim(where), 'claim')), where).toBe('qualified-name');
    }
    for (const where of ['run_id = 1::integer', 'run_id OPERATOR(pg_catalog.=) 1', "run_id = 1 AND tenant::pg_catalog.text <> ''"]) {
      expect(analyzeWith(parser, claim(where), 'claim').ok, where).toBe(true);
    }
  });
  it('the wall clock is refused; a session advisory try-lock only on PGlite (a server plays it), a transaction-level one nowhere; one that waits, a shared one or an unlock on PGlite only (advisory-server-only)', () => {
    expect(refusalOf(analyzeWith(parser, claim('run_id = 1 AND lease_expires_at < CURRENT_TIMESTAMP'), 'claim'))).toBe('function');
    for (const call of [
      'pg_catalog.pg_try_advisory_lock(run_id)',
      'pg_try_advisory_lock(1, run_id)',
      'pg_try_advisory_xact_lock(run_id) AND pg_try_advisory_lock(run_id)',
    ]) {
      expect(refusalOf(analyzeWith(parser, claim(call), 'claim')), call).toBe('advisory-lock');
      const onServer = analyzeWith(parser, claim(call), 'claim', { engineRefusals: false });
      expect(onServer.ok && onServer.shape.advisoryLocks, call).toEqual(
        call.includes('xact') ? ['pg_try_advisory_lock', 'pg_try_advisory_xact_lock'] : ['pg_try_advisory_lock'],
      );
    }
    // Held by the claim's parked (prepared) transaction on PGlite, as by the worker's transaction on a server.
    for (const call of ['pg_try_advisory_xact_lock(run_id)', 'pg_catalog.pg_try_advisory_xact_lock(1, run_id)']) {
      for (const engineRefusals of [true, false]) {
        const analysis = analyzeWith(parser, claim(call), 'claim', { engineRefusals });
        expect(analysis.ok && analysis.shape.advisoryLocks, call).toEqual(['pg_try_advisory_xact_lock']);
      }
    }
    // good_job's claim with it: no locking clause and an IN sub-select (cannot-resume otherwise), refused only
    // where it would wait, as it plays (strategies/custom.ts advisoryWait).
    const goodJob = readFileSync(join(__dirname, '../fixtures/claims/good-job-advisory-xact.sql'), 'utf8');
    expect(analyzeWith(parser, goodJob, 'claim').ok).toBe(true);
    expect(refusalOf(analyzeWith(parser, goodJob.replace('pg_try_advisory_xact_lock(candidates.run_id)', 'candidates.run_id > 0'), 'claim'))).toBe(
      'cannot-resume',
    );
    // A lock that waits, a shared one, an unlock: refused on PGlite in one line naming which and why, played on a server.
    for (const [call, name, why] of [
      ['pg_advisory_lock(run_id) IS NOT NULL', 'pg_advisory_lock', 'an advisory lock that waits'],
      ['pg_advisory_xact_lock(run_id) IS NOT NULL', 'pg_advisory_xact_lock', 'an advisory lock that waits'],
      ['pg_advisory_lock_shared(run_id) IS NOT NULL', 'pg_advisory_lock_shared', 'a shared advisory lock that waits'],
      ['pg_try_advisory_lock_shared(run_id)', 'pg_try_advisory_lock_shared', 'a shared advisory lock'],
      ['pg_try_advisory_xact_lock(run_id) AND pg_advisory_unlock(run_id)', 'pg_advisory_unlock', 'an advisory unlock'],
    ] as const) {
      const onPGlite = analyzeWith(parser, claim(call), 'claim');
      expect(refusalOf(onPGlite), call).toBe('advisory-server-only');
      expect(!onPGlite.ok && onPGlite.error.message, call).toContain(`(${name}(): ${why})`);
      expect(!onPGlite.ok && onPGlite.error.message, call).toContain('npm run sim -- check … --db postgres://');
      expect(!onPGlite.ok && onPGlite.error.message, call).not.toContain('\n');
      const onServer = analyzeWith(parser, claim(call), 'claim', { engineRefusals: false });
      expect(onServer.ok && onServer.shape.advisoryLocks, call).toContain(name);
    }
    // A completion that unlocks the run's lock, as que and good_job do after the job.
    const unlocking = analyzeWith(parser, COMPLETE_UNLOCKING, 'complete', { engineRefusals: false });
    expect(unlocking.ok && unlocking.shape.advisoryLocks).toEqual(['pg_advisory_unlock']);
    expect(refusalOf(analyzeWith(parser, COMPLETE_UNLOCKING, 'complete'))).toBe('advisory-server-only');
    // LOCK TABLE alone is table-lock now, and a schema other than PostgreSQL's is no advisory function.
    expect(refusalOf(analyzeWith(parser, claim('public.pg_advisory_lock(run_id) IS NOT NULL'), 'claim', { engineRefusals: false }))).toBe('function');
    expect(shapeOf(claim('run_id = 1'), 'claim').advisoryLocks).toEqual([]);
  });
});

describe('docs/check-your-own-claim.md (the README draft)', () => {
  it('lists every refusal as refusals.ts words it, and the corpus table as the corpus files declare it', async () => {
    const { refusalList } = await import('../../src/sql/analyze/print-refusals');
    const { corpusTable } = await import('../support/claim-corpus');
    const doc = readFileSync(new URL('../../docs/check-your-own-claim.md', import.meta.url), 'utf8');
    expect(doc).toContain(refusalList());
    expect(doc).toContain(corpusTable());
  });
});
