/**
 * A claim file in two statements, psql's way (sql/analyze/gset.ts): `SELECT … \gset` keeps the row's columns as
 * variables, and `:name` in the UPDATE is bound as $3, never pasted. Each bad file is one clear reason.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { AnalyzeError } from '../../src/sql/analyze/analyze';
import { analyzeGsetClaim, isGsetClaim } from '../../src/sql/analyze/gset';
import { loadParser, type Parser } from '../../src/sql/analyze/parser';

let parser: Parser;
beforeAll(async () => {
  parser = await loadParser();
});

const SELECT = "SELECT run_id FROM runs WHERE status = 'pending' ORDER BY created_at LIMIT 1 FOR UPDATE SKIP LOCKED";
const SET = "SET status = 'running', lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2), lease_generation = lease_generation + 1";
const RET = 'RETURNING run_id, lease_generation, lease_expires_at, cancel_requested';
const update = (where: string) => `UPDATE runs ${SET} WHERE ${where} ${RET};`;

function problem(text: string): string {
  const analysis = analyzeGsetClaim(parser, text);
  if (analysis.ok) return 'accepted';
  const error: AnalyzeError = analysis.error;
  return error.kind === 'refused' ? `${error.refusal.id}: ${error.message}` : error.message;
}

describe('a claim file with \\gset', () => {
  it('binds :run_id as $3 in the UPDATE, leaving casts, strings and comments alone', () => {
    const text = `-- the :run_id in this comment is no variable\n${SELECT} \\gset\n${update("run_id = :run_id AND status::text <> ':run_id'")}`;
    expect(isGsetClaim(text)).toBe(true);
    const analysis = analyzeGsetClaim(parser, text);
    if (!analysis.ok) throw new Error(analysis.error.message);
    expect(analysis.claim.update).toContain("WHERE run_id = $3 AND status::text <> ':run_id'");
    expect(analysis.claim.variable).toBe('run_id');
    expect(analysis.claim.selectShape.lock).toMatchObject({ strength: 'update', wait: 'skip locked' });
    expect(analysis.claim.selectShape.probe).toBeNull();
  });

  it('names the variable after the column alias and the \\gset prefix, as psql does', () => {
    const analysis = analyzeGsetClaim(parser, `SELECT run_id AS id FROM runs LIMIT 1 FOR UPDATE \\gset picked_\n${update('run_id = :picked_id')}`);
    if (!analysis.ok) throw new Error(analysis.error.message);
    expect(analysis.claim.runColumn).toBe('id');
    // A waiting FOR UPDATE is probed with its NOWAIT twin, and after a wait relocks what it found.
    expect(analysis.claim.selectShape.probe).toMatch(/FOR UPDATE NOWAIT/);
    expect(analysis.claim.selectShape.lockingFinder?.relock).toMatch(/FOR UPDATE NOWAIT/);
  });

  it('a file without a psql command is one statement, read as before', () => {
    expect(isGsetClaim(update('run_id = 1'))).toBe(false);
  });

  it.for([
    ['a :name no \\gset set', `${SELECT} \\gset\n${update('run_id = :id')}`, /^gset-variable: .*\(:id is not set by the \\gset, which sets :run_id\)$/],
    [
      'a variable from a column other than run_id',
      `SELECT run_id, lease_generation FROM runs LIMIT 1 \\gset\n${update('run_id = :lease_generation')}`,
      /^gset-variable: .*not the SELECT's run_id/,
    ],
    ["psql's :'name', which pastes text", `${SELECT} \\gset\n${update("run_id = :'run_id'")}`, /^gset-variable: .*pastes the value as text; write :run_id\)$/],
    ['an UPDATE that uses no variable', `${SELECT} \\gset\n${update('run_id = 1')}`, /^gset-variable: .*uses none of :run_id/],
    ['three statements', `${SELECT} \\gset\n${update('run_id = :run_id')}\nSELECT 1;`, /^several-statements: .*\(3 statements/],
    ['two \\gset', `${SELECT} \\gset\nSELECT 1 \\gset\n${update('run_id = :run_id')}`, /^several-statements: .*\(2 \\gset/],
    ['\\gset after an UPDATE', `${update('run_id = 1')} \\gset\n${update('run_id = :run_id')}`, /^gset-not-a-select: .*\(it is an UPDATE/],
    [
      'a SELECT … FOR SHARE',
      "SELECT run_id FROM runs LIMIT 1 FOR SHARE \\gset\nUPDATE runs SET status = 'running' WHERE run_id = :run_id",
      /^gset-lock: .*\(FOR SHARE\)$/,
    ],
    ['a waiting FOR UPDATE without LIMIT 1', `SELECT run_id FROM runs FOR UPDATE \\gset\n${update('run_id = :run_id')}`, /^gset-lock: .*without LIMIT\)$/],
    ['an UPDATE that takes $3 itself', `${SELECT} \\gset\n${update('run_id = :run_id AND $3::int > 0')}`, /^parameter-out-of-contract: .*uses \$3/],
    ['another psql command', `${SELECT} \\g\n${update('run_id = 1')}`, /^psql's \\g: the lab reads one psql command, \\gset/],
    ['nothing after the \\gset', `${SELECT} \\gset\n`, /^\\gset with no statement after it/],
  ] as const)('%s: one reason', ([, text, expected]) => {
    const said = problem(text);
    expect(said).toMatch(expected);
    expect(said.split('\n')).toHaveLength(1);
  });
});
