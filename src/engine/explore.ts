/**
 * The interleaving explorer: instead of one lucky schedule, every schedule, grouped by what went wrong.
 *
 * Brute force plays every complete schedule from a reset. The fast path explores each distinct state
 * once: when two schedules reach the same state (the same rows, locks, workers, clock and waits, and the
 * same memory in the anomaly checkers: the anomalies so far and what of the past they still judge by,
 * AnomalyDetector.memory) their futures are identical, so the counts below that state are computed
 * once and added for every schedule that reaches it. On top of that it does not even play most orders of
 * independent steps: when two workers' steps at a state each write only their own row (or one commits a
 * claim on rows the other does not touch) and nobody is waiting for a lock, both orders end in the same
 * state, so the second order's counts are read from the memo instead of being replayed. Counts stay
 * exact; tests check every scenario against brute force.
 */
import type { LabDatabase } from '../db/port';
import type { Exploration, ExploreProgress, OutcomeGroup } from '../sim/exploration';
import { isWorkerToken } from '../sim/schedule';
import { definitionOf } from '../sim/simulated-worker';
import { outcomeKind } from '../sim/anomalies';
import type { Anomaly, OutcomeKind, Scenario, Settings, TraceStep, WorkerId } from '../sim/types';
import { exploreSchedules, seededSchedules, Walk, type WalkMark } from './enumerate';
import { statesCounted } from './simulation';

export type { Exploration, OutcomeGroup };

export interface ExploreOptions {
  onProgress?: (progress: ExploreProgress) => void;
  /** Checked between steps: returning true stops the exploration with an ExplorationCancelled. */
  cancelled?: () => boolean;
  stuckStepLimit?: number;
  /** Fast path: give up with ExplorationTooLarge after this many distinct states. */
  maxStates?: number;
}

export class ExplorationCancelled extends Error {
  override name = 'ExplorationCancelled';
  constructor() {
    super('the exploration was cancelled');
  }
}

/** The fast path gave up: its message says what it counted past `maxStates` (states, or histories: statesCounted). */
export class ExplorationTooLarge extends Error {
  override name = 'ExplorationTooLarge';
  constructor(
    readonly maxStates: number,
    settings: Settings,
  ) {
    super(`more than ${maxStates} ${statesCounted(settings)}`);
  }

  /** Why a sample was played instead, as the report says it ("not every schedule: …"). */
  get because(): string {
    return `it has ${this.message}`;
  }
}

/** Each outcome kind in words, as a group's label and a check's report name it. */
export const OUTCOME_LABELS: Record<OutcomeKind, string> = {
  'double-claim': 'double claim',
  'duplicate-execution': 'duplicate execution',
  'duplicate-after-expiry': 'duplicate execution after lease expiry',
  'split-ownership': 'split ownership',
  'stale-write-rejected': 'stale write rejected',
  'finalized-twice': 'finalized twice',
  'lost-cancel': 'lost cancel',
  'stuck-while-heartbeating': 'stuck while heartbeating',
  'stranded-run': 'stranded run',
  'tenant-over-cap': 'tenant over cap',
};

/** The outcome of one complete schedule: which anomalies happened to which runs. */
export function outcomeOf(anomalies: readonly Anomaly[]): { key: string; label: string } {
  const parts = [...new Set(anomalies.map((a) => `${outcomeKind(a)}:${a.runId}`))].sort();
  if (parts.length === 0) return { key: 'none', label: 'no anomaly' };
  const label = parts
    .map((part) => {
      const [kind, run] = part.split(':') as [OutcomeKind, string];
      return `${OUTCOME_LABELS[kind]} of run ${run}`;
    })
    .join(' + ');
  return { key: parts.join(' '), label };
}

type Tally = Map<string, { label: string; count: number; witness: string[] }>;

function add(into: Tally, key: string, label: string, count: number, witness: string[]): void {
  const existing = into.get(key);
  if (!existing) {
    into.set(key, { label, count, witness });
    return;
  }
  existing.count += count;
  if (witness.length < existing.witness.length) existing.witness = witness;
}

function countOf(tally: Tally): number {
  let sum = 0;
  for (const group of tally.values()) sum += group.count;
  return sum;
}

function finish(tally: Tally): OutcomeGroup[] {
  return [...tally.entries()].map(([key, group]) => ({ key, ...group })).sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

/** Reports progress at most every `everyMs` milliseconds, and always the last time. */
function throttled(report: ((progress: ExploreProgress) => void) | undefined, everyMs = 50) {
  let last = Number.NEGATIVE_INFINITY;
  return (progress: ExploreProgress, force = false) => {
    if (!report) return;
    const now = performance.now();
    if (!force && now - last < everyMs) return;
    last = now;
    report(progress);
  };
}

/** Every complete schedule, each with the trace a play from a reset records. The reference the fast path is tested against. */
export async function exploreBruteForce(db: LabDatabase, scenario: Scenario, settings: Settings, options: ExploreOptions = {}): Promise<Exploration> {
  const tally: Tally = new Map();
  const report = throttled(options.onProgress);
  let total = 0;
  for await (const { schedule, trace } of exploreSchedules(db, scenario, settings, { stuckStepLimit: options.stuckStepLimit })) {
    if (options.cancelled?.()) throw new ExplorationCancelled();
    const outcome = outcomeOf(trace.anomalies);
    add(tally, outcome.key, outcome.label, 1, schedule);
    total += 1;
    report({ counted: total, statesVisited: total, fraction: 0 });
  }
  return { scenario: scenario.id, settings, coverage: 'all', method: 'brute-force', total, groups: finish(tally), statesVisited: total, seed: null };
}

/** Seeded random schedules, for scenarios too large to explore whole. Labelled as a sample. */
export async function exploreSample(
  db: LabDatabase,
  scenario: Scenario,
  settings: Settings,
  count: number,
  seed: number,
  options: ExploreOptions = {},
): Promise<Exploration> {
  const tally: Tally = new Map();
  const report = throttled(options.onProgress);
  let done = 0;
  await seededSchedules(db, scenario, settings, count, seed, {
    stuckStepLimit: options.stuckStepLimit,
    onSchedule: ({ schedule, trace }) => {
      if (options.cancelled?.()) throw new ExplorationCancelled();
      const outcome = outcomeOf(trace.anomalies);
      add(tally, outcome.key, outcome.label, 1, schedule);
      done += 1;
      report({ counted: done, statesVisited: done, fraction: done / count });
    },
  });
  return { scenario: scenario.id, settings, coverage: 'sample', method: 'sample', total: done, groups: finish(tally), statesVisited: done, seed };
}

/**
 * What a worker's step touched, when that is small enough to reason about: the rows it wrote, and which
 * worker it was. Null: it may interact with anything (it read other rows, took or waited for locks,
 * woke a waiter), so it is treated as dependent on every other step.
 */
interface Footprint {
  worker: WorkerId;
  rows: number[];
}

/** Autocommit writes addressed to one run by its id: each reads and writes that row only. */
const ROW_WRITES: ReadonlySet<string> = new Set(['heartbeat', 'work', 'complete', 'cancel-ack']);

/** Is someone waiting for a lock at this point? Then a commit or a write may wake it, and nothing is independent. */
function someoneWaits(steps: readonly TraceStep[]): boolean {
  const last = steps.at(-1);
  if (!last) return false;
  if (last.workers.some((w) => w.phase === 'blocked')) return true;
  // The operator's cancel waits from its blocked step until its resumed one.
  for (let i = steps.length - 1; i >= 0; i--) {
    const step = steps[i]!;
    if (step.action === 'cancel-request') return step.verdict === 'blocked';
  }
  return false;
}

/**
 * The footprint of worker token `token` applied at a state whose trace ends with `before` steps, given
 * the steps it added. Two steps of different workers whose footprints share no row commute: each
 * statement sees only its own row, leaves no lock behind (a commit only releases its own), and each
 * worker's next move depends on its own state and the clock, which neither changes.
 */
function footprintOf(token: string, before: readonly TraceStep[], added: readonly TraceStep[], capsTenants: boolean): Footprint | null {
  if (!isWorkerToken(token) || added.length !== 1 || someoneWaits(before)) return null;
  const step = added[0]!;
  if (step.actor !== token || step.resumed || step.verdict === 'blocked') return null;
  const touched = (rows: readonly number[]): Footprint => ({ worker: token, rows: capsTenants ? sameTenant(rows, step) : [...rows] });
  if (ROW_WRITES.has(step.action) && typeof step.params[0] === 'number') return touched([step.params[0]]);
  if (step.action === 'commit' && step.verdict === 'ok') return touched(before.at(-1)?.locks.find((lock) => lock.session === token)?.runIds ?? []);
  return null;
}

/**
 * Under a claim that caps each tenant's running runs, a write to one run changes what its tenant's count
 * holds, which the anomaly tenant-over-cap judges at every step: two orders of writes to two runs of one
 * tenant end in the same rows but may pass through a state over the cap in one order only. So each run
 * written stands for every run of its tenant.
 */
function sameTenant(rows: readonly number[], step: TraceStep): number[] {
  const tenants = new Set(step.runs.filter((run) => rows.includes(run.run_id)).map((run) => run.tenant));
  return step.runs.filter((run) => tenants.has(run.tenant)).map((run) => run.run_id);
}

function independent(a: Footprint | null, b: Footprint | null): boolean {
  if (!a || !b || a.worker === b.worker) return false;
  return !a.rows.some((row) => b.rows.includes(row));
}

interface Edge {
  /** Memo key of the state the choice leads to. */
  child: string;
  footprint: Footprint | null;
}

interface Solved {
  tally: Tally;
  /** Every choice taken from this state, played or inferred. */
  edges: Map<string, Edge>;
}

/** Where a state was entered from: its parent's edges so far and the choice that led here. */
interface Arrival {
  siblings: Map<string, Edge>;
  via: string;
  viaFootprint: Footprint | null;
}

/** Every complete schedule, counted exactly, visiting each distinct state once. */
export async function exploreFast(db: LabDatabase, scenario: Scenario, settings: Settings, options: ExploreOptions = {}): Promise<Exploration> {
  // Back to a state by its mark: on PGlite the database's calls again, not the simulation's work (Walk.mark).
  const walk = new Walk(db, scenario, settings, options.stuckStepLimit, { marks: true });
  const capsTenants = definitionOf(settings).tenantCap !== undefined;
  const memo = new Map<string, Solved>();
  const report = throttled(options.onProgress);
  const maxStates = options.maxStates ?? Number.POSITIVE_INFINITY;
  let counted = 0;
  let states = 0;
  let covered = 0;
  let played = 0;
  let inferred = 0;

  const progress = () => ({ counted, statesVisited: states, fraction: Math.min(1, covered) });
  const apply = async (token: string): Promise<boolean> => {
    if (!(await walk.tryApply(token))) return false;
    played += 1;
    return true;
  };
  const restore = async (prefix: string[], mark: WalkMark): Promise<void> => {
    await walk.restoreMark(mark);
    // The database plays the prefix's statements again, as a replay would.
    played += prefix.length;
  };
  const leaf = async (tally: Tally) => {
    await walk.sim.conclude();
    const outcome = outcomeOf(walk.sim.trace().anomalies);
    add(tally, outcome.key, outcome.label, 1, []);
    counted += 1;
  };
  const merge = (into: Tally, token: string, below: Tally) => {
    for (const [groupKey, group] of below) add(into, groupKey, group.label, group.count, [token, ...group.witness]);
  };

  /** The counts below the state after `prefix` (where the simulation stands now). `share`: its weight in the progress. */
  const solve = async (prefix: string[], lane: number, share: number, arrival: Arrival | null): Promise<{ key: string; solved: Solved }> => {
    if (options.cancelled?.()) throw new ExplorationCancelled();
    // The state decides what can happen next; the checkers' memory, what they will make of it.
    const key = `${walk.stateKey(lane)}|${walk.sim.anomalyMemory()}`;
    const known = memo.get(key);
    if (known) {
      counted += countOf(known.tally);
      covered += share;
      report(progress());
      return { key, solved: known };
    }
    states += 1;
    if (states > maxStates) throw new ExplorationTooLarge(maxStates, settings);
    const solved: Solved = { tally: new Map(), edges: new Map() };
    let choices = walk.choices(lane);
    let laneHere = lane;
    if (choices.length === 0) {
      await leaf(solved.tally);
      covered += share;
    }
    let atPrefix = true;
    const here = walk.mark();
    while (choices.length > 0) {
      let anyApplied = false;
      const part = share / choices.length;
      for (const choice of choices) {
        const known = inferFromSibling(choice.token, arrival);
        if (known) {
          anyApplied = true;
          inferred += 1;
          solved.edges.set(choice.token, known.edge);
          merge(solved.tally, choice.token, known.below.tally);
          counted += countOf(known.below.tally);
          covered += part;
          continue;
        }
        if (!atPrefix) await restore(prefix, here);
        atPrefix = true;
        const before = walk.sim.trace().steps.length;
        if (!(await apply(choice.token))) {
          covered += part;
          continue;
        }
        anyApplied = true;
        atPrefix = false;
        const after = walk.sim.trace().steps;
        const footprint = footprintOf(choice.token, after.slice(0, before), after.slice(before), capsTenants);
        const below = await solve([...prefix, choice.token], choice.lane, part, { siblings: solved.edges, via: choice.token, viaFootprint: footprint });
        solved.edges.set(choice.token, { child: below.key, footprint });
        merge(solved.tally, choice.token, below.solved.tally);
      }
      // Nothing applied, so the simulation still stands at the prefix.
      if (anyApplied || !walk.onlyTheLaneIsLeft(laneHere)) break;
      // Nobody can move and the next environment token cannot apply: it is dropped from the lane.
      laneHere += 1;
      choices = walk.choices(laneHere);
      if (choices.length === 0) await leaf(solved.tally);
    }
    memo.set(key, solved);
    report(progress());
    return { key, solved };
  };

  /**
   * At state S·b (arrived at by b from S), the choice a leads to S·b·a. When a was taken from S before b,
   * and a and b are independent at S, that is the state S·a·b, already solved: no need to play it.
   */
  const inferFromSibling = (token: string, arrival: Arrival | null): { edge: Edge; below: Solved } | null => {
    if (!arrival) return null;
    const sibling = arrival.siblings.get(token);
    if (!sibling || !independent(sibling.footprint, arrival.viaFootprint)) return null;
    const across = memo.get(sibling.child)?.edges.get(arrival.via);
    const below = across && memo.get(across.child);
    if (!across || !below) return null;
    return { edge: { child: across.child, footprint: sibling.footprint }, below };
  };

  await walk.restore([]);
  const root = await solve([], 0, 1, null);
  const groups = finish(root.solved.tally);
  covered = 1;
  report(progress(), true);
  return {
    scenario: scenario.id,
    settings,
    coverage: 'all',
    method: 'fast',
    total: countOf(root.solved.tally),
    groups,
    statesVisited: states,
    seed: null,
    stepsPlayed: played,
    stepsInferred: inferred,
  };
}

/** Where the lab stops exploring every schedule and samples instead (see README: fast path state counts). */
export const EXHAUSTIVE_STATE_LIMIT = 3000;
export const SAMPLE_SIZE = 300;
export const SAMPLE_SEED = 1;

/**
 * What the app runs: every schedule with the fast path while the scenario has at most `maxStates`
 * distinct states, otherwise a seeded sample of `sampleSize` schedules, labelled as such.
 */
export async function exploreForLab(
  db: LabDatabase,
  scenario: Scenario,
  settings: Settings,
  options: ExploreOptions & { sampleSize?: number; seed?: number } = {},
): Promise<Exploration> {
  const maxStates = options.maxStates ?? EXHAUSTIVE_STATE_LIMIT;
  let because: string;
  try {
    return await exploreFast(db, scenario, settings, { ...options, maxStates });
  } catch (error) {
    if (!(error instanceof ExplorationTooLarge)) throw error;
    because = error.because;
  }
  const sampled = await exploreSample(db, scenario, settings, options.sampleSize ?? SAMPLE_SIZE, options.seed ?? SAMPLE_SEED, options);
  return { ...sampled, sampledBecause: because };
}
