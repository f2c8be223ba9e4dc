/** The behaviours the lab teaches, checked on PGlite through the whole engine. */
import { describe, expect, it } from 'vitest';
import { SCENARIOS } from '../../src/scenarios';
import { STRATEGIES } from '../../src/sim/types';
import { runScenario } from '../support/lab';

const kinds = (trace: { anomalies: { kind: string }[] }) => trace.anomalies.map((a) => a.kind);

describe('the naive race', () => {
  it('A,B,A,B: both workers read run 123 as pending, both claim it, both pay for it', async () => {
    const trace = await runScenario('race', ['A', 'B', 'A', 'B', 'A', 'B'], { strategy: 'naive', fencing: false });
    const selects = trace.steps.filter((s) => s.action === 'select');
    expect(selects.map((s) => s.outcome?.status === 'ok' && s.outcome.rows[0]?.run_id)).toEqual([123, 123]);
    const claims = trace.steps.filter((s) => s.action === 'naive-update');
    expect(claims.map((s) => s.verdict)).toEqual(['ok', 'ok']);
    const duplicate = trace.anomalies.find((a) => a.kind === 'duplicate-execution');
    expect(duplicate).toMatchObject({ runId: 123, workers: ['A', 'B'] });
    expect(duplicate?.steps).toEqual([4, 5]);
  });

  it('A,B,A,B,B,B,B,A, fencing off: the write that finds the run done is not blamed on fencing', async () => {
    const trace = await runScenario('race', ['A', 'B', 'A', 'B', 'B', 'B', 'B', 'A'], { strategy: 'naive', fencing: false });
    const last = trace.steps[7]!;
    expect(last).toMatchObject({ actor: 'A', verdict: 'rejected', staleWrite: null });
    expect(last.facts).toEqual([
      { kind: 'write-missed', worker: 'A', write: 'work', run: 123, because: { kind: 'not-running', status: 'done', owner: 'B' }, fencing: false },
      { kind: 'call-wasted', worker: 'A', run: 123 },
    ]);
    expect(kinds(trace)).not.toContain('stale-write-rejected');
  });

  it('A,A,B,B: one after the other there is no race', async () => {
    const trace = await runScenario('race', ['A', 'A', 'B', 'B'], { strategy: 'naive', fencing: false }, { finish: { kind: 'round-robin' } });
    expect(kinds(trace)).toEqual([]);
    expect(trace.finalRuns.map((r) => [r.run_id, r.status])).toEqual([
      [123, 'done'],
      [124, 'done'],
    ]);
  });

  it('compare-and-set: the loser matches 0 rows and moves on to the next run', async () => {
    const trace = await runScenario('race', ['A', 'B', 'A', 'B'], { strategy: 'cas', fencing: true }, { finish: { kind: 'round-robin' } });
    const cas = trace.steps.filter((s) => s.action === 'cas-claim');
    expect(cas[0]).toMatchObject({ actor: 'A', verdict: 'ok' });
    expect(cas[1]).toMatchObject({ actor: 'B', verdict: 'empty' });
    expect(kinds(trace)).toEqual([]);
    expect(trace.finalRuns.map((r) => r.lease_owner)).toEqual(['A', 'B']);
  });
});

describe('row locks on one PGlite session', () => {
  it('SKIP LOCKED: B passes over the run A has locked but not committed', async () => {
    const trace = await runScenario('lock-wait', ['A', 'B'], { strategy: 'skip-locked' });
    const [a, b] = trace.steps;
    expect(a?.outcome).toMatchObject({ status: 'ok', rows: [{ run_id: 123, lease_generation: 18 }] });
    expect(b?.outcome).toMatchObject({ status: 'ok', rows: [{ run_id: 124 }] });
    expect(trace.steps.at(-1)?.locks).toEqual([
      { session: 'A', runIds: [123] },
      { session: 'B', runIds: [124] },
    ]);
  });

  it('plain FOR UPDATE: B waits for A, and claims run 124 once A commits', async () => {
    const trace = await runScenario('lock-wait', ['A', 'B', 'A'], { strategy: 'for-update' });
    expect(trace.steps.map((s) => [s.actor, s.action, s.verdict, s.resumed])).toEqual([
      ['A', 'claim', 'ok', false],
      ['B', 'claim', 'blocked', false],
      ['A', 'commit', 'ok', false],
      ['B', 'claim', 'ok', true],
    ]);
    expect(trace.steps[1]?.outcome).toEqual({ status: 'blocked', holders: ['A'] });
    expect(trace.steps[1]?.engineFact).toEqual({ kind: 'probed', code: '55P03', holders: ['A'] });
    expect(trace.steps[3]?.outcome).toMatchObject({ rows: [{ run_id: 124 }] });
  });

  it('NOWAIT: B fails at once with SQLSTATE 55P03', async () => {
    const trace = await runScenario('lock-wait', ['A', 'B'], { strategy: 'nowait' });
    expect(trace.steps[1]?.outcome).toMatchObject({ status: 'error', code: '55P03' });
  });

  it('a crash rolls back the open claim and frees the row', async () => {
    const trace = await runScenario('lock-wait', ['A', 'B', 'crash:A'], { strategy: 'for-update' });
    const resumed = trace.steps.find((s) => s.resumed);
    expect(resumed?.outcome).toMatchObject({ rows: [{ run_id: 123, lease_generation: 18 }] });
  });
});

describe('leases, fencing and cancellation', () => {
  it('a timed pause or resume comes after the clock step that reaches its time', async () => {
    const trace = await runScenario('paused-worker', ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', '+40'], { fencing: true });
    const timed = trace.steps.filter((s) => s.facts.some((fact) => 'plannedAt' in fact && fact.plannedAt !== null));
    expect(timed.map((s) => s.action)).toEqual(['pause', 'resume']);
    for (const step of timed) {
      const before = trace.steps[step.index - 1]!;
      expect(before).toMatchObject({ action: 'advance', tokenIndex: step.tokenIndex, clockSeconds: step.clockSeconds });
    }
    expect(trace.steps[3]).toMatchObject({ action: 'advance', facts: [{ kind: 'clock-moved', fromSeconds: 0, toSeconds: 10 }] });
    expect(trace.steps[4]?.facts).toEqual([{ kind: 'paused', worker: 'A', plannedAt: 10 }]);
  });

  it('paused worker, fencing on: the stale write is rejected (generation 18 vs 19)', async () => {
    const trace = await runScenario('paused-worker', 'script', { fencing: true });
    const stale = trace.anomalies.find((a) => a.kind === 'stale-write-rejected');
    expect(stale?.message).toMatch(/holds generation 18, the run is at 19/);
    expect(kinds(trace)).not.toContain('split-ownership');
    expect(trace.finalRuns[0]).toMatchObject({ status: 'done', lease_owner: 'B', lease_generation: 19, result: 'answer from B' });
  });

  it('paused worker, fencing off: the stale write commits and split ownership is reported', async () => {
    const trace = await runScenario('paused-worker', 'script', { fencing: false });
    expect(kinds(trace)).toContain('split-ownership');
    expect(trace.finalRuns[0]).toMatchObject({ status: 'done', result: 'answer from A', lease_generation: 19 });
  });

  it('a crashed worker leaves an orphan that is reclaimed only after the lease expires', async () => {
    const trace = await runScenario('crash-orphan', 'script');
    const claims = trace.steps.filter((s) => s.actor === 'B' && s.action === 'claim');
    expect(claims[0]?.verdict).toBe('empty');
    expect(claims[1]?.outcome).toMatchObject({ rows: [{ run_id: 123, lease_generation: 19 }] });
  });

  it('the naive SELECT never reclaims an orphan', async () => {
    const trace = await runScenario('crash-orphan', 'script', { strategy: 'naive' });
    expect(trace.finalRuns[0]).toMatchObject({ status: 'running', lease_owner: 'A' });
  });

  it('heartbeats keep the run owned past its first lease', async () => {
    const trace = await runScenario('heartbeat', 'script');
    const bClaim = trace.steps.find((s) => s.actor === 'B');
    expect(bClaim?.clockSeconds).toBe(90);
    expect(bClaim?.verdict).toBe('empty');
    expect(trace.finalRuns[0]).toMatchObject({ status: 'done', lease_owner: 'A', progress: 3 });
  });

  it('a stuck worker that keeps heartbeating is reported', async () => {
    const trace = await runScenario('stuck-heartbeat', 'script');
    expect(kinds(trace)).toEqual(['stuck-while-heartbeating']);
  });

  it('durable cancel stops the run; cancel by kill is lost when another worker reclaims it', async () => {
    const durable = await runScenario('cancel-durable', 'script');
    expect(durable.finalRuns[0]).toMatchObject({ status: 'cancelled', cancel_requested: true });
    expect(kinds(durable)).toEqual([]);
    const killed = await runScenario('cancel-kill', 'script');
    expect(kinds(killed)).toEqual(['lost-cancel']);
    expect(killed.finalRuns[0]).toMatchObject({ status: 'done', lease_owner: 'B' });
  });

  it('durable cancel survives a crash: whoever reclaims the run sees the request', async () => {
    const trace = await runScenario('cancel-durable', ['A', 'A', 'A', 'cancel:123', 'crash:A', '+61', 'B', 'B', 'B']);
    expect(trace.finalRuns[0]).toMatchObject({ status: 'cancelled', lease_owner: 'B' });
    expect(kinds(trace)).toEqual([]);
  });
});

describe('determinism', () => {
  // Every scenario under every strategy, twice (~6 s alone): a loaded machine took it past the 60 s default.
  it('the same scenario and schedule give a byte-identical trace', { timeout: 240_000 }, async () => {
    for (const scenario of SCENARIOS) {
      for (const strategy of STRATEGIES) {
        const first = JSON.stringify(await runScenario(scenario.id, 'script', { strategy }, { finish: { kind: 'random', seed: 7 } }));
        const second = JSON.stringify(await runScenario(scenario.id, 'script', { strategy }, { finish: { kind: 'random', seed: 7 } }));
        expect(second, `${scenario.id} ${strategy}`).toBe(first);
      }
    }
  });
});

describe('schedules that cannot apply', () => {
  it('names the step, the worker and why', async () => {
    await expect(runScenario('race', ['A', 'C'])).rejects.toThrow(/step 2 \(C\): this scenario has no worker C/);
    await expect(runScenario('crash-orphan', ['crash:A', 'A'])).rejects.toThrow(/A cannot move: A has crashed/);
    await expect(runScenario('race', ['cancel:999'])).rejects.toThrow(/there is no run 999/);
  });
});
