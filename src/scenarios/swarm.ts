/**
 * The swarm: scenarios generated from a seed (after TigerBeetle's VOPR). One seed, a whole number, names
 * one scenario: its workers, seeded runs, lease and heartbeat, timed faults, strategy and fencing, and a
 * script of worker steps, clock moves and events. The ground truth plays many seeds on PGlite and on a
 * real PostgreSQL server and compares every step; a seed that disagrees is replayed from the seed alone
 * (`npm run sim -- swarm --seed N`).
 *
 * Pure and deterministic: everything comes from the lab's seeded generator, drawn in a fixed order, so the
 * same seed gives the same scenario on every machine. (A change to this file may give a seed another
 * scenario; a seed names a scenario for one version of the lab.)
 */
import { between, pick, seededRandom, shuffled } from '../sim/random';
import type { Fault, RunSeed, Scenario, WorkerSpec } from '../sim/types';
import { LAB_STRATEGY_IDS } from '../strategies';
import { defineScenario } from './define';

/** The largest seed: the generator's state is 32 bits. */
export const MAX_SWARM_SEED = 4_294_967_295;

const WORKER_IDS = ['A', 'B', 'C', 'D'] as const;
const LEASE_SECONDS = [15, 30, 45, 60, 90, 120] as const;
const HEARTBEAT_SECONDS = [5, 10, 15, 20, 30, 45, 60] as const;
const TENANTS = ['acme', 'globex', 'initech'] as const;
const COST_PER_CALL_CENTS = [10, 25, 40] as const;
/** A clock move's size; 0 stands for "just past the lease" (leaseSeconds + 1), the move that makes orphans. */
const CLOCK_MOVES = [1, 5, 10, 15, 20, 30, 45, 60, 90, 0] as const;

/** The scenario seed `seed` names. Throws a RangeError for a seed that is no whole number in 0…MAX_SWARM_SEED. */
export function swarmScenario(seed: number): Scenario {
  if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SWARM_SEED)
    throw new RangeError(`a swarm seed is a whole number from 0 to ${MAX_SWARM_SEED}, not ${seed}`);
  const draw = new Draw(seed);
  const workers = WORKER_IDS.slice(0, draw.between(2, 4)).map((id): WorkerSpec => ({ id }));
  const runs = seededRuns(draw);
  const leaseSeconds = draw.pick(LEASE_SECONDS);
  const heartbeatSeconds = drawHeartbeat(draw, leaseSeconds);
  // A stuck worker heartbeats without progress, so only a scenario with heartbeats can have one.
  if (heartbeatSeconds !== null && draw.chance(0.15)) draw.pick(workers).stuck = true;
  const workSteps = draw.between(1, 3);
  const maxClaimAttempts = draw.between(1, 3);
  const costPerCallCents = draw.pick(COST_PER_CALL_CENTS);
  const faults = Array.from({ length: draw.between(0, 2) }, () => drawFault(draw, workers));
  // The lab's five claims; the production queues' strategies have their own ground truth (graph-queues).
  const strategy = draw.pick(LAB_STRATEGY_IDS);
  const fencing = draw.chance(0.5);
  const script = drawScript(draw, workers, runs, leaseSeconds);
  return defineScenario({
    id: `swarm-${seed}`,
    title: `Swarm seed ${seed}`,
    summary: describeSwarm({ workers, runs, leaseSeconds, heartbeatSeconds, faults, strategy, fencing }),
    workers,
    runs,
    defaultStrategy: strategy,
    defaultFencing: fencing,
    leaseSeconds,
    heartbeatSeconds,
    workSteps,
    costPerCallCents,
    maxClaimAttempts,
    faults,
    script,
    concepts: [],
  });
}

/**
 * One to four runs with distinct ids, created in an order of their own (so the oldest is not always the
 * lowest id), at lease generations of their own. Most are pending; some are finished (a claim must pass
 * them by) or still running under a process that left before the scenario began, with a lease that
 * expires at some point (a claim that reclaims may take them once it has).
 */
function seededRuns(draw: Draw): RunSeed[] {
  const count = draw.between(1, 4);
  let nextId = draw.between(100, 900);
  const ids = Array.from({ length: count }, () => {
    const id = nextId;
    nextId += draw.between(1, 3);
    return id;
  });
  const ages = draw.shuffle(ids.map((_, index) => index));
  return ids.map((runId, index): RunSeed => {
    const run: RunSeed = { runId, createdAtSeconds: -60 * (ages[index]! + 1), leaseGeneration: draw.between(0, 30), tenant: draw.pick(TENANTS) };
    const kind = draw.between(1, 20);
    if (kind === 1) run.status = 'done';
    else if (kind === 2) run.status = 'cancelled';
    else if (kind <= 4) Object.assign(run, { status: 'running', leaseOwner: 'gone', leaseExpiresAtSeconds: draw.between(-30, 90) });
    return run;
  });
}

/** No heartbeat at all, mostly one well inside the lease, and now and then one that is not (a real misconfiguration). */
function drawHeartbeat(draw: Draw, leaseSeconds: number): number | null {
  if (draw.chance(0.3)) return null;
  const inside = HEARTBEAT_SECONDS.filter((seconds) => seconds < leaseSeconds);
  return draw.chance(0.85) ? draw.pick(inside) : draw.pick(HEARTBEAT_SECONDS);
}

function drawFault(draw: Draw, workers: readonly WorkerSpec[]): Fault {
  const worker = draw.pick(workers).id;
  const atSeconds = draw.between(0, 150);
  return draw.chance(0.6) ? { kind: 'pause', worker, atSeconds, forSeconds: draw.between(5, 150) } : { kind: 'crash', worker, atSeconds };
}

/**
 * 12 to 40 tokens: mostly worker steps, some clock moves, and now and then an event (a worker paused,
 * resumed or crashed by hand; an operator's durable cancel or kill of a run). Tokens that cannot apply
 * when their turn comes (a step of a crashed worker) are skipped when the script plays, as for every
 * scenario's script under a strategy it was not written for.
 */
function drawScript(draw: Draw, workers: readonly WorkerSpec[], runs: readonly RunSeed[], leaseSeconds: number): string[] {
  return Array.from({ length: draw.between(12, 40) }, () => {
    const roll = draw.between(1, 100);
    if (roll <= 72) return draw.pick(workers).id;
    if (roll <= 92) {
      const seconds = draw.pick(CLOCK_MOVES);
      return `+${seconds === 0 ? leaseSeconds + 1 : seconds}`;
    }
    const event = draw.pick(['pause', 'resume', 'resume', 'crash', 'cancel', 'kill'] as const);
    return event === 'cancel' || event === 'kill' ? `${event}:${draw.pick(runs).runId}` : `${event}:${draw.pick(workers).id}`;
  });
}

/** The scenario's two lines of summary: what was drawn, in the words the CLI prints. */
function describeSwarm(
  drawn: Pick<Scenario, 'workers' | 'runs' | 'leaseSeconds' | 'heartbeatSeconds' | 'faults'> & { strategy: string; fencing: boolean },
): string {
  const stuck = drawn.workers.filter((w) => w.stuck).map((w) => ` (${w.id} stuck)`);
  const heartbeat = drawn.heartbeatSeconds === null ? 'no heartbeat' : `heartbeat every ${drawn.heartbeatSeconds} s`;
  const faults = drawn.faults.length === 0 ? 'no timed faults' : drawn.faults.map(describeFault).join(', ');
  return [
    `${drawn.workers.length} workers${stuck.join('')}, ${drawn.runs.length} run${drawn.runs.length === 1 ? '' : 's'}, ${drawn.leaseSeconds} s lease, ${heartbeat}; strategy ${drawn.strategy}, fencing ${drawn.fencing ? 'on' : 'off'}.`,
    `Faults: ${faults}.`,
  ].join('\n');
}

function describeFault(fault: Fault): string {
  return fault.kind === 'pause' ? `pause ${fault.worker} at ${fault.atSeconds} s for ${fault.forSeconds} s` : `crash ${fault.worker} at ${fault.atSeconds} s`;
}

/** The seeded generator with the few shapes of draw the swarm needs. */
class Draw {
  private readonly random: () => number;

  constructor(seed: number) {
    this.random = seededRandom(seed);
  }

  /** A whole number from `low` to `high`, both included. */
  between(low: number, high: number): number {
    return between(this.random, low, high);
  }

  chance(probability: number): boolean {
    return this.random() < probability;
  }

  pick<T>(items: readonly T[]): T {
    return pick(this.random, items);
  }

  shuffle<T>(items: readonly T[]): T[] {
    return shuffled(this.random, items);
  }
}
