/**
 * The differential harness: play a schedule on real PostgreSQL and compare, step by step, with what the
 * same schedule did on PGlite. What a learner sees must be the same on both; where it is not, the report
 * says exactly where, and how to replay it.
 */
import { isDeepStrictEqual } from 'node:util';
import { inject } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import type { LabDatabase } from '../../src/db/port';
import { PostgresLab } from '../../src/db/postgres-lab';
import { type CoverSummary, coverStateGraph } from '../../src/engine/cover';
import { type ExploredSchedule, exploreSchedules } from '../../src/engine/enumerate';
import { Simulation } from '../../src/engine/simulation';
import { ScheduleError } from '../../src/sim/schedule';
import { type Scenario, type Settings, STRATEGIES, type Strategy, type Trace, type TraceStep } from '../../src/sim/types';
import { createDatabase } from '../support/postgres-server';

export interface Databases {
  pglite: PGliteLab;
  /** Several labs, each on its own database, so the server works on several schedules at once. */
  postgres: PostgresLab[];
  close(): Promise<void>;
}

/**
 * PGlite in this process, and `labs` fresh databases on the throwaway server, named after the test file.
 * A real server spends much of a schedule waiting (round trips, lock waits, TRUNCATE's files), so two
 * labs side by side keep it in step with PGlite, which is bound by this process's CPU. (More labs only
 * take CPU from PGlite on a 2-core machine.)
 */
export async function openDatabases(name: string, labs = 2): Promise<Databases> {
  const urls = await Promise.all(Array.from({ length: labs }, (_, i) => testDatabaseUrl(`${name}_${i}`)));
  const [pglite, ...postgres] = await Promise.all([bootLabDatabase(), ...urls.map((url) => PostgresLab.connect(url, ['A', 'B', 'C']))]);
  return {
    pglite: pglite as PGliteLab,
    postgres: postgres as PostgresLab[],
    close: async () => {
      await Promise.all([pglite.close(), ...postgres.map((lab) => lab.close())]);
    },
  };
}

export async function testDatabaseUrl(name: string): Promise<string> {
  const serverUrl = inject('postgresUrl');
  if (!serverUrl) {
    throw new Error('no PostgreSQL server for the ground-truth tests: vite.config.ts must list tests/ground-truth/global-setup.ts in test.globalSetup');
  }
  return createDatabase(serverUrl, name);
}

/** What a learner can see of a step; the same schedule must show the same on both databases. */
export function observable(step: TraceStep) {
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
export function detail(step: TraceStep) {
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

export interface Comparison {
  schedules: number;
  divergences: Divergence[];
  /** Differences in blocked-on holders or error wording only. */
  detailDifferences: Divergence[];
  /** Schedules where one commit woke several waiters and the server needed more than one play to match. */
  raced: string[][];
}

/**
 * How often a schedule whose commit wakes several waiting statements at once is played on the server
 * before a difference counts. Those waiters then race for the row on a real server: usually the first
 * to have waited wins (what the engine assumes), but the operating system decides. A rare loss is the
 * server's nondeterminism, not a divergence; never matching PGlite's trace is a divergence.
 */
const RACE_PLAYS = 8;

/**
 * Plays every schedule on the real server and compares it with its PGlite trace. The PGlite side produces
 * the next schedules while the server labs work on earlier ones.
 */
export async function compareOnPostgres(
  labs: readonly LabDatabase[],
  scenario: Scenario,
  settings: Settings,
  explored: AsyncIterable<ExploredSchedule> | Iterable<ExploredSchedule>,
  signal?: AbortSignal,
): Promise<Comparison> {
  const found: { order: number; schedule: string[]; divergence: Divergence | null; detail: Divergence | null; raced: boolean }[] = [];
  const idle = [...labs];
  const running = new Set<Promise<void>>();
  let order = 0;
  for await (const { schedule, trace } of explored) {
    // A test that timed out must not keep using the labs under the next one.
    if (signal?.aborted) break;
    while (idle.length === 0) await Promise.race(running);
    const lab = idle.pop()!;
    const at = order++;
    const job: Promise<void> = playUntilMatch(lab, scenario, settings, schedule, trace)
      .then((result) => {
        found.push({ order: at, schedule, ...result });
      })
      .finally(() => {
        idle.push(lab);
        running.delete(job);
      });
    // Its failure surfaces through the awaits below; this only keeps Node from calling it unhandled meanwhile.
    job.catch(() => undefined);
    running.add(job);
  }
  await Promise.all(running);
  // In schedule order, whichever lab finished first.
  found.sort((a, b) => a.order - b.order);
  return {
    schedules: order,
    divergences: found.flatMap((f) => (f.divergence ? [f.divergence] : [])),
    detailDifferences: found.flatMap((f) => (f.detail ? [f.detail] : [])),
    raced: found.flatMap((f) => (f.raced ? [f.schedule] : [])),
  };
}

async function playUntilMatch(lab: LabDatabase, scenario: Scenario, settings: Settings, schedule: string[], pglite: Trace) {
  const plays = wakesSeveralWaiters(pglite) ? RACE_PLAYS : 1;
  let result = compare(pglite, await replay(lab, scenario, settings, schedule), scenario, settings, schedule);
  for (let play = 1; play < plays && result.divergence; play++) {
    result = compare(pglite, await replay(lab, scenario, settings, schedule), scenario, settings, schedule);
    if (!result.divergence) return { ...result, raced: true };
  }
  return { ...result, raced: false };
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

interface Replayed {
  trace: Trace;
  /** A token the other database applied that this one refused (the worker could not move here). */
  refused: { index: number; token: string; reason: string } | null;
}

/** The schedule from a reset, token by token, stopping at a token that cannot apply here. */
export async function replay(db: LabDatabase, scenario: Scenario, settings: Settings, schedule: readonly string[]): Promise<Replayed> {
  const sim = new Simulation(db, scenario, settings);
  await sim.reset();
  for (const [index, token] of schedule.entries()) {
    try {
      await sim.apply(token);
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
      return { trace: sim.trace(), refused: { index, token, reason: error.message } };
    }
  }
  return { trace: sim.trace(), refused: null };
}

function compare(
  pglite: Trace,
  postgres: Replayed,
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
    if (!isDeepStrictEqual(a, b)) return { divergence: at(`step ${index + 1} (token ${step.token})`, onlyDiffering(a, b), onlyDiffering(b, a)), detail: null };
    const [da, db] = [detail(step), detail(other)];
    if (!detailDifference && !isDeepStrictEqual(da, db)) detailDifference = at(`step ${index + 1} (token ${step.token})`, da, db);
  }
  if (postgres.refused) {
    const { index, token, reason } = postgres.refused;
    return { divergence: at(`token ${index + 1} (${token})`, 'applied', `refused: ${reason}`), detail: null };
  }
  if (pglite.steps.length !== theirs.length) {
    return { divergence: at('number of steps', pglite.steps.length, theirs.length), detail: null };
  }
  if (!isDeepStrictEqual(pglite.finalRuns, postgres.trace.finalRuns)) {
    return { divergence: at('final runs table', pglite.finalRuns, postgres.trace.finalRuns), detail: null };
  }
  if (!isDeepStrictEqual(pglite.anomalies, postgres.trace.anomalies)) {
    return { divergence: at('anomalies', pglite.anomalies, postgres.trace.anomalies), detail: null };
  }
  return { divergence: null, detail: detailDifference };
}

/** The fields that differ; the table only when nothing else does (it follows from the outcome otherwise). */
function onlyDiffering<T extends Record<string, unknown>>(mine: T, theirs: T): Partial<T> {
  const keys = (Object.keys(mine) as (keyof T)[]).filter((key) => !isDeepStrictEqual(mine[key], theirs[key]));
  const shown = keys.length > 1 ? keys.filter((key) => key !== 'runs') : keys;
  const out: Partial<T> = {};
  for (const key of shown) out[key] = mine[key];
  return out;
}

/** Every schedule the enumerator finds on PGlite, compared on the server; `cut` when the limit stopped it. */
export async function compareEveryInterleaving(
  dbs: Databases,
  scenario: Scenario,
  settings: Settings,
  limit: number,
  signal?: AbortSignal,
): Promise<Comparison & { cut: boolean }> {
  let cut = false;
  const explorer = exploreSchedules(dbs.pglite, scenario, settings, { limit });
  const schedules = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = await explorer.next();
        if (next.done) {
          cut = next.value.cut;
          return;
        }
        yield next.value;
      }
    },
  };
  const result = await compareOnPostgres(dbs.postgres, scenario, settings, schedules, signal);
  return { ...result, cut };
}

/**
 * Schedules that take every step from every state the scenario can reach (src/engine/cover.ts), compared
 * on the server. Agreeing on each of those steps, and on the state it leads to, is agreeing on every
 * schedule; `cut` when the state limit stopped the search.
 */
export async function compareStateGraph(
  dbs: Databases,
  scenario: Scenario,
  settings: Settings,
  signal?: AbortSignal,
): Promise<Comparison & CoverSummary> {
  let graph: CoverSummary = { states: 0, edges: 0, cut: false };
  const cover = coverStateGraph(dbs.pglite, scenario, settings);
  const schedules = {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        const next = await cover.next();
        if (next.done) {
          graph = next.value;
          return;
        }
        yield next.value;
      }
    },
  };
  const result = await compareOnPostgres(dbs.postgres, scenario, settings, schedules, signal);
  return { ...result, ...graph };
}

/**
 * Where npm test plays each strategy under one fencing setting only: alternating by strategy (naive off,
 * compare-and-set on, SKIP LOCKED off, FOR UPDATE on, NOWAIT off), so both kinds of write still run.
 */
export function fencingInNpmTest(strategy: Strategy): boolean {
  return STRATEGIES.indexOf(strategy) % 2 === 1;
}

/** One line for the log: how many schedules, and any differences in wording or holders (reported, not failed). */
export function summary(label: string, result: Comparison): string {
  const details = result.detailDifferences;
  const first = details[0] ? `; first at ${details[0].where} of ${details[0].schedule.join(',')}: pglite ${JSON.stringify(details[0].pglite)}, postgres ${JSON.stringify(details[0].postgres)}` : '';
  const raced = result.raced.length > 0 ? `, ${result.raced.length} matched only on a later play (waiters raced: ${result.raced.map((s) => s.join(',')).join(' | ')})` : '';
  return `${label}: ${result.schedules} schedules, ${result.divergences.length} diverge${raced}, ${details.length} differ only in holders or wording${first}`;
}

/** The command that replays a schedule on a real server (and, without --db, on PGlite). */
export function replayCommand(divergence: Pick<Divergence, 'scenario' | 'settings' | 'schedule'>): string {
  const { scenario, settings, schedule } = divergence;
  return `npm run sim -- run ${scenario} --strategy ${settings.strategy} --fencing ${settings.fencing ? 'on' : 'off'} --finish none --schedule ${schedule.join(',')} --db postgres://…`;
}

/** A readable account of the first few divergences, for a failing assertion. */
export function describeDivergences(divergences: readonly Divergence[], shown = 5): string {
  const lines = divergences.slice(0, shown).map((d) =>
    [
      `${d.scenario} (strategy ${d.settings.strategy}, fencing ${d.settings.fencing ? 'on' : 'off'}), schedule ${d.schedule.join(',')}`,
      `  first difference at ${d.where}`,
      `  pglite:   ${JSON.stringify(d.pglite)}`,
      `  postgres: ${JSON.stringify(d.postgres)}`,
      `  replay:   ${replayCommand(d)}`,
    ].join('\n'),
  );
  const more = divergences.length > shown ? `\n…and ${divergences.length - shown} more` : '';
  return `${divergences.length} schedule(s) diverge between PGlite and PostgreSQL:\n${lines.join('\n')}${more}`;
}
