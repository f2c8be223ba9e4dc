/**
 * One schedule's trace on PGlite against the same schedule on another database (a real PostgreSQL
 * server), step by step: what a learner can see must be the same on both, and where it is not, the answer
 * says exactly where. The ground-truth tests (tests/ground-truth/differential.ts) and the CLI's swarm
 * (`npm run sim -- swarm --seed N --db …`) compare through this one module.
 */
import type { LabDatabase } from '../db/port';
import type { Scenario, Settings, Trace, TraceStep } from '../sim/types';
import { type RefusedToken, replay } from './replay';

/** What a learner can see of a step; the same schedule must show the same on both databases. */
function observable(step: TraceStep) {
  const outcome = step.outcome;
  return {
    token: step.token,
    actor: step.actor,
    action: step.action,
    sqlId: step.sqlId,
    params: step.params,
    resumed: step.resumed,
    clockSeconds: step.clockSeconds,
    runId: step.runId,
    verdict: step.verdict,
    status: outcome?.status ?? null,
    blocked: outcome?.status === 'blocked',
    rows: outcome?.status === 'ok' ? outcome.rows : null,
    rowCount: outcome?.status === 'ok' ? outcome.rowCount : null,
    code: outcome?.status === 'error' ? outcome.code : null,
    runs: step.runs,
    locks: step.locks,
    // What the checkers knew after this step: each anomaly raised at the same step on both databases.
    anomalies: step.anomalies,
  };
}

/**
 * Details that may differ without changing the lesson: the server's wording of an error, and whom a
 * waiter is said to wait for (a real server names the session ahead of it in the lock queue, PGlite the
 * session that holds the row). Compared and reported, but not failed.
 */
function detail(step: TraceStep) {
  const outcome = step.outcome;
  return {
    holders: outcome?.status === 'blocked' ? outcome.holders : null,
    message: outcome?.status === 'error' ? outcome.message : null,
  };
}

export interface Divergence {
  scenario: string;
  settings: Settings;
  schedule: string[];
  /** Where the two first differ: a step index, a token that applied on one side only, or the final table. */
  where: string;
  pglite: unknown;
  postgres: unknown;
}

export interface PlayedTrace {
  trace: Trace;
  /** A token the other database applied that this one refused (the worker could not move here). */
  refused: RefusedToken | null;
}

/** The schedule from a reset, token by token, stopping at a token that cannot apply here. */
export async function playUntilRefused(db: LabDatabase, scenario: Scenario, settings: Settings, schedule: readonly string[]): Promise<PlayedTrace> {
  const { sim, refused } = await replay(db, { scenario, settings, schedule }, { onInapplicable: 'stop' });
  return { trace: sim.trace(), refused: refused[0] ?? null };
}

/**
 * How often a schedule whose commit wakes several waiting statements at once is played on the server
 * before a difference counts. Those waiters then race for the row on a real server: usually the first
 * to have waited wins (what the engine assumes), but the operating system decides. A rare loss is the
 * server's nondeterminism, not a divergence; never matching PGlite's trace is a divergence.
 */
const RACE_PLAYS = 8;

export interface ScheduleComparison {
  /** The first difference a learner would see, or null. */
  divergence: Divergence | null;
  /** The first difference in blocked-on holders or error wording only (reported, not failed). */
  detail: Divergence | null;
  /** The schedule woke several waiters at once and matched only on a later play (see RACE_PLAYS). */
  raced: boolean;
  /** Plays on the server it took to match (or, with a divergence, the plays made). */
  plays: number;
}

/**
 * Plays the schedule on `lab` and compares it with its PGlite trace, replaying a schedule whose waiters race
 * up to `racePlays` times in all (the swarm, whose generated schedules wake three or four waiters at once,
 * allows more: see tests/ground-truth/swarm.test.ts).
 */
export async function compareSchedule(
  lab: LabDatabase,
  scenario: Scenario,
  settings: Settings,
  schedule: string[],
  pglite: Trace,
  racePlays = RACE_PLAYS,
): Promise<ScheduleComparison> {
  const plays = wakesSeveralWaiters(pglite) ? racePlays : 1;
  let result = compareTraces(pglite, await playUntilRefused(lab, scenario, settings, schedule), scenario, settings, schedule);
  for (let play = 1; play < plays && result.divergence; play++) {
    result = compareTraces(pglite, await playUntilRefused(lab, scenario, settings, schedule), scenario, settings, schedule);
    if (!result.divergence) return { ...result, raced: true, plays: play + 1 };
  }
  return { ...result, raced: false, plays: result.divergence ? plays : 1 };
}

/** Whether one transaction's end woke two or more waiting statements at once (see RACE_PLAYS). */
export function wakesSeveralWaiters(trace: Trace): boolean {
  const waiting = new Set<string>();
  for (const step of trace.steps) {
    if (step.resumed) waiting.delete(step.actor);
    else if (step.verdict === 'blocked') waiting.add(step.actor);
    const endsTransaction = step.action === 'commit' || step.action === 'crash' || step.action === 'kill';
    if (endsTransaction && waiting.size >= 2) return true;
  }
  return false;
}

/** The first step, token, count or table where the two traces differ (and the first difference of detail). */
export function compareTraces(
  pglite: Trace,
  postgres: PlayedTrace,
  scenario: Scenario,
  settings: Settings,
  schedule: string[],
): { divergence: Divergence | null; detail: Divergence | null } {
  const at = (where: string, a: unknown, b: unknown): Divergence => ({ scenario: scenario.id, settings, schedule, where, pglite: a, postgres: b });
  const theirs = postgres.trace.steps;
  let detailDifference: Divergence | null = null;
  for (const [index, step] of pglite.steps.entries()) {
    const other = theirs[index];
    if (!other) break;
    const [a, b] = [observable(step), observable(other)];
    if (!sameData(a, b)) return { divergence: at(`step ${index + 1} (token ${step.token})`, onlyDiffering(a, b), onlyDiffering(b, a)), detail: null };
    const [da, db] = [detail(step), detail(other)];
    if (!detailDifference && !sameData(da, db)) detailDifference = at(`step ${index + 1} (token ${step.token})`, da, db);
  }
  if (postgres.refused) {
    const { index, token, reason } = postgres.refused;
    return { divergence: at(`token ${index + 1} (${token})`, 'applied', `refused: ${reason}`), detail: null };
  }
  if (pglite.steps.length !== theirs.length) {
    return { divergence: at('number of steps', pglite.steps.length, theirs.length), detail: null };
  }
  if (!sameData(pglite.finalRuns, postgres.trace.finalRuns)) {
    return { divergence: at('final runs table', pglite.finalRuns, postgres.trace.finalRuns), detail: null };
  }
  if (!sameData(pglite.anomalies, postgres.trace.anomalies)) {
    return { divergence: at('anomalies', pglite.anomalies, postgres.trace.anomalies), detail: null };
  }
  return { divergence: null, detail: detailDifference };
}

/** The fields that differ; the table only when nothing else does (it follows from the outcome otherwise). */
function onlyDiffering<T extends Record<string, unknown>>(mine: T, theirs: T): Partial<T> {
  const keys = (Object.keys(mine) as (keyof T)[]).filter((key) => !sameData(mine[key], theirs[key]));
  const shown = keys.length > 1 ? keys.filter((key) => key !== 'runs') : keys;
  const out: Partial<T> = {};
  for (const key of shown) out[key] = mine[key];
  return out;
}

/**
 * Deep equality of trace data (plain JSON: objects, arrays, strings, numbers, booleans, null), whatever
 * the order of an object's keys, as node:util's isDeepStrictEqual would say of it. (This module also runs
 * in the browser's engine layer, which imports no Node module.) Anything else is compared as JSON text.
 */
export function sameData(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, index) => sameData(item, other[index]));
  }
  if (Object.getPrototypeOf(a) !== Object.prototype) return JSON.stringify(a) === JSON.stringify(b);
  const [mine, theirs] = [a as Record<string, unknown>, b as Record<string, unknown>];
  const keys = Object.keys(mine);
  return keys.length === Object.keys(theirs).length && keys.every((key) => Object.hasOwn(theirs, key) && sameData(mine[key], theirs[key]));
}
