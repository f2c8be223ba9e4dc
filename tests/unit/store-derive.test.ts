import { describe, expect, it } from 'vitest';
import { clockIso, leaseRunsOutAt, OUT_OF_RANGE_TIME } from '../../src/sim/clock';
import type { RunRow, TraceStep } from '../../src/sim/types';
import {
  changedCells,
  describeResult,
  formatCell,
  formatParams,
  operatorTargets,
  secondsToNextExpiry,
  shownStepIndex,
  unshowableTime,
  workerCard,
} from '../../src/store/derive';
import { replay } from '../../src/engine/replay';
import { defaultSettings, findScenario } from '../../src/scenarios';
import { ScheduleError } from '../../src/sim/schedule';
import { labDatabase, runScenario } from '../support/lab';

const run = (over: Partial<RunRow>): RunRow => ({
  run_id: 123,
  tenant: 'acme',
  status: 'pending',
  lease_owner: null,
  lease_expires_at: null,
  lease_generation: 17,
  heartbeat_at: null,
  cancel_requested: false,
  created_at: clockIso(-120),
  progress: 0,
  cost_cents: 0,
  result: null,
  ...over,
});

describe('read-outs for the panels', () => {
  it('lists parameters as $n = value, quoting text like SQL', () => {
    expect(formatParams(['A', 60, null, true, "it's"])).toEqual(["$1 = 'A'", '$2 = 60', '$3 = NULL', '$4 = true', "$5 = 'it''s'"]);
  });

  it('shows timestamps on the lab clock', () => {
    expect(formatCell(clockIso(61))).toBe('15:01:01');
    expect(formatCell('answer from A')).toBe('answer from A');
  });

  it('marks the cells a step changed, and every cell of a new row', () => {
    const before = [run({})];
    const after = [run({ status: 'running', lease_owner: 'A', lease_generation: 18 }), run({ run_id: 124 })];
    const changed = changedCells(before, after);
    expect([...changed].filter((c) => c.startsWith('123:')).sort()).toEqual(['123:lease_generation', '123:lease_owner', '123:status']);
    expect(changed.has('124:run_id')).toBe(true);
  });

  it('tells a COMMIT apart from a write that matched nothing', () => {
    expect(describeResult({ status: 'ok', rows: [], rowCount: 0 }, 'COMMIT').summary).toBe('OK: COMMIT succeeded.');
    expect(describeResult({ status: 'ok', rows: [], rowCount: 0 }, 'UPDATE runs SET x = 1 WHERE run_id = $1 RETURNING run_id').summary).toMatch(/^0 rows/);
    expect(describeResult({ status: 'blocked', holders: ['A'] }).summary).toBe('Blocked, waiting for A.');
    expect(describeResult({ status: 'error', code: '55P03', message: 'could not obtain lock on row in relation "runs"' }).summary).toBe(
      'ERROR 55P03: could not obtain lock on row in relation "runs"',
    );
  });

  it('finds the next lease expiry of a running run', () => {
    const runs = [run({ status: 'running', lease_expires_at: clockIso(60) }), run({ run_id: 124, status: 'running', lease_expires_at: clockIso(90) })];
    expect(secondsToNextExpiry(runs, 10)).toBe(51);
    expect(secondsToNextExpiry(runs, 61)).toBe(30);
    expect(secondsToNextExpiry([run({})], 0)).toBeNull();
  });

  it("takes a lease's end from the one rule the engine uses: a second past its instant, none for a time the clock cannot show", () => {
    const runs = [
      run({ status: 'running', lease_expires_at: clockIso(60) }),
      run({ run_id: 124, status: 'running', lease_expires_at: 'infinity' }),
      run({ run_id: 125, status: 'done', lease_expires_at: clockIso(5) }),
    ];
    expect(leaseRunsOutAt(runs)).toEqual([61]);
    expect(secondsToNextExpiry(runs, 0)).toBe(61);
  });

  it('explains the picked step, or else the last one revealed', () => {
    expect(shownStepIndex(5, null)).toBe(4);
    expect(shownStepIndex(5, 2)).toBe(2);
    expect(shownStepIndex(2, 4)).toBe(1);
    expect(shownStepIndex(0, null)).toBeNull();
  });
});

describe("the operator's Kill menu", () => {
  it('offers exactly the runs whose kill the engine plays, at every step of the scenarios with an operator', async () => {
    const db = await labDatabase();
    const cases = [
      { id: 'cancel-kill', strategy: 'skip-locked' as const },
      { id: 'lock-wait', strategy: 'for-update' as const },
    ];
    let offered = 0;
    for (const { id, strategy } of cases) {
      const scenario = findScenario(id)!;
      const settings = { ...defaultSettings(scenario), strategy };
      const { sim } = await replay(db, { scenario, settings, schedule: scenario.script }, { onInapplicable: 'skip' });
      const script = sim.trace().schedule;
      for (let at = 0; at <= script.length; at++) {
        const prefix = script.slice(0, at);
        const here = await replay(db, { scenario, settings, schedule: prefix });
        const { kill } = operatorTargets(here.sim.trace().finalRuns, here.sim.workerStates());
        offered += kill.length;
        for (const { runId } of scenario.runs) {
          const probe = await replay(db, { scenario, settings, schedule: [...prefix, `kill:${runId}`] }).then(
            () => true,
            (error: unknown) => {
              if (error instanceof ScheduleError) return false;
              throw error;
            },
          );
          expect(kill.includes(runId), `${id} after ${prefix.join(',') || 'the start'}: kill:${runId} ${probe ? 'plays' : 'is refused'}`).toBe(probe);
        }
      }
    }
    // The menu was not empty everywhere: some states had a process to kill.
    expect(offered).toBeGreaterThan(0);
  });

  it('does not offer a worker still waiting to claim: it owns nothing yet', () => {
    const waiting = { id: 'B', phase: 'blocked', runId: 123, generation: null, blockedOn: ['A'] };
    expect(operatorTargets([run({ status: 'running' })], [waiting as never]).kill).toEqual([]);
  });
});

describe('worker cards', () => {
  it('show no lease once the worker has marked its run done (lease_expires_at is NULL)', async () => {
    const trace = await runScenario('race', ['A', 'A', 'A', 'A', 'A'], { strategy: 'naive', fencing: false }, { finish: { kind: 'none' } });
    const last = trace.steps.at(-1)!;
    expect(last.runs.find((r) => r.run_id === 123)).toMatchObject({ status: 'done', lease_expires_at: null });
    const a = last.workers.find((w) => w.id === 'A')!;
    expect(a.phase).toBe('done');
    expect(workerCard(a, last.clockSeconds).leaseLeftSeconds).toBeNull();
    const owning = trace.steps[3]!.workers.find((w) => w.id === 'A')!;
    expect(workerCard(owning, trace.steps[3]!.clockSeconds).leaseLeftSeconds).toBe(60);
  });
});

describe('times the clock cannot show', () => {
  const step = (runs: RunRow[], returned: Record<string, unknown>[] = []) =>
    ({ runs, outcome: { status: 'ok', rows: returned, rowCount: returned.length }, workers: [] }) as unknown as TraceStep;

  it('every time of a trace the lab plays can be shown', () => {
    expect(unshowableTime([step([run({ status: 'running', lease_expires_at: clockIso(30), heartbeat_at: clockIso(0) })])])).toBeNull();
  });

  it("PostgreSQL's infinities and years past JavaScript's dates are named, in the table and in what a claim returned", () => {
    expect(unshowableTime([step([run({ lease_expires_at: Number.POSITIVE_INFINITY as unknown as string })])])).toBe("run 123's lease_expires_at is infinity");
    expect(unshowableTime([step([run({ heartbeat_at: Number.NEGATIVE_INFINITY as unknown as string })])])).toBe("run 123's heartbeat_at is -infinity");
    expect(unshowableTime([step([run({})], [{ run_id: 124, lease_expires_at: OUT_OF_RANGE_TIME }])])).toBe(
      "run 124's lease_expires_at is after the year 275,760",
    );
  });
});
