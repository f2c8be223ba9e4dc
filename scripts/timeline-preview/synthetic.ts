/**
 * A long, plausible trace without a database (dev only): workers take turns claiming, committing,
 * working and completing runs, the clock moves every few steps, and now and then a lock wait happens.
 * For measuring how the timeline copes with thousands of steps.
 */
import { clockIso } from '../../src/sim/clock';
import { initialWorker } from '../../src/sim/simulated-worker';
import type { RunRow, Trace, TraceStep, Verdict, WorkerState } from '../../src/sim/types';

const CYCLE = ['claim', 'commit', 'work', 'heartbeat', 'work', 'complete'] as const;

function worker(id: string, over: Partial<WorkerState> = {}): WorkerState {
  return { ...initialWorker({ id }), ...over };
}

export function syntheticTrace(length: number, workerIds: readonly string[] = ['A', 'B', 'C']): Trace {
  const steps: TraceStep[] = [];
  const states = new Map(workerIds.map((id) => [id, worker(id)]));
  const progress = new Map(workerIds.map((id) => [id, 0]));
  const runs = new Map<number, RunRow>();
  let nextRun = 1;
  let clock = 0;
  for (let index = 0; index < length; index++) {
    if (index % 7 === 6) clock += 10;
    const id = workerIds[index % workerIds.length]!;
    const at = progress.get(id)!;
    const action = CYCLE[at % CYCLE.length]!;
    progress.set(id, at + 1);
    let state = states.get(id)!;
    let verdict: Verdict = 'ok';
    if (action === 'claim') {
      const runId = nextRun++;
      state = worker(id, { phase: 'in-transaction', runId, generation: 1, leaseExpiresAtSeconds: clock + 60 });
    } else if (action === 'commit') {
      state = { ...state, phase: 'owner' };
      runs.set(state.runId!, runRow(state.runId!, id, clock + 60));
    } else if (action === 'heartbeat') {
      runs.set(state.runId!, runRow(state.runId!, id, clock + 60));
    } else if (action === 'complete') {
      runs.set(state.runId!, { ...runRow(state.runId!, id, clock + 60), status: 'done' });
      state = { ...state, phase: 'done' };
      if (index % 5 === 0) verdict = 'rejected';
    }
    states.set(id, state);
    steps.push({
      index,
      token: id,
      tokenIndex: index,
      actor: id,
      action,
      sqlId: null,
      sql: `-- ${action}\nSELECT 1`,
      params: state.runId === null ? [] : [state.runId],
      outcome: { status: 'ok', rows: [], rowCount: verdict === 'ok' ? 1 : 0 },
      verdict,
      runId: state.runId,
      clockSeconds: clock,
      facts: [],
      note: `${id} ${action}`,
      engineFact: null,
      engineNote: null,
      resumed: false,
      staleWrite: null,
      workers: [...states.values()].map((w) => ({ ...w })),
      // Only the runs in play: a real trace snapshots the whole (small) table.
      runs: state.runId === null || !runs.has(state.runId) ? [] : [runs.get(state.runId)!],
      locks: [],
      anomalies: [],
    });
    // A finished worker starts over.
    if (state.phase === 'done') states.set(id, worker(id));
  }
  return { scenario: 'synthetic', settings: { strategy: 'skip-locked', fencing: true }, schedule: [], steps, anomalies: [], finalRuns: [], database: 'pglite' };
}

function runRow(runId: number, owner: string, expires: number): RunRow {
  return {
    run_id: runId,
    tenant: 'acme',
    status: 'running',
    lease_owner: owner,
    lease_expires_at: clockIso(expires),
    lease_generation: 1,
    heartbeat_at: null,
    cancel_requested: false,
    created_at: clockIso(0),
    progress: 0,
    cost_cents: 0,
    result: null,
  };
}
