/**
 * The runner's record of each step (src/spec/run.ts StepTrace), which the page draws as lanes: the step
 * that waited, the step whose end released it, the rows and the error each gave back, on PGlite. The text
 * beside it is the tester's, unchanged (spec-pglite.test.ts compares it with PostgreSQL's expected files).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PGliteSpecDriver } from '../../src/db/pglite-spec';
import { parseSpec } from '../../src/spec/parse';
import { type PermutationRun, runPermutations } from '../../src/spec/run';

const SPEC = parseSpec(`
setup { CREATE TABLE foo (id int PRIMARY KEY, data text NOT NULL); INSERT INTO foo VALUES (1, 'x'); }
teardown { DROP TABLE foo; }
session a
setup { BEGIN; }
step a1 { UPDATE foo SET data = 'a' WHERE id = 1; }
step a2 { ROLLBACK; }
session b
step b1 { UPDATE foo SET data = data || 'b' WHERE id = 1 RETURNING data; }
step b2 { SELECT 1 / 0; }
check "b wrote" { SELECT id FROM foo WHERE data = 'xb' }
`);

describe("the runner's record of each step, on PGlite", () => {
  let driver: PGliteSpecDriver;
  let run: PermutationRun;
  beforeAll(async () => {
    driver = await PGliteSpecDriver.open(SPEC);
    const steps = (names: string) => names.split(' ').map((step) => ({ step, blockers: [] }));
    run = (await runPermutations(SPEC, [steps('a1 b1 a2 b2')], driver, { pollMs: 0 }))[0]!;
  }, 60_000);
  afterAll(() => driver?.close());

  it('a step that waited spans from where it was sent to the step whose end released it; the others return where they were sent', () => {
    expect(run.trace.map(({ step, session, sentAt, returnedAt, waited, releasedBy }) => ({ step, session, sentAt, returnedAt, waited, releasedBy }))).toEqual([
      { step: 'a1', session: 'a', sentAt: 0, returnedAt: 0, waited: false, releasedBy: null },
      { step: 'b1', session: 'b', sentAt: 1, returnedAt: 2, waited: true, releasedBy: 'a2' },
      { step: 'a2', session: 'a', sentAt: 2, returnedAt: 2, waited: false, releasedBy: null },
      { step: 'b2', session: 'b', sentAt: 3, returnedAt: 3, waited: false, releasedBy: null },
    ]);
    expect(run.trace[1]!.sql).toBe("UPDATE foo SET data = data || 'b' WHERE id = 1 RETURNING data;");
  });

  it('each step keeps its rows and its error, as the text prints them; the check after the last step keeps its rows', () => {
    expect(run.trace[1]!.replies).toEqual([{ kind: 'rows', result: { columns: ['data'], rows: [['xb']] } }]);
    expect(run.trace[3]!.replies).toEqual([{ kind: 'error', severity: 'ERROR', code: '22012', message: 'division by zero' }]);
    expect(run.output).toContain('step b1: <... completed>\ndata\n----\nxb  \n(1 row)\n');
    expect(run.output).toContain('step b2: SELECT 1 / 0;\nERROR:  division by zero\n');
    expect(run.checks).toEqual([{ name: 'b wrote', broken: true, replies: [{ kind: 'rows', result: { columns: ['id'], rows: [['1']] } }] }]);
  });
});
