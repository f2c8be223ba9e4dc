/**
 * Waiters woken by one commit, as a real server lets them on (issue 33, defect 1), without a server: PGlite
 * underneath, and a port that answers wakeOrder (and, where a case needs it, one retry) as a server did.
 * In three-workers with corpus 19 (its UPDATE waits, then matches no row), B and C both wait for A's run 123;
 * A commits; the server may let C in first, and then B waits for C until C's transaction ends.
 */
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { claimStrategyFromFile } from '../../src/cli/check';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import type { LabDatabase, SessionId, WakeOrder } from '../../src/db/port';
import { Walk } from '../../src/engine/enumerate';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import type { Settings, StatementOutcome } from '../../src/sim/types';

const CORPUS_19 = join(__dirname, '../ground-truth/claim-corpus/19-cte-no-lock-recheck-in-update.sql');
const scenario = findScenario('three-workers')!;
let pglite: PGliteLab;
let settings: Settings;

beforeAll(async () => {
  pglite = await bootLabDatabase();
  const { definition } = await claimStrategyFromFile(CORPUS_19);
  settings = { strategy: 'skip-locked', fencing: true, definition };
}, 120_000);

/** PGlite, with a server's say in which waiter goes on first. */
function asServer(wakeOrder: (waiting: SessionId[]) => WakeOrder, retry?: (session: SessionId) => StatementOutcome | null): LabDatabase {
  return {
    kind: 'postgres',
    reset: (seedJson) => pglite.reset(seedJson),
    execute: (session, request) => pglite.execute(session, request),
    executeClaim: (session, request) => pglite.executeClaim(session, request),
    retryBlocked: async (session) => retry?.(session) ?? pglite.retryBlocked(session),
    wakeOrder: async (waiting) => wakeOrder(waiting),
    commit: (session) => pglite.commit(session),
    crash: (session) => pglite.crash(session),
    runs: () => pglite.runs(),
    locks: () => pglite.locks(),
    takeEngineFact: () => pglite.takeEngineFact(),
    close: async () => undefined,
  };
}

const resumed = (sim: Simulation) =>
  sim
    .trace()
    .steps.filter((step) => step.resumed)
    .map((step) => `${step.actor}:${step.verdict}`);

describe('waiters woken by one commit, on a server', () => {
  it('are collected in the order the server let them on: C before B', async () => {
    const sim = new Simulation(
      asServer((waiting) => ({ order: [...waiting].reverse(), overtaken: false })),
      scenario,
      settings,
    );
    await sim.reset();
    for (const token of ['A', 'B', 'C', 'A']) await sim.apply(token);
    expect(resumed(sim)).toEqual(['C:empty', 'B:empty']);
    expect(sim.movable()).toEqual(['A', 'B', 'C']);
  });

  it('one still waiting for a waiter that went on and ended its transaction goes on in the same step (it was left waiting, and A then could not move)', async () => {
    let heldBack = false;
    const sim = new Simulation(
      asServer(
        (waiting) => ({ order: waiting, overtaken: false }),
        // The server let C take the row: B, asked first, still waits for C, until C's transaction ends.
        (session) => {
          if (session !== 'B' || heldBack) return null;
          heldBack = true;
          return { status: 'blocked', holders: ['C'] };
        },
      ),
      scenario,
      settings,
    );
    await sim.reset();
    for (const token of ['A', 'B', 'C', 'A']) await sim.apply(token);
    expect(heldBack).toBe(true);
    expect(resumed(sim)).toEqual(['C:empty', 'B:empty']);
    expect(sim.workerStates().map((worker) => worker.phase)).not.toContain('blocked');
    await sim.apply('A');
    expect(sim.trace().steps.at(-1)).toMatchObject({ actor: 'A', action: 'work', verdict: 'ok' });
  });
});

describe('a search over schedules on a server (Walk)', () => {
  it('plays a step again where the server let a younger waiter in first, and keeps the play where it did not', async () => {
    let plays = 0;
    const walk = new Walk(
      asServer((waiting) => {
        plays += 1;
        return { order: waiting, overtaken: plays <= 2 };
      }),
      scenario,
      settings,
    );
    await walk.restore(['A', 'B', 'C']);
    expect(await walk.tryApply('A')).toBe(true);
    expect(plays).toBe(3);
    expect(walk.sim.overtaken()).toBe(false);
    expect(walk.applied()).toEqual(['A', 'B', 'C', 'A']);
    expect(resumed(walk.sim)).toEqual(['B:empty', 'C:empty']);
  });

  it('stops, naming the schedule, when the server never lets them on oldest first', async () => {
    const walk = new Walk(
      asServer((waiting) => ({ order: waiting, overtaken: true })),
      scenario,
      settings,
    );
    await walk.restore(['A', 'B', 'C']);
    await expect(walk.tryApply('A')).rejects.toThrow(/^schedule A,B,C,A: in 40 plays the server never let/);
  });

  it('a schedule that no longer plays as it did names itself (it said only "A cannot move: …")', async () => {
    const walk = new Walk(pglite, scenario, settings);
    await expect(walk.restore(['A', 'B', 'B'])).rejects.toThrow(/^schedule A,B,B did not play again as it played before: B cannot move: B is waiting/);
  });
});
