/**
 * The isolation tester's output form (src/spec/output.ts) and its permutation runner (src/spec/run.ts), held
 * to PostgreSQL's own expected/*.out text: tables as libpq's PQprint draws them, "<waiting ...>" and
 * "<... completed>", errors. The runner is driven here by a scripted driver (a step waits until another step
 * has been sent), so the order of what it prints is tested without a server; the ground truth
 * (tests/ground-truth/postgres-isolation.test.ts) runs the same specs on PostgreSQL.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatResultSet, type StepReply } from '../../src/spec/output';
import { parseSpec, permutationsOf } from '../../src/spec/parse';
import { header, type StepOutcome, runPermutations, type SpecDriver } from '../../src/spec/run';

const fixtures = join(__dirname, '../fixtures/postgres-isolation');
const expected = (name: string) => readFileSync(join(fixtures, 'expected', `${name}.out`), 'utf8');
const specText = (name: string) => readFileSync(join(fixtures, 'specs', `${name}.spec`), 'utf8');

describe('formatResultSet', () => {
  it('draws a row as PostgreSQL expected/skip-locked.out shows it: numbers right, text left and padded', () => {
    const text = formatResultSet({ columns: ['id', 'data', 'status'], rows: [['1', 'foo', 'NEW']] });
    expect(text).toBe('id|data|status\n--+----+------\n 1|foo |NEW   \n(1 row)\n\n');
    expect(expected('skip-locked')).toContain(text);
  });

  it('draws a void value as blanks the width of its header (expected/nowait-4.out)', () => {
    const text = formatResultSet({ columns: ['pg_advisory_lock'], rows: [['']] });
    expect(text).toBe('pg_advisory_lock\n----------------\n                \n(1 row)\n\n');
    expect(expected('nowait-4')).toContain(text);
    expect(expected('nowait-4')).toContain(formatResultSet({ columns: ['pg_advisory_unlock'], rows: [['t']] }));
  });

  it('right-aligns a numeric column header, counts rows, and prints NULL as blanks', () => {
    expect(
      formatResultSet({
        columns: ['n', 'label'],
        rows: [
          ['10', null],
          ['-2.5e3', 'x'],
        ],
      }),
    ).toBe('     n|label\n------+-----\n    10|     \n-2.5e3|x    \n(2 rows)\n\n');
    expect(formatResultSet({ columns: ['id'], rows: [] })).toBe('id\n--\n(0 rows)\n\n');
    // A value that is not all digits makes the whole column text (left-aligned), as PQprint decides.
    expect(formatResultSet({ columns: ['v'], rows: [['12'], ['1a']] })).toBe('v \n--\n12\n1a\n(2 rows)\n\n');
  });
});

/**
 * A driver for a scripted run: each step's replies, and for a step that waits, the step whose sending frees
 * it. Nothing else can free it (mayProgress is false), as with a lock held by an idle transaction.
 */
function scriptedDriver(replies: Record<string, StepReply[]>, freedBy: Record<string, string>, checkRows: (string | null)[][] = []) {
  const sent: string[] = [];
  const running = new Map<string, string>();
  const stepOf = new Map<string, string>();
  const sqlToStep = (session: string, sql: string) => stepOf.get(`${session}\u0000${sql}`) ?? sql;
  const waits = (step: string) => freedBy[step] !== undefined && !sent.includes(freedBy[step]!);
  const driver: SpecDriver & { register(session: string, step: string, sql: string): void; sent: string[] } = {
    sent,
    register(session, step, sql) {
      stepOf.set(`${session}\u0000${sql}`, step);
    },
    async control(sql) {
      return { replies: sql.startsWith('SELECT') ? [{ kind: 'rows', result: { columns: ['run_id'], rows: checkRows } }] : [] };
    },
    async runOnSession() {
      return { replies: [] };
    },
    send(session, sql) {
      const step = sqlToStep(session, sql);
      sent.push(step);
      running.set(session, step);
    },
    async poll(session): Promise<StepOutcome | null> {
      const step = running.get(session)!;
      if (waits(step) && !cancelled.has(step)) return null;
      running.delete(session);
      return {
        replies: cancelled.has(step)
          ? [{ kind: 'error', severity: 'ERROR', code: '57014', message: 'canceling statement due to user request' }]
          : (replies[step] ?? []),
      };
    },
    async isBlocked(session) {
      return waits(running.get(session)!);
    },
    async mayProgress() {
      return false;
    },
    async cancel(session) {
      cancelled.add(running.get(session)!);
    },
    takeNotices() {
      return [];
    },
    async reset() {},
  };
  const cancelled = new Set<string>();
  return driver;
}

const row = (columns: string[], ...rows: string[][]): StepReply => ({ kind: 'rows', result: { columns, rows } });
const NOWAIT_ERROR: StepReply = { kind: 'error', severity: 'ERROR', code: '55P03', message: 'could not obtain lock on row in relation "foo"' };

describe('runPermutations', () => {
  it('prints PostgreSQL expected/nowait-3.out: a step that waits, then completes after the commit that frees it', async () => {
    const spec = parseSpec(specText('nowait-3'));
    const foo = row(['id', 'data'], ['1', 'x']);
    const driver = scriptedDriver({ s1a: [foo], s2a: [foo], s3a: [NOWAIT_ERROR] }, { s2a: 's1b' });
    for (const session of spec.sessions) for (const step of session.steps) driver.register(session.name, step.name, step.sql);
    const runs = await runPermutations(spec, permutationsOf(spec), driver, { pollMs: 0 });
    expect(header(spec) + runs.map((r) => r.output).join('')).toBe(expected('nowait-3'));
  });

  it('prints PostgreSQL expected/nowait.out for every interleaving of a spec without permutation lines', async () => {
    const spec = parseSpec(specText('nowait'));
    const foo = row(['id', 'data'], ['1', 'x']);
    // Whoever locks first gets the row; the other session's NOWAIT fails while the first one's transaction is open.
    const runs: string[] = [];
    for (const permutation of permutationsOf(spec)) {
      const order = permutation.map((p) => p.step);
      const first = order.find((s) => s === 's1a' || s === 's2a')!;
      const second = first === 's1a' ? 's2a' : 's1a';
      const commitOfFirst = first === 's1a' ? 's1b' : 's2b';
      const fails = order.indexOf(second) < order.indexOf(commitOfFirst);
      const driver = scriptedDriver({ [first]: [foo], [second]: [fails ? NOWAIT_ERROR : foo] }, {});
      for (const session of spec.sessions) for (const step of session.steps) driver.register(session.name, step.name, step.sql);
      runs.push(...(await runPermutations(spec, [permutation], driver, { pollMs: 0 })).map((r) => r.output));
    }
    expect(header(spec) + runs.join('')).toBe(expected('nowait'));
  });

  it('reports a permutation that needs a session still waiting as invalid, and cancels the wait', async () => {
    const spec = parseSpec('session s1 step a1 { LOCK; } step a2 { COMMIT; }\nsession s2 step b1 { WAIT; } step b2 { MORE; }\npermutation a1 b1 b2 a2');
    const driver = scriptedDriver({}, { b1: 'a2' });
    for (const session of spec.sessions) for (const step of session.steps) driver.register(session.name, step.name, step.sql);
    const [run] = await runPermutations(spec, permutationsOf(spec), driver, { pollMs: 0 });
    expect(run!.output).toBe('\nstarting permutation: a1 b1 b2 a2\nstep a1: LOCK;\nstep b1: WAIT; <waiting ...>\ninvalid permutation detected\n');
    expect(run!.invalid).toMatch(/step b2 needs session s2, whose step b1 waits/);
    expect(driver.sent).toEqual(['a1', 'b1']);
  });

  it('does not call a wait stuck when it ended while being looked at (a deadlock the server broke in the other session)', async () => {
    const spec = parseSpec('session s1 step a1 { LOCK; } step a2 { COMMIT; }\nsession s2 step b1 { WAIT; } step b2 { MORE; }\npermutation a1 b1 b2 a2');
    const driver = scriptedDriver({}, { b1: 'a2' });
    for (const session of spec.sessions) for (const step of session.steps) driver.register(session.name, step.name, step.sql);
    // When the runner asks whether b1's wait can still end, the holders are already gone (b1 got its lock);
    // b1's answer is still on its way and arrives at the poll after next.
    let granted = false;
    let inFlight = 0;
    const { poll, isBlocked } = driver;
    driver.mayProgress = async () => {
      granted = true;
      inFlight = 2;
      return false;
    };
    driver.isBlocked = async (session) => (session === 's2' && granted ? false : isBlocked(session));
    driver.poll = async (session, ms) => {
      if (session === 's2' && granted && inFlight > 0) {
        inFlight -= 1;
        return inFlight === 0 ? { replies: [] } : null;
      }
      return poll(session, ms);
    };
    const [run] = await runPermutations(spec, permutationsOf(spec), driver, { pollMs: 0 });
    expect(run!.invalid).toBeNull();
    expect(run!.output).toBe(
      '\nstarting permutation: a1 b1 b2 a2\nstep a1: LOCK;\nstep b1: WAIT; <waiting ...>\nstep b1: <... completed>\nstep b2: MORE;\nstep a2: COMMIT;\n',
    );
  });

  it('runs the checks after each permutation and reports the rows that break one', async () => {
    const spec = parseSpec('session s1 step a1 { UPDATE; }\ncheck "no double run" { SELECT run_id FROM executions GROUP BY 1 HAVING count(*) > 1 }');
    const held = await runPermutations(spec, permutationsOf(spec), scriptedDriver({}, {}), { pollMs: 0 });
    expect(held[0]!.checks).toEqual([{ name: 'no double run', broken: false, replies: [row(['run_id'])] }]);
    expect(held[0]!.output).not.toContain('broken');
    const broken = await runPermutations(spec, permutationsOf(spec), scriptedDriver({}, {}, [['123']]), { pollMs: 0 });
    expect(broken[0]!.checks[0]!.broken).toBe(true);
    expect(broken[0]!.output).toContain('check "no double run" broken:\nrun_id\n------\n   123\n(1 row)\n');
  });
});
