/**
 * The production queues' strategies, played on PGlite through the whole engine: what ends a worker's
 * ownership (a heartbeat that keeps it, or none), and what each queue's completion guard lets through
 * once another worker has taken the run over and finished it. The same schedules on a real server are
 * in tests/ground-truth/graph-queues.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILT_IN_STRATEGIES, QUEUE_STRATEGY_IDS, strategyDefinition, workerStatements } from '../../src/strategies';
import type { Strategy } from '../../src/sim/types';
import { runScenario } from '../support/lab';

const root = join(__dirname, '../..');

/** Queues whose completion write checks only the id (Solid Queue before its claimed-execution guard; DBOS's, the id and not cancelled). */
const BY_ID: readonly Strategy[] = ['graphile-worker', 'oban', 'solid-queue', 'pgqueuer', 'delayed-job', 'dbos'];
/** Queues whose completion write checks the state (running, procrastinate's todo or doing, Hangfire's Processing). */
const BY_STATE: readonly Strategy[] = ['pg-boss', 'river', 'procrastinate', 'hangfire'];
/** Queues in which a running job's heartbeat keeps it owned (per process, per worker or per job). */
const HEARTBEAT_KEEPS: readonly Strategy[] = ['solid-queue', 'procrastinate', 'pgqueuer', 'hangfire'];
/** Queues with no lease: nothing ends a running job's ownership on time (DBOS: only a recovery of its executor id). */
const NO_LEASE: readonly Strategy[] = ['dbos'];
/** The queues a worker's lease running out lets another worker take a job from. */
const LEASED = QUEUE_STRATEGY_IDS.filter((id) => !NO_LEASE.includes(id));

describe('the production queue strategies', () => {
  it('are the ten queues, each citing a 40-digit commit that its claim and guard files name', () => {
    expect([...QUEUE_STRATEGY_IDS].sort()).toEqual([...BY_ID, ...BY_STATE].sort());
    for (const id of QUEUE_STRATEGY_IDS) {
      const facts = strategyDefinition(id).queue!;
      expect(facts, id).toBeDefined();
      const [repo, commit] = facts.source.split('@');
      expect(commit, id).toMatch(/^[0-9a-f]{40}$/);
      const cited = `${repo}@${commit!.slice(0, 7)}`;
      const claim = strategyDefinition(id).claim;
      if (claim.shape !== 'one-statement') throw new Error(`${id}: a queue claims in one statement`);
      expect(readFileSync(join(root, claim.claim.file!), 'utf8'), `${id}'s claim cites ${cited}`).toContain(cited);
      for (const sentence of [facts.ownershipEnds, facts.heartbeat, facts.completionGuard, facts.fencingSwitch, facts.inTheLab])
        expect(sentence.length, id).toBeGreaterThan(20);
    }
  });

  it("leave the lab's own strategies without queue facts", () => {
    const lab = BUILT_IN_STRATEGIES.filter((d) => !QUEUE_STRATEGY_IDS.includes(d.id));
    expect(lab.map((d) => d.id)).toEqual(['naive', 'cas', 'skip-locked', 'for-update', 'nowait', 'tenant-cap']);
    for (const d of lab) expect('queue' in d, d.id).toBe(false);
  });

  it('claim with FOR UPDATE SKIP LOCKED and never write a run by a generation when fencing is off', () => {
    for (const id of QUEUE_STRATEGY_IDS) {
      const definition = strategyDefinition(id);
      expect(definition.lock?.whenLocked, id).toBe('skips');
      const unfenced = [definition.heartbeat, definition.work, definition.complete, definition.cancelAck].map((pair) => pair.unfenced);
      for (const statement of unfenced) expect(statement.params, `${id} ${statement.id}`).not.toContain('generation');
      // A queue that recovers at launch brings its recovery's read, write and skip too.
      expect(workerStatements(definition).length, id).toBe(definition.recovery ? 12 : 9);
    }
  });
});

describe('when a heartbeat is due while the lease runs out (heartbeat, its script)', () => {
  // A heartbeats every 30 s through a 90 s run; B polls at 1:30, past A's first 60 s lease.
  it.for(QUEUE_STRATEGY_IDS)('%s: B takes the run over only where no heartbeat moves the expiry', async (strategy) => {
    const trace = await runScenario('heartbeat', 'script', { strategy, fencing: false }, { finish: { kind: 'round-robin' } });
    const firstClaimOfB = trace.steps.find((s) => s.actor === 'B' && s.action === 'claim')!;
    if (HEARTBEAT_KEEPS.includes(strategy) || NO_LEASE.includes(strategy)) {
      expect(firstClaimOfB.verdict).toBe('empty');
      expect(trace.anomalies.map((a) => a.kind)).toEqual([]);
    } else {
      expect(firstClaimOfB.verdict).toBe('ok');
      expect(trace.anomalies.map((a) => a.kind)).toContain('duplicate-execution');
      expect(trace.steps.find((s) => s.actor === 'A' && s.action === 'heartbeat')!.facts).toMatchObject([{ kind: 'lease-unmoved', worker: 'A' }]);
    }
  });
});

describe("a paused worker's completion after the run was taken over and finished", () => {
  // A claims and works, freezes past its lease; B reclaims, works and completes; A wakes and completes.
  const schedule = ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', 'B', '+40', 'A'];

  it.for(LEASED)("%s, fencing off: the queue's own guard decides", async (strategy) => {
    const trace = await runScenario('paused-worker', schedule, { strategy, fencing: false });
    const last = trace.steps.at(-1)!;
    expect(last).toMatchObject({ actor: 'A', action: 'complete' });
    const run = trace.finalRuns.find((r) => r.run_id === 123)!;
    if (BY_ID.includes(strategy)) {
      // The id is all it checks: A's stale completion overwrites B's result.
      expect(last.verdict).toBe('ok');
      expect(run.result).toBe('answer from A');
    } else {
      expect(last.verdict).toBe('rejected');
      expect(last.facts).toMatchObject([{ kind: 'write-missed', because: { kind: 'not-running', status: 'done' } }]);
      expect(run.result).toBe('answer from B');
    }
  });

  it.for(LEASED)("%s, fencing on: the generation rejects A's completion", async (strategy) => {
    const trace = await runScenario('paused-worker', schedule, { strategy, fencing: true });
    expect(trace.steps.at(-1)).toMatchObject({ actor: 'A', action: 'complete', verdict: 'rejected' });
    expect(trace.finalRuns.find((r) => r.run_id === 123)!.result).toBe('answer from B');
  });

  it.for(NO_LEASE)('%s: no lease runs out, so B takes nothing and the paused A completes its run', async (strategy) => {
    // B's three polls find nothing and it stops; the rest of the schedule is A's.
    const trace = await runScenario('paused-worker', ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', '+40', 'A'], { strategy, fencing: false });
    expect(trace.steps.filter((s) => s.actor === 'B').map((s) => s.verdict)).toEqual(['empty', 'empty', 'empty']);
    expect(trace.steps.at(-1)).toMatchObject({ actor: 'A', action: 'complete', verdict: 'ok' });
    expect(trace.anomalies).toEqual([]);
  });
});
