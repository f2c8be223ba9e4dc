/**
 * The differential harness: play a schedule on real PostgreSQL and compare, step by step, with what the
 * same schedule did on PGlite. What a learner sees must be the same on both; where it is not, the report
 * says exactly where, and how to replay it.
 */
import { inject } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import type { LabDatabase } from '../../src/db/port';
import { PostgresLab } from '../../src/db/postgres-lab';
import { type CoverSummary, coverStateGraph, pathTrace, StateGraph } from '../../src/engine/cover';
import { type ExploredSchedule, exploreSchedules } from '../../src/engine/enumerate';
import { compareSchedule, type Divergence } from '../../src/engine/differential';
import { type Scenario, type Settings, STRATEGIES, type Strategy } from '../../src/sim/types';
import { createDatabase, onSocket } from '../support/postgres-server';

// The step-by-step comparison itself lives in the engine, where the CLI's swarm uses it too.
export { type Divergence, playUntilRefused, wakesSeveralWaiters } from '../../src/engine/differential';

export interface Databases {
  pglite: PGliteLab;
  /** Several labs, each on its own database, so the server works on several schedules at once. */
  postgres: PostgresLab[];
  close(): Promise<void>;
}

/**
 * PGlite in this process, and `labs` fresh databases on the throwaway server, named after the test file,
 * reached through its unix socket (onSocket). A real server spends much of a schedule waiting (round trips, lock waits), so two
 * labs side by side keep it in step with PGlite, which is bound by this process's CPU. (More labs only
 * take CPU from PGlite on a 2-core machine.)
 */
export async function openDatabases(name: string, labs = 2): Promise<Databases> {
  const urls = await Promise.all(Array.from({ length: labs }, async (_, i) => onSocket(await testDatabaseUrl(`${name}_${i}`), inject('postgresSocketDir'))));
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

export interface Comparison {
  schedules: number;
  divergences: Divergence[];
  /** Differences in blocked-on holders or error wording only. */
  detailDifferences: Divergence[];
  /** Schedules where one commit woke several waiters and the server needed more than one play to match. */
  raced: string[][];
  /** The most plays on the server any schedule needed to match (1 when none raced). */
  mostPlays: number;
}

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
  racePlays?: number,
): Promise<Comparison> {
  const found: { order: number; schedule: string[]; divergence: Divergence | null; detail: Divergence | null; raced: boolean; plays: number }[] = [];
  const idle = [...labs];
  const running = new Set<Promise<void>>();
  let order = 0;
  for await (const { schedule, trace } of explored) {
    // A test that timed out must not keep using the labs under the next one.
    if (signal?.aborted) break;
    while (idle.length === 0) await Promise.race(running);
    const lab = idle.pop()!;
    const at = order++;
    const job: Promise<void> = compareSchedule(lab, scenario, settings, schedule, trace, racePlays)
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
    mostPlays: Math.max(0, ...found.map((f) => f.plays)),
  };
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
 * Every step from every state the scenario can reach (src/engine/cover.ts), compared on the server; `cut`
 * when the state limit stopped the search. PGlite walks the graph and records what each step did; the
 * server then plays paths of its own through that graph (StateGraph.pathCover: every edge at least once,
 * in far fewer schedules and tokens than the walk's own) and each of its steps is compared with the
 * step PGlite took along the same edge, and each path's end with the state the edge leads to. Agreeing on
 * each of those steps, and on the state it leads to, is agreeing on every schedule.
 */
export async function compareStateGraph(
  dbs: Databases,
  scenario: Scenario,
  settings: Settings,
  signal?: AbortSignal,
  racePlays?: number,
): Promise<Comparison & CoverSummary> {
  const graph = new StateGraph();
  const cover = coverStateGraph(dbs.pglite, scenario, settings, { onEdge: (edge) => graph.add(edge) });
  const walked: ExploredSchedule[] = [];
  let summary: CoverSummary;
  for (;;) {
    // A test that timed out must not keep using PGlite under the next one.
    if (signal?.aborted) throw new Error(`${scenario.id}: stopped while walking its graph (the test timed out)`);
    const next = await cover.next();
    if (next.done) {
      summary = next.value;
      break;
    }
    // A scenario where nobody can move at all has no edge: its one empty schedule is compared as it is.
    if (graph.edges === 0) walked.push(next.value);
  }
  const paths = graph.pathCover();
  const kind = dbs.pglite.kind;
  const schedules =
    graph.edges === 0
      ? walked
      : (function* () {
          for (const path of paths) yield { schedule: path.map((edge) => edge.token), trace: pathTrace(scenario, settings, path, kind) };
        })();
  const result = await compareOnPostgres(dbs.postgres, scenario, settings, schedules, signal, racePlays);
  return { ...result, ...summary };
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
  const first = details[0]
    ? `; first at ${details[0].where} of ${details[0].schedule.join(',')}: pglite ${JSON.stringify(details[0].pglite)}, postgres ${JSON.stringify(details[0].postgres)}`
    : '';
  const raced =
    result.raced.length > 0 ? `, ${result.raced.length} matched only on a later play (waiters raced: ${result.raced.map((s) => s.join(',')).join(' | ')})` : '';
  return `${label}: ${result.schedules} schedules, ${result.divergences.length} diverge${raced}, ${details.length} differ only in holders or wording${first}`;
}

/** The command that replays a schedule on a real server (and, without --db, on PGlite). */
function replayCommand(divergence: Pick<Divergence, 'scenario' | 'settings' | 'schedule'>): string {
  const { scenario, settings, schedule } = divergence;
  return `npm run sim -- run ${scenario} --strategy ${settings.strategy} --fencing ${settings.fencing ? 'on' : 'off'} --finish none --schedule ${schedule.join(',')} --db postgres://…`;
}

/** A readable account of the first few divergences, for a failing assertion. */
export function describeDivergences(divergences: readonly Divergence[], shown = 5): string {
  const lines = divergences
    .slice(0, shown)
    .map((d) =>
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
