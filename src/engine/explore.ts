/**
 * The interleaving explorer: instead of one lucky schedule, every schedule, grouped by what went wrong.
 *
 * Brute force plays every complete schedule from a reset. The fast path explores each distinct state
 * once: when two schedules reach the same state (the same rows, locks, workers, clock and the same
 * history of anomalies so far) their futures are identical, so the counts below that state are computed
 * once and added for every schedule that reaches it. Steps of different workers that touch different
 * rows commute, so their orders meet in one state: that is where the saving comes from. Counts stay
 * exact; tests check them against brute force.
 */
import type { LabDatabase } from '../db/port';
import { detectAnomalies, STUCK_HEARTBEATS } from '../sim/anomalies';
import type { Anomaly, Scenario, Settings, Trace, TraceStep } from '../sim/types';
import { enumerateSchedules, seededSchedules, Walk } from './enumerate';

export interface OutcomeGroup {
  /** Stable id of the outcome: the anomaly kinds and runs, sorted. */
  key: string;
  /** Plain words: "duplicate execution of run 123". */
  label: string;
  /** How many schedules end this way. */
  count: number;
  /** A shortest schedule that ends this way (first in exploration order among the shortest). */
  witness: string[];
}

export interface Exploration {
  scenario: string;
  settings: Settings;
  /** 'all': every schedule; 'sample': seeded random schedules only. */
  coverage: 'all' | 'sample';
  method: 'brute-force' | 'fast' | 'sample';
  total: number;
  groups: OutcomeGroup[];
  /** Distinct states the fast path visited (brute force: schedules played). */
  statesVisited: number;
  /** Seed of the sample, when coverage is 'sample'. */
  seed: number | null;
}

export interface ExploreProgress {
  /** Schedules counted so far. */
  counted: number;
  statesVisited: number;
}

export interface ExploreOptions {
  onProgress?: (progress: ExploreProgress) => void;
  /** Checked between steps: returning true stops the exploration with an Error('cancelled'). */
  cancelled?: () => boolean;
  stuckStepLimit?: number;
}

const KIND_LABELS: Record<Anomaly['kind'], string> = {
  'duplicate-execution': 'duplicate execution',
  'split-ownership': 'split ownership',
  'stale-write-rejected': 'stale write rejected',
  'lost-cancel': 'lost cancel',
  'stuck-while-heartbeating': 'stuck while heartbeating',
};

/** The outcome of one complete schedule: which anomalies happened to which runs. */
export function outcomeOf(anomalies: readonly Anomaly[]): { key: string; label: string } {
  const parts = [...new Set(anomalies.map((a) => `${a.kind}:${a.runId}`))].sort();
  if (parts.length === 0) return { key: 'none', label: 'no anomaly' };
  const label = parts
    .map((part) => {
      const [kind, run] = part.split(':') as [Anomaly['kind'], string];
      return `${KIND_LABELS[kind]} of run ${run}`;
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

function finish(tally: Tally): OutcomeGroup[] {
  return [...tally.entries()]
    .map(([key, group]) => ({ key, ...group }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
}

function tallyTraces(traces: { schedule: string[]; trace: Trace }[]): { groups: OutcomeGroup[]; total: number } {
  const tally: Tally = new Map();
  for (const { schedule, trace } of traces) {
    const outcome = outcomeOf(trace.anomalies);
    add(tally, outcome.key, outcome.label, 1, schedule);
  }
  return { groups: finish(tally), total: traces.length };
}

/** Every complete schedule, each played from a reset. The reference the fast path is tested against. */
export async function exploreBruteForce(db: LabDatabase, scenario: Scenario, settings: Settings, options: ExploreOptions = {}): Promise<Exploration> {
  const { schedules } = await enumerateSchedules(db, scenario, settings, { stuckStepLimit: options.stuckStepLimit });
  const { groups, total } = tallyTraces(schedules);
  return { scenario: scenario.id, settings, coverage: 'all', method: 'brute-force', total, groups, statesVisited: total, seed: null };
}

/** Seeded random schedules, for scenarios too large to explore whole. Labelled as a sample. */
export async function exploreSample(db: LabDatabase, scenario: Scenario, settings: Settings, count: number, seed: number, options: ExploreOptions = {}): Promise<Exploration> {
  const schedules = await seededSchedules(db, scenario, settings, count, seed, { stuckStepLimit: options.stuckStepLimit });
  const { groups, total } = tallyTraces(schedules);
  return { scenario: scenario.id, settings, coverage: 'sample', method: 'sample', total, groups, statesVisited: total, seed };
}

/**
 * What the anomaly checkers still need from the past to judge the future: which runs were cancelled,
 * which workers took a run after its cancel, how long each heartbeat streak is, and the anomalies so far.
 */
function historyKey(steps: readonly TraceStep[]): string {
  const cancelled = new Set<number>();
  const claimedAfterCancel = new Set<string>();
  const streaks = new Map<string, number>();
  for (const step of steps) {
    if ((step.action === 'cancel-request' || step.action === 'kill') && step.runId !== null) cancelled.add(step.runId);
    if (step.actor.length === 1 && step.runId !== null && cancelled.has(step.runId) && ['claim', 'naive-update', 'cas-claim', 'select'].includes(step.action)) {
      claimedAfterCancel.add(`${step.actor}:${step.runId}`);
    }
    const streakKey = `${step.actor}:${step.runId}`;
    if (step.action === 'heartbeat' && step.verdict === 'ok') streaks.set(streakKey, Math.min(STUCK_HEARTBEATS, (streaks.get(streakKey) ?? 0) + 1));
    else if (step.action === 'work' && step.verdict === 'ok') streaks.delete(streakKey);
  }
  return JSON.stringify([[...cancelled].sort(), [...claimedAfterCancel].sort(), [...streaks.entries()].sort(), outcomeOf(detectAnomalies(steps)).key]);
}

/** Every complete schedule, counted exactly, visiting each distinct state once. */
export async function exploreFast(db: LabDatabase, scenario: Scenario, settings: Settings, options: ExploreOptions = {}): Promise<Exploration> {
  const walk = new Walk(db, scenario, settings, options.stuckStepLimit);
  const memo = new Map<string, Tally>();
  let counted = 0;

  const solve = async (prefix: string[], lane: number): Promise<Tally> => {
    if (options.cancelled?.()) throw new Error('cancelled');
    const key = `${lane}|${walk.budgetKey()}|${walk.sim.stateKey()}|${historyKey(walk.sim.trace().steps)}`;
    const known = memo.get(key);
    if (known) {
      counted += [...known.values()].reduce((sum, group) => sum + group.count, 0);
      return known;
    }
    const tally: Tally = new Map();
    let choices = walk.choices(lane);
    let laneHere = lane;
    if (choices.length === 0) {
      const outcome = outcomeOf(walk.sim.trace().anomalies);
      add(tally, outcome.key, outcome.label, 1, []);
      counted += 1;
    }
    let atPrefix = true;
    while (choices.length > 0) {
      let anyApplied = false;
      for (const choice of choices) {
        if (!atPrefix) await walk.restore(prefix);
        atPrefix = true;
        if (!(await walk.tryApply(choice.token))) continue;
        anyApplied = true;
        atPrefix = false;
        const below = await solve([...prefix, choice.token], choice.lane);
        for (const [groupKey, group] of below) add(tally, groupKey, group.label, group.count, [choice.token, ...group.witness]);
      }
      // Nothing applied, so the simulation still stands at the prefix.
      if (anyApplied || !walk.onlyTheLaneIsLeft(laneHere)) break;
      // Nobody can move and the next environment token cannot apply: it is dropped from the lane.
      laneHere += 1;
      choices = walk.choices(laneHere);
      if (choices.length === 0) {
        const outcome = outcomeOf(walk.sim.trace().anomalies);
        add(tally, outcome.key, outcome.label, 1, []);
        counted += 1;
      }
    }
    memo.set(key, tally);
    options.onProgress?.({ counted, statesVisited: memo.size });
    return tally;
  };

  await walk.restore([]);
  const root = await solve([], 0);
  const groups = finish(root);
  return {
    scenario: scenario.id,
    settings,
    coverage: 'all',
    method: 'fast',
    total: groups.reduce((sum, group) => sum + group.count, 0),
    groups,
    statesVisited: memo.size,
    seed: null,
  };
}
