/**
 * `npm run sim -- swarm --seed N [--count K] [--db postgres://…] [--isolation LEVEL] [--json]`: the scenario
 * each seed names (src/scenarios/swarm.ts), played on PGlite as its script and as a random walk; with --db,
 * each schedule is replayed on that server too and compared step by step, as the ground truth does. This is
 * how a seed the swarm test reports is replayed. With --isolation above READ COMMITTED (and --db: PGlite
 * cannot run it) the claims run at that level on the server only, and nothing is compared. Exit 0: every
 * schedule agreed (or nothing to compare); 1: some schedule diverged; 2: bad input (an error with
 * `userFacing` set, printed by main.ts as one line).
 */
import { parseArgs } from 'node:util';
import type { LabDatabase } from '../db/port';
import { compareSchedule, type Divergence, type ScheduleComparison } from '../engine/differential';
import { playSwarmSeed, SWARM_RACE_PLAYS, type SwarmPlay } from '../engine/swarm';
import { MAX_SWARM_SEED } from '../scenarios/swarm';
import { clockLabel } from '../sim/clock';
import { ISOLATION_LEVELS, ISOLATION_WORDS, isIsolationLevel, needsServerLine, PGLITE_HAS_ONE_SESSION, type StrictIsolation } from '../sim/isolation';
import type { RunSeed } from '../sim/types';

/** Seeds one command plays at most: a few seconds each with a server, so a long swarm belongs to the tests. */
export const MAX_SWARM_COUNT = 10_000;

class SwarmInputError extends Error {
  readonly userFacing = true;
}

interface SeedReport {
  play: SwarmPlay;
  /** Per schedule, in play order; absent without --db. */
  compared?: ScheduleComparison[];
}

export async function swarm(args: string[]): Promise<number> {
  const { seed, count, db, isolation, json } = swarmOptions(args);
  if (isolation) return swarmOnServer(seed, count, db!, isolation, json);
  const { bootLabDatabase } = await import('../db/pglite-boot');
  const pglite = await bootLabDatabase();
  let server: LabDatabase | null = null;
  try {
    if (db !== null) {
      // In a schema of this run's own, dropped again on close: never a table of the user's.
      const { PostgresLab } = await import('../db/postgres-lab');
      server = await PostgresLab.connect(db, ['A', 'B', 'C', 'D'], { schema: 'own' });
    }
    const reports: SeedReport[] = [];
    for (let at = seed; at < seed + count; at++) {
      const play = await playSwarmSeed(pglite, at);
      const report: SeedReport = { play };
      if (server) {
        report.compared = [];
        for (const { schedule, trace } of play.schedules)
          report.compared.push(await compareSchedule(server, play.scenario, play.settings, schedule, trace, SWARM_RACE_PLAYS));
      }
      reports.push(report);
      if (!json) console.log(formatSeed(report, db !== null));
    }
    const diverging = reports.filter((r) => r.compared?.some((c) => c.divergence));
    if (json) console.log(JSON.stringify(reports.map(jsonReport), null, 2));
    else if (count > 1 || db !== null) console.log(closingLine(reports.length, diverging, db !== null));
    return diverging.length > 0 ? 1 : 0;
  } finally {
    await Promise.all([pglite.close(), server?.close()]);
  }
}

/**
 * Each seed played on the server alone, its claims at `isolation`: PGlite cannot run that level (one
 * session), so there is nothing to compare with and the exit is 0 unless the input is bad.
 */
async function swarmOnServer(seed: number, count: number, db: string, isolation: StrictIsolation, json: boolean): Promise<number> {
  const { PostgresLab } = await import('../db/postgres-lab');
  const server = await PostgresLab.connect(db, ['A', 'B', 'C', 'D'], { schema: 'own' });
  try {
    const reports: SeedReport[] = [];
    for (let at = seed; at < seed + count; at++) {
      const report: SeedReport = { play: await playSwarmSeed(server, at, isolation) };
      reports.push(report);
      if (!json) console.log(formatSeed(report, false));
    }
    if (json) console.log(JSON.stringify(reports.map(jsonReport), null, 2));
    else console.log(`${reports.length} seed(s) played on PostgreSQL at ${ISOLATION_WORDS[isolation]}, not compared: ${PGLITE_HAS_ONE_SESSION}`);
    return 0;
  } finally {
    await server.close();
  }
}

function swarmOptions(args: string[]): { seed: number; count: number; db: string | null; isolation: StrictIsolation | null; json: boolean } {
  let parsed: ReturnType<typeof parseSwarmArgs>;
  try {
    parsed = parseSwarmArgs(args);
  } catch (error) {
    const first = (error as Error).message.split('\n')[0]!;
    const ambiguous = /Option '(--[a-z]+)[^']*' argument is ambiguous/.exec(first);
    if (ambiguous) throw new SwarmInputError(`${ambiguous[1]} needs a value; for a value that starts with "-", write ${ambiguous[1]}=VALUE`);
    throw new SwarmInputError(first.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
  const { values, positionals } = parsed;
  if (positionals.length > 0)
    throw new SwarmInputError(`unexpected argument "${clip(positionals[0]!)}"; swarm takes --seed N [--count K] [--db postgres://…] [--isolation …] [--json]`);
  if (values.seed === undefined)
    throw new SwarmInputError(`swarm needs --seed N: the seed that names the generated scenario, a whole number from 0 to ${MAX_SWARM_SEED}`);
  const seed = wholeNumber(values.seed, '--seed', 0, MAX_SWARM_SEED, `a whole number from 0 to ${MAX_SWARM_SEED}`);
  const count = values.count === undefined ? 1 : wholeNumber(values.count, '--count', 1, MAX_SWARM_COUNT, `a number of seeds from 1 to ${MAX_SWARM_COUNT}`);
  if (seed + count - 1 > MAX_SWARM_SEED) throw new SwarmInputError(`--seed ${seed} --count ${count} goes past the last seed, ${MAX_SWARM_SEED}`);
  const db = values.db ?? null;
  if (db !== null && !/^postgres(ql)?:\/\//.test(db)) {
    throw new SwarmInputError(`--db takes a postgres:// URL to compare with (the swarm always plays on PGlite), not "${clip(db)}"`);
  }
  return { seed, count, db, isolation: strictIsolation(values.isolation, db), json: values.json ?? false };
}

/** --isolation as run, explore and check take it: READ COMMITTED is the lab's own way (null); a stricter level needs --db. */
function strictIsolation(text: string | undefined, db: string | null): StrictIsolation | null {
  if (text === undefined) return null;
  if (!isIsolationLevel(text)) throw new SwarmInputError(`--isolation takes ${ISOLATION_LEVELS.join(', ')}, not "${clip(text)}"`);
  if (text === 'read-committed') return null;
  if (db === null) throw new SwarmInputError(needsServerLine(text));
  return text;
}

function parseSwarmArgs(args: string[]) {
  return parseArgs({
    args,
    options: { seed: { type: 'string' }, count: { type: 'string' }, db: { type: 'string' }, isolation: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
}

function wholeNumber(text: string, flag: string, low: number, high: number, what: string): number {
  if (!/^\d{1,10}$/.test(text) || Number(text) < low || Number(text) > high) throw new SwarmInputError(`${flag} takes ${what}, not "${clip(text)}"`);
  return Number(text);
}

/** One seed as text: the scenario it names, then each schedule and what it showed (and how the server compared). */
function formatSeed({ play, compared }: SeedReport, withServer: boolean): string {
  const { scenario } = play;
  const lines = [`seed ${play.seed}: ${scenario.summary.replace('\n', ' ')}`];
  const attempts = `${scenario.maxClaimAttempts} claim attempt${scenario.maxClaimAttempts === 1 ? '' : 's'}`;
  lines.push(
    `  workers ${scenario.workers.map((w) => w.id).join(', ')}; ${scenario.workSteps} model call(s) of ${scenario.costPerCallCents} cents per run; ${attempts}`,
  );
  lines.push(`  runs: ${scenario.runs.map(describeRun).join('; ')}`);
  lines.push(`  script: ${scenario.script.join(',')}`);
  for (const [index, { name, schedule, trace }] of play.schedules.entries()) {
    const anomalies = trace.anomalies.length === 0 ? 'no anomalies' : `anomalies: ${[...new Set(trace.anomalies.map((a) => a.kind))].join(', ')}`;
    lines.push(`  ${name === 'script' ? 'the script as played' : name}: ${trace.steps.length} steps, ${anomalies}`);
    lines.push(`    schedule: ${schedule.join(',')}`);
    const result = compared?.[index];
    if (!withServer || !result) continue;
    if (result.divergence) {
      const d = result.divergence;
      lines.push(`    DIVERGES from PostgreSQL at ${d.where}`, `      pglite:   ${JSON.stringify(d.pglite)}`, `      postgres: ${JSON.stringify(d.postgres)}`);
    } else {
      const raced = result.raced ? ` (waiters woken together raced; matched on play ${result.plays})` : '';
      const detail = result.detail ? `; differs only in ${describeDetail(result.detail)}` : '';
      lines.push(`    PostgreSQL: the same at every step${raced}${detail}`);
    }
  }
  return lines.join('\n');
}

function describeRun(run: RunSeed): string {
  const status = run.status ?? 'pending';
  const lease = status === 'running' ? ` by ${run.leaseOwner}, lease until ${clockLabel(run.leaseExpiresAtSeconds ?? 0)}` : '';
  return `${run.runId} ${status}${lease} (${run.tenant ?? 'acme'}, generation ${run.leaseGeneration ?? 0}, created ${clockLabel(run.createdAtSeconds)})`;
}

function describeDetail(detail: Divergence): string {
  return `${detail.where}: pglite ${JSON.stringify(detail.pglite)}, postgres ${JSON.stringify(detail.postgres)}`;
}

function closingLine(seeds: number, diverging: SeedReport[], withServer: boolean): string {
  if (!withServer) return `${seeds} seeds played on PGlite (add --db postgres://… to compare each step with a server)`;
  if (diverging.length === 0) return `${seeds} seed(s): PGlite and PostgreSQL agree at every step`;
  return `${diverging.length} of ${seeds} seed(s) diverge: ${diverging.map((r) => r.play.seed).join(', ')}; replay one with npm run sim -- swarm --seed N --db …`;
}

function jsonReport({ play, compared }: SeedReport) {
  return {
    seed: play.seed,
    scenario: play.scenario,
    settings: play.settings,
    schedules: play.schedules.map(({ name, schedule, trace }, index) => ({
      name,
      schedule,
      steps: trace.steps.length,
      anomalies: trace.anomalies,
      finalRuns: trace.finalRuns,
      ...(compared ? { postgres: compared[index] } : {}),
    })),
  };
}

function clip(text: string): string {
  const safe = text.replace(/[^\x20-\x7e]/g, '?');
  return safe.length > 60 ? `${safe.slice(0, 60)}…` : safe;
}
