import { describe, expect, it } from 'vitest';
import { defineScenario } from '../../src/scenarios/define';
import { incidentDbos491 } from '../../src/scenarios/incident-dbos-491';
import { race } from '../../src/scenarios/race';
import { stuckHeartbeat } from '../../src/scenarios/stuck-heartbeat';
import type { RunRow, WorkerState } from '../../src/sim/types';
import { initialWorker, interpretOutcome, nextAction, planAction, whyCannotMove } from '../../src/sim/simulated-worker';

const owner = (over: Partial<WorkerState> = {}): WorkerState => ({
  ...initialWorker({ id: 'A' }),
  phase: 'owner',
  runId: 123,
  generation: 18,
  lastHeartbeatSeconds: 0,
  ...over,
});

const row = (over: Partial<RunRow> = {}): RunRow => ({
  run_id: 123,
  tenant: 'acme',
  status: 'running',
  lease_owner: 'A',
  lease_expires_at: '2030-01-01T15:01:00.000Z',
  lease_generation: 18,
  heartbeat_at: null,
  cancel_requested: false,
  created_at: '2030-01-01T14:58:00.000Z',
  progress: 0,
  cost_cents: 0,
  result: null,
  ...over,
});

describe('what a worker does next', () => {
  it('claims according to the strategy', () => {
    const fresh = initialWorker({ id: 'A' });
    expect(nextAction(fresh, race, { strategy: 'naive', fencing: false }, 0)).toBe('select');
    expect(nextAction({ ...fresh, phase: 'selected', runId: 123 }, race, { strategy: 'naive', fencing: false }, 0)).toBe('naive-update');
    expect(nextAction({ ...fresh, phase: 'selected', runId: 123 }, race, { strategy: 'cas', fencing: false }, 0)).toBe('cas-claim');
    expect(nextAction(fresh, race, { strategy: 'skip-locked', fencing: true }, 0)).toBe('claim');
  });

  it('heartbeats when due, works until done, then completes', () => {
    const settings = { strategy: 'skip-locked' as const, fencing: true };
    expect(nextAction(owner(), race, settings, 19)).toBe('work');
    expect(nextAction(owner(), race, settings, 20)).toBe('heartbeat');
    expect(nextAction(owner({ workDone: race.workSteps }), race, settings, 0)).toBe('complete');
    expect(nextAction(owner({ cancelSeen: true }), race, settings, 0)).toBe('cancel-ack');
    expect(nextAction({ ...owner(), id: 'A' }, stuckHeartbeat, settings, 0)).toBe('heartbeat');
  });

  it('puts the generation in every write only when fencing is on', () => {
    expect(planAction('complete', owner(), race, { strategy: 'skip-locked', fencing: true })).toMatchObject({
      statement: { id: 'complete-fenced' },
      params: [123, 18, 'answer from A'],
    });
    expect(planAction('complete', owner(), race, { strategy: 'skip-locked', fencing: false })).toMatchObject({
      statement: { id: 'complete-unfenced' },
      params: [123, 'answer from A'],
    });
    expect(planAction('heartbeat', owner(), race, { strategy: 'skip-locked', fencing: true })).toMatchObject({
      statement: { id: 'heartbeat-fenced' },
      params: [123, 'A', 18, 60],
    });
    expect(planAction('heartbeat', owner(), race, { strategy: 'skip-locked', fencing: false })).toMatchObject({
      statement: { id: 'heartbeat-unfenced' },
      params: [123, 'A', 60],
    });
    expect(planAction('work', owner(), race, { strategy: 'naive', fencing: true })).toMatchObject({
      statement: { id: 'work-fenced' },
      params: [123, 18, race.costPerCallCents],
    });
  });

  it("plans each strategy's claim from its definition", () => {
    const ready = { ...owner(), phase: 'ready' as const, runId: null, generation: null };
    expect(planAction('claim', ready, race, { strategy: 'for-update', fencing: true })).toMatchObject({
      statement: { id: 'claim-for-update' },
      params: ['A', 60],
      mode: 'claim-transaction',
    });
    expect(planAction('select', ready, race, { strategy: 'cas', fencing: true })).toMatchObject({
      statement: { id: 'naive-select' },
      params: [],
      mode: 'autocommit',
    });
    const selected = { ...ready, phase: 'selected' as const, runId: 123 };
    expect(planAction('cas-claim', selected, race, { strategy: 'cas', fencing: true })).toMatchObject({
      statement: { id: 'cas-claim' },
      params: [123, 'A', 60],
    });
    expect(planAction('commit', owner(), race, { strategy: 'skip-locked', fencing: true })).toMatchObject({
      statement: { id: 'transaction-commit' },
      params: [],
      mode: 'commit',
    });
    expect(() => planAction('claim', ready, race, { strategy: 'naive', fencing: true })).toThrow(/atomic/);
  });

  it('says why a worker cannot move', () => {
    expect(whyCannotMove(owner())).toBeNull();
    expect(whyCannotMove(owner({ paused: true }))).toMatch(/paused/);
    expect(whyCannotMove(owner({ phase: 'crashed' }))).toMatch(/crashed/);
    expect(whyCannotMove(owner({ phase: 'blocked', blockedOn: ['B'] }))).toMatch(/waiting for a row lock held by B/);
  });

  it('a wait for an advisory lock (check --db) is named as one, and forgotten once the statement answers', () => {
    const claiming = initialWorker({ id: 'B' });
    const context = { scenario: race, clockSeconds: 10, runBefore: undefined, paid: true, fencing: false };
    const waiting = interpretOutcome(claiming, 'claim', { status: 'blocked', holders: ['A'], advisory: true }, context).worker;
    expect(whyCannotMove(waiting)).toBe('B is waiting for an advisory lock held by A');
    const rowWait = interpretOutcome(claiming, 'claim', { status: 'blocked', holders: ['A'] }, context).worker;
    expect(whyCannotMove(rowWait)).toBe('B is waiting for a row lock held by A');
    const answered = interpretOutcome(waiting, 'claim', { status: 'ok', rows: [], rowCount: 0 }, context).worker;
    expect(answered).not.toHaveProperty('blockedOnAdvisory');
    expect(Object.keys(answered)).toEqual(Object.keys(claiming));
  });
});

describe('reading the database answer', () => {
  const context = { scenario: race, clockSeconds: 100, paid: true, fencing: true };

  it('a stale write that matched 0 rows is rejected and names both generations', () => {
    const result = interpretOutcome(
      owner(),
      'complete',
      { status: 'ok', rows: [], rowCount: 0 },
      { ...context, runBefore: row({ lease_generation: 19, lease_owner: 'B' }) },
    );
    expect(result.verdict).toBe('rejected');
    expect(result.worker.phase).toBe('lost-lease');
    expect(result.staleWrite).toEqual({ heldGeneration: 18, runGeneration: 19, runOwner: 'B' });
    expect(result.facts).toEqual([{ kind: 'fenced', worker: 'A', write: 'complete', run: 123, heldGeneration: 18, runGeneration: 19, runOwner: 'B' }]);
  });

  it('a stale write that committed is flagged as split ownership', () => {
    const result = interpretOutcome(
      owner(),
      'complete',
      { status: 'ok', rows: [{ status: 'done', result: 'x' }], rowCount: 1 },
      { ...context, runBefore: row({ lease_generation: 19, lease_owner: 'B' }) },
    );
    expect(result.verdict).toBe('ok');
    expect(result.worker.phase).toBe('done');
    expect(result.facts).toContainEqual({ kind: 'stale-write-committed', worker: 'A', run: 123, heldGeneration: 18, runGeneration: 19 });
  });

  it('a model call is paid for even when its write is rejected, and only once when resumed', () => {
    const rejected = interpretOutcome(owner(), 'work', { status: 'ok', rows: [], rowCount: 0 }, { ...context, runBefore: row({ lease_generation: 19 }) });
    expect(rejected.worker.callsPaid).toBe(1);
    expect(rejected.worker.costPaidCents).toBe(race.costPerCallCents);
    const resumed = interpretOutcome(
      owner(),
      'work',
      { status: 'ok', rows: [{ progress: 1, cancel_requested: false }], rowCount: 1 },
      { ...context, runBefore: row(), paid: false },
    );
    expect(resumed.worker.callsPaid).toBe(0);
  });

  it('a blocked statement leaves the worker waiting on the holders', () => {
    const result = interpretOutcome(initialWorker({ id: 'B' }), 'claim', { status: 'blocked', holders: ['A'] }, { ...context, runBefore: undefined });
    expect(result.worker.phase).toBe('blocked');
    expect(result.worker.blockedOn).toEqual(['A']);
    expect(result.worker.waitingAction).toBe('claim');
  });

  it('NOWAIT errors are retried up to the attempt limit', () => {
    const lockError = { status: 'error' as const, code: '55P03', message: 'could not obtain lock on row in relation "runs"' };
    let worker = initialWorker({ id: 'B' });
    for (let attempt = 1; attempt < race.maxClaimAttempts; attempt++) {
      worker = interpretOutcome(worker, 'claim', lockError, { ...context, runBefore: undefined }).worker;
      expect(worker.phase).toBe('ready');
    }
    expect(interpretOutcome(worker, 'claim', lockError, { ...context, runBefore: undefined }).worker.phase).toBe('gave-up');
  });
});

describe("a process's recovery lane (DBOS #491 and its fix)", () => {
  const dbos = { strategy: 'dbos', fencing: false } as const;
  const laned = (skipsActive: boolean) => ({
    ...incidentDbos491,
    workers: [
      { id: 'A', name: 'local', process: 'app' },
      { id: 'B', name: 'local', process: 'app', recovery: { skipsActive } },
      { id: 'C', name: 'local', process: 'other' },
    ],
  });
  const recovery = (over: Partial<WorkerState> = {}): WorkerState => ({ ...initialWorker({ id: 'B', name: 'local' }), ...over });
  const running = (id: string) => owner({ id, name: 'local', generation: 1 });

  it('reads, then writes by id, under the executor id its name carries, and runs what it wrote as an owner', () => {
    const scenario = laned(false);
    expect(nextAction(recovery(), scenario, dbos, 0)).toBe('recover-read');
    expect(planAction('recover-read', recovery(), scenario, dbos)).toMatchObject({
      statement: { id: 'dbos-recover-read' },
      params: ['local'],
      mode: 'autocommit',
    });
    const selected = recovery({ phase: 'selected', runId: 123 });
    // Without the fix it writes even though A, a lane of its own process, runs the run.
    expect(nextAction(selected, scenario, dbos, 0, [running('A'), selected])).toBe('recover');
    expect(planAction('recover', selected, scenario, dbos)).toMatchObject({ statement: { id: 'dbos-recover-upsert' }, params: [123, 'local'] });
    const ok = {
      status: 'ok' as const,
      rows: [{ run_id: 123, lease_generation: 2, lease_expires_at: null, cancel_requested: false, status: 'running' }],
      rowCount: 1,
    };
    const wrote = interpretOutcome(selected, 'recover', ok, { scenario, clockSeconds: 0, runBefore: row(), paid: true, fencing: false });
    expect(wrote.worker).toMatchObject({ phase: 'owner', runId: 123, generation: 2, workDone: 0 });
    expect(nextAction(wrote.worker, scenario, dbos, 0)).toBe('work');
  });

  it('with the fix, skips only a run another lane of its own process believes it owns, and sends nothing', () => {
    const scenario = laned(true);
    const selected = recovery({ phase: 'selected', runId: 123 });
    expect(nextAction(selected, scenario, dbos, 0, [running('A'), selected])).toBe('skip-active');
    // C shares the executor id but is another process: its memory is not B's. Nor is a lane that finished the run.
    expect(nextAction(selected, scenario, dbos, 0, [running('C'), selected])).toBe('recover');
    expect(nextAction(selected, scenario, dbos, 0, [{ ...running('A'), phase: 'done' }, selected])).toBe('recover');
    expect(nextAction(selected, scenario, dbos, 0)).toBe('recover');
    expect(planAction('skip-active', selected, scenario, dbos)).toMatchObject({ statement: { id: 'dbos-recover-skip-active' }, params: [], mode: 'memory' });
    const skipped = interpretOutcome(
      selected,
      'skip-active',
      { status: 'ok', rows: [], rowCount: 0 },
      { scenario, clockSeconds: 0, runBefore: row(), paid: true, fencing: false, runningLane: 'A' },
    );
    expect(skipped.worker).toMatchObject({ phase: 'no-work', runId: null });
    expect(skipped.facts).toEqual([{ kind: 'skipped-active', worker: 'B', run: 123, lane: 'A' }]);
  });

  it('finds nothing and stops, leaves a finished run as it is, and under a queue without a recovery claims as any worker', () => {
    const scenario = laned(false);
    const none = interpretOutcome(
      recovery(),
      'recover-read',
      { status: 'ok', rows: [], rowCount: 0 },
      { scenario, clockSeconds: 0, runBefore: undefined, paid: true, fencing: false },
    );
    expect(none).toMatchObject({ verdict: 'empty', worker: { phase: 'no-work' } });
    const done = {
      status: 'ok' as const,
      rows: [{ run_id: 123, lease_generation: 3, lease_expires_at: null, cancel_requested: false, status: 'done' }],
      rowCount: 1,
    };
    const finished = interpretOutcome(recovery({ phase: 'selected', runId: 123 }), 'recover', done, {
      scenario,
      clockSeconds: 0,
      runBefore: row({ status: 'done' }),
      paid: true,
      fencing: false,
    });
    expect(finished.worker).toMatchObject({ phase: 'no-work', runId: null });
    expect(finished.facts).toMatchObject([{ kind: 'recovered', runs: false, status: 'done' }]);
    expect(nextAction(recovery(), scenario, { strategy: 'skip-locked', fencing: true }, 0)).toBe('claim');
  });

  it('a lane that looks in its memory must belong to a process', () => {
    expect(() => defineScenario({ ...incidentDbos491, workers: [{ id: 'A' }, { id: 'B', recovery: { skipsActive: true } }] })).toThrow(
      /make it a lane of a process/,
    );
  });
});
