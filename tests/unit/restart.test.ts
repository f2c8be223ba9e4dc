/**
 * restart:A: a crashed worker starts again under its old name. Its new life has a new session and no memory
 * of the run its last life claimed, whose row still names it as owner; the state graph keeps the two lives apart.
 */
import { describe, expect, it } from 'vitest';
import { exploreBruteForce, exploreFast } from '../../src/engine/explore';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { ScheduleError } from '../../src/sim/schedule';
import type { Settings } from '../../src/sim/types';
import { join } from 'node:path';
import { projectRoot, simInProcess } from '../support/cli';
import { labDatabase, runScenario } from '../support/lab';
import { RESTARTS } from '../support/restart-scenario';

const CLAIMED_THEN_CRASHED = ['A', 'A', 'A', 'crash:A'];

describe('restart:A', () => {
  it("starts a crashed worker's new life: ready, no run, life 2, and the old run still names it", async () => {
    const trace = await runScenario('crash-orphan', [...CLAIMED_THEN_CRASHED, 'restart:A']);
    const step = trace.steps.at(-1)!;
    expect(step).toMatchObject({ action: 'restart', actor: 'A', verdict: 'event', runId: 123, sql: null });
    expect(step.facts).toEqual([{ kind: 'restarted', worker: 'A', life: 2, forgot: 123 }]);
    expect(step.workers.find((w) => w.id === 'A')).toMatchObject({ phase: 'ready', runId: null, generation: null, workDone: 0, life: 2 });
    expect(step.runs.find((run) => run.run_id === 123)).toMatchObject({ status: 'running', lease_owner: 'A' });
  });

  it('is refused, with one line saying why, unless the worker has crashed', async () => {
    await expect(runScenario('crash-orphan', ['restart:A'])).rejects.toThrow(
      new ScheduleError('step 1 (restart:A): A cannot restart: only a crashed worker starts again, and A is ready'),
    );
    await expect(runScenario('crash-orphan', ['A', 'A', 'restart:A'])).rejects.toThrow(/A cannot restart: only a crashed worker starts again, and A is owner$/);
    await expect(runScenario('crash-orphan', ['restart:C'])).rejects.toThrow(/this scenario has no worker C/);
  });

  it('its new life runs statements in a new session: it claims the run back once the lease expires, with a new generation', async () => {
    const trace = await runScenario('crash-orphan', [...CLAIMED_THEN_CRASHED, 'restart:A', '+61', 'A', 'A']);
    expect(trace.steps.at(-2)).toMatchObject({ action: 'claim', verdict: 'ok', runId: 123 });
    expect(trace.steps.at(-1)!.workers.find((w) => w.id === 'A')).toMatchObject({ phase: 'owner', runId: 123, generation: 19, life: 2 });
    expect(trace.anomalies).toEqual([]);
  });

  it('a run its dead life holds is stranded when nothing takes it back, though a worker of that name lives', async () => {
    const trace = await runScenario('crash-orphan', [...CLAIMED_THEN_CRASHED, 'restart:A', 'A', 'A', 'A'], { strategy: 'naive' });
    const stranded = trace.anomalies.find((a) => a.kind === 'stranded-run');
    expect(stranded).toMatchObject({ runId: 123, workers: ['A'] });
    expect(stranded!.message).toBe(
      "Run 123 is still running under worker A's dead life (A restarted, and life 2 knows nothing of it); nothing will reclaim it: the claim's SELECT reads only pending runs.",
    );
  });

  it("a claim someone wrote is judged the same way at the schedule's end: what A's dead life holds, it never takes back", async () => {
    const pendingOnly = join(projectRoot, 'tests/ground-truth/claim-corpus/11-skip-locked-no-expired-branch.sql');
    const schedule = [...CLAIMED_THEN_CRASHED, 'restart:A', 'A'].join(',');
    const { code, stdout } = await simInProcess(['run', 'crash-orphan', '--claim', pendingOnly, '--schedule', schedule, '--json']);
    expect(code).toBe(0);
    const { anomalies } = JSON.parse(stdout) as { anomalies: { kind: string; runId: number; message: string }[] };
    expect(anomalies).toEqual([expect.objectContaining({ kind: 'stranded-run', runId: 123, message: expect.stringMatching(/under worker A's dead life/) })]);
  });

  it('keeps the life in the state key: a restarted worker is not its first life', async () => {
    const scenario = findScenario('crash-orphan')!;
    const sim = new Simulation(await labDatabase(), scenario, { strategy: 'skip-locked', fencing: true });
    await sim.reset();
    const first = sim.stateKey();
    await sim.apply('crash:A');
    await sim.apply('restart:A');
    expect(sim.stateKey()).not.toBe(first);
    expect(sim.stateKey()).toContain('"life":2');
  });
});

describe('the explorer with restart:A in the script: the state graph counts what brute force plays', () => {
  it.for<{ settings: Settings; groups: string[] }>([
    // The pending-only SELECT never takes back what A's dead life holds, whenever A restarts.
    { settings: { strategy: 'naive', fencing: false }, groups: ['none', 'stranded-run:123'] },
    // The lease-expiry claim takes it back: A's new life claims it with the next generation.
    { settings: { strategy: 'skip-locked', fencing: true }, groups: ['none'] },
  ])('$settings.strategy, fencing $settings.fencing', { timeout: 60_000 }, async ({ settings, groups }) => {
    const db = await labDatabase();
    const brute = await exploreBruteForce(db, RESTARTS, settings);
    const fast = await exploreFast(db, RESTARTS, settings);
    const counts = (found: typeof brute.groups) => found.map((g) => [g.key, g.count]);
    expect(counts(fast.groups)).toEqual(counts(brute.groups));
    expect(fast.total).toBe(brute.total);
    expect(brute.groups.map((g) => g.key)).toEqual(groups);
  });
});
