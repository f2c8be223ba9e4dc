/**
 * The worker's retry on 40001 above READ COMMITTED, as pure decisions: every statement of the claim runs in
 * its explicit transaction; a failed one leaves the worker `aborted`, its next step is a ROLLBACK of its
 * own, and it claims again, up to the scenario's attempts; a COMMIT that fails needs no rollback. At READ
 * COMMITTED nothing of this exists (the plans are today's).
 */
import { describe, expect, it } from 'vitest';
import { race } from '../../src/scenarios/race';
import { initialWorker, interpretOutcome, nextAction, planAction } from '../../src/sim/simulated-worker';
import type { Settings, StatementOutcome, WorkerState } from '../../src/sim/types';

const SERIALIZATION_FAILURE: StatementOutcome = { status: 'error', code: '40001', message: 'could not serialize access due to concurrent update' };
const repeatable: Settings = { strategy: 'naive', fencing: false, isolation: 'repeatable-read' };
const context = { scenario: race, clockSeconds: 0, runBefore: undefined, paid: true, fencing: false, isolation: 'repeatable-read' as const };

describe('a claim transaction above READ COMMITTED', () => {
  it('runs every statement of the claim in the explicit transaction; READ COMMITTED keeps its autocommit steps', () => {
    const ready = initialWorker({ id: 'B' });
    const selected: WorkerState = { ...ready, phase: 'selected', runId: 123 };
    expect(planAction('select', ready, race, repeatable).mode).toBe('transaction');
    expect(planAction('naive-update', selected, race, repeatable).mode).toBe('transaction');
    expect(planAction('claim', ready, race, { ...repeatable, strategy: 'skip-locked' }).mode).toBe('transaction');
    const readCommitted: Settings = { strategy: 'naive', fencing: false };
    expect(planAction('select', ready, race, readCommitted).mode).toBe('autocommit');
    expect(planAction('naive-update', selected, race, readCommitted).mode).toBe('autocommit');
    expect(planAction('claim', ready, race, { ...readCommitted, strategy: 'skip-locked' }).mode).toBe('claim-transaction');
  });

  it('an UPDATE that claimed keeps the transaction open: the worker commits at its next step', () => {
    const selected: WorkerState = { ...initialWorker({ id: 'A' }), phase: 'selected', runId: 123 };
    const claimed: StatementOutcome = {
      status: 'ok',
      rows: [{ run_id: 123, lease_generation: 18, lease_expires_at: null, cancel_requested: false }],
      rowCount: 1,
    };
    const { worker } = interpretOutcome(selected, 'naive-update', claimed, context);
    expect(worker.phase).toBe('in-transaction');
    expect(nextAction(worker, race, repeatable, 0)).toBe('commit');
  });

  it('40001: aborted, a ROLLBACK step, then the claim again; the third failure gives up', () => {
    let worker: WorkerState = { ...initialWorker({ id: 'B' }), phase: 'selected', runId: 123 };
    for (let attempt = 1; attempt <= race.maxClaimAttempts; attempt++) {
      const failed = interpretOutcome(worker, 'naive-update', SERIALIZATION_FAILURE, context);
      expect(failed.verdict).toBe('error');
      expect(failed.worker).toMatchObject({ phase: 'aborted', runId: null, claimAttempts: attempt });
      expect(nextAction(failed.worker, race, repeatable, 0)).toBe('rollback');
      expect(planAction('rollback', failed.worker, race, repeatable)).toMatchObject({ mode: 'rollback', statement: { id: 'transaction-rollback' } });
      const rolledBack = interpretOutcome(failed.worker, 'rollback', { status: 'ok', rows: [], rowCount: 0 }, context);
      const last = attempt === race.maxClaimAttempts;
      expect(rolledBack.worker.phase).toBe(last ? 'gave-up' : 'ready');
      expect(rolledBack.facts).toEqual([{ kind: 'rolled-back', worker: 'B', attempts: attempt, maxAttempts: race.maxClaimAttempts, again: !last }]);
      worker = { ...rolledBack.worker, phase: 'selected', runId: 123 };
    }
  });

  it('a COMMIT that fails 40001 has ended the transaction itself: the worker begins again without a rollback step', () => {
    const open: WorkerState = { ...initialWorker({ id: 'A' }), phase: 'in-transaction', runId: 123, generation: 18 };
    const { worker, facts } = interpretOutcome(open, 'commit', SERIALIZATION_FAILURE, { ...context, isolation: 'serializable' });
    expect(worker).toMatchObject({ phase: 'ready', runId: null, generation: null, claimAttempts: 1 });
    expect(facts).toMatchObject([{ kind: 'transaction-failed', worker: 'A', statement: 'COMMIT', isolation: 'serializable', attempts: 1, again: true }]);
  });
});
