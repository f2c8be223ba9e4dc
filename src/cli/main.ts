/**
 * `npm run sim -- <command>`: the lab without a browser, on the same engine and the same SQL.
 * Bad input prints one line saying what is wrong and what is valid, and exits with code 2.
 */
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type ParseArgsConfig, parseArgs } from 'node:util';
import type { LabDatabase } from '../db/port';
import { EXHAUSTIVE_STATE_LIMIT, SAMPLE_SEED, SAMPLE_SIZE } from '../engine/explore';
import { type Finish, runSchedule } from '../engine/run';
import { defaultSettings, FIX_SCENARIOS, findScenario, SCENARIOS } from '../scenarios';
import { ISOLATION_LEVELS, isIsolationLevel, needsServerLine } from '../sim/isolation';
import { parseSchedule, ScheduleError } from '../sim/schedule';
import { OUTCOME_KINDS, STRATEGIES, type Strategy, type Trace } from '../sim/types';
import { formatExploration, formatTrace } from './format';
import { CliFailure, claimThatOnlyFailed, closeOnSignal, EXIT_BAD_INPUT, EXIT_SIGNAL, failureLine, stopOnYourStatementFailure } from './failure';
import { clip, printablePath, scenarioFromOptions, SCENARIO_OPTIONS } from './scenario-option';

class UsageError extends CliFailure {}

/** How long one statement may run before the run stops (--statement-timeout): far past any honest claim's milliseconds. */
const DEFAULT_STATEMENT_TIMEOUT_SECONDS = 30;

const USAGE = `usage: npm run sim -- list [--json]
       npm run sim -- run <scenario> [--schedule A,B,+30,pause:A,…] [--seed N] [--finish round-robin|none]
                          [--fencing on|off] [--strategy ${STRATEGIES.join('|')} | --claim FILE [--heartbeat FILE] [--work FILE] [--complete FILE]] [--db pglite|postgres://…]
                          [--isolation ${ISOLATION_LEVELS.join('|')}] [--statement-timeout SECONDS] [--json]
       npm run sim -- explore <scenario> [--strategy …] [--fencing on|off] [--method fast|brute-force]
                          [--sample N [--seed N]] [--db pglite|postgres://…] [--isolation …] [--json]
       npm run sim -- check <scenario> --claim FILE [--heartbeat FILE] [--work FILE] [--complete FILE] [--reaper FILE] [--fencing on|off] [--method fast|brute-force]
                          [--db pglite|postgres://…] [--isolation …] [--max-states N] [--sample N] [--seed N] [--json]
                          [--hold-for-job]  (the claim is a SELECT … \\gset alone whose transaction, its row lock the lease,
                           stays open for the whole job until --complete FILE, using :run_id, runs in it and commits)
                          [--param [STATEMENT:]N=VALUE …]  (your statements' own parameters: --param 1=5 --param 2=worker;
                           default $1 worker, $2 lease seconds; run --claim takes them too)
                          (--isolation repeatable-read|serializable: each claim in an explicit transaction at that level,
                           a worker that gets 40001 rolls back and tries again; needs --db postgres://…)
                          (past --max-states distinct states, default ${EXHAUSTIVE_STATE_LIMIT}, a seeded sample of --sample schedules, default ${SAMPLE_SIZE})
                          [--statement-timeout SECONDS] [--fail-on KIND,…|all]
                          (exit 1: some schedule ends in a kind of --fail-on, by default double-claim, duplicate-execution
                           (two workers executing one run under live leases), split-ownership or stranded-run (a dead
                           worker's run your claim never takes back); 0: none. Duplicate work
                           after a lease ran out (duplicate-after-expiry, at-least-once) is reported, and fails only with --fail-on.
                           The kinds: ${OUTCOME_KINDS.slice(0, 4).join(', ')},
                           ${OUTCOME_KINDS.slice(4).join(', ')}, or all;
                           2: bad input, a statement of yours that fails or runs past --statement-timeout (default ${DEFAULT_STATEMENT_TIMEOUT_SECONDS}), a server it cannot reach or that went away;
                           130/143: stopped by Ctrl+C/SIGTERM, after cancelling the server's statements and dropping what the run created)
       In place of <scenario>, run, explore and check take a scenario someone wrote in the lab's editor:
         --scenario-link '<the lab's link>' (its strategy, fencing and schedule too) or --scenario-file FILE (its JSON)
       npm run sim -- swarm --seed N [--count K] [--db postgres://…] [--isolation …] [--json]
                          (generated scenarios; exit 1: a schedule plays differently on the server; 0: none; 2: bad input;
                           --isolation repeatable-read|serializable plays them on the --db server only, not compared)
       npm run sim -- spec FILE.spec [--permutation "s1a s2a …"]… --db postgres://… [--json]
                          (PostgreSQL's isolation-tester format and output; exit 1: a permutation broke a check; 0: none; 2: bad input)`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    console.log(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'list') return list(rest);
  if (command === 'run') return run(rest);
  if (command === 'explore') return explore(rest);
  if (command === 'check') return check(rest);
  if (command === 'swarm') return (await import('./swarm')).swarm(rest);
  if (command === 'spec') return (await import('./spec')).spec(rest, serverName);
  throw new UsageError(`unknown command "${command}"; the commands are list, run, explore, check, swarm and spec`);
}

function options<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], spec: T) {
  try {
    return parseArgs({ args, options: spec, allowPositionals: true, strict: true });
  } catch (error) {
    const first = (error as Error).message.split('\n')[0]!;
    const ambiguous = /Option '(--[a-z]+)[^']*' argument is ambiguous/.exec(first);
    if (ambiguous) throw new UsageError(`${ambiguous[1]} needs a value; for a value that starts with "-", write ${ambiguous[1]}=VALUE`);
    throw new UsageError(first.replace(/^TypeError \[[A-Z_]+\]: /, ''));
  }
}

function list(args: string[]): number {
  const { values } = options(args, { json: { type: 'boolean' } });
  // The scenarios to choose, then the incidents' fixes that are scenarios of their own.
  const listed = [...SCENARIOS, ...FIX_SCENARIOS];
  if (values.json) {
    const out = listed.map((s) => ({
      id: s.id,
      title: s.title,
      workers: s.workers.map((w) => w.id),
      strategies: STRATEGIES,
      // A replayed incident: where it was reported, the anomaly its script reaches, and the setting that fixes it.
      ...(s.incident
        ? { incident: { queue: s.incident.queue, source: s.incident.source, url: s.incident.url, anomaly: s.incident.anomaly, fix: s.incident.fix } }
        : {}),
    }));
    console.log(JSON.stringify(out, null, 2));
    return 0;
  }
  const width = Math.max(...listed.map((s) => s.id.length));
  for (const s of listed) console.log(`${s.id.padEnd(width)}  ${s.title} (workers ${s.workers.map((w) => w.id).join(', ')})`);
  return 0;
}

/** The scenario named by the first positional argument, and its settings after --strategy / --fencing. */
function scenarioAndSettings(
  positionals: string[],
  values: { strategy?: unknown; fencing?: unknown; isolation?: unknown; db?: unknown; 'scenario-link'?: unknown; 'scenario-file'?: unknown },
  command: string,
) {
  const authored = scenarioFromOptions(values);
  const [id, extra] = authored && positionals[0] !== undefined ? [undefined, positionals[0]] : positionals;
  if (!authored && id === undefined)
    throw new UsageError(`${command} needs a scenario; the scenarios are ${SCENARIOS.map((s) => s.id).join(', ')} (or --scenario-link / --scenario-file)`);
  if (extra !== undefined)
    throw new UsageError(`unexpected argument "${clip(extra)}"${authored ? ': the scenario is the one given by --scenario-link or --scenario-file' : ''}`);
  const scenario = authored?.scenario ?? findScenario(id!);
  if (!scenario) throw new UsageError(`unknown scenario "${clip(id!)}"; the scenarios are ${SCENARIOS.map((s) => s.id).join(', ')}`);
  const settings = authored?.settings ?? defaultSettings(scenario);
  if (values.strategy !== undefined) {
    if (!STRATEGIES.includes(values.strategy as Strategy)) {
      throw new UsageError(`unknown strategy "${clip(values.strategy as string)}"; the strategies are ${STRATEGIES.join(', ')}`);
    }
    settings.strategy = values.strategy as Strategy;
  }
  if (values.fencing !== undefined) {
    if (values.fencing !== 'on' && values.fencing !== 'off') throw new UsageError(`--fencing takes on or off, not "${clip(values.fencing as string)}"`);
    settings.fencing = values.fencing === 'on';
  }
  if (values.isolation !== undefined) {
    const level = values.isolation as string;
    if (!isIsolationLevel(level)) throw new UsageError(`--isolation takes ${ISOLATION_LEVELS.join(', ')}, not "${clip(level)}"`);
    // READ COMMITTED is the lab's own way of running a claim: the settings say nothing, and the output is today's.
    if (level !== 'read-committed') {
      if ((values.db ?? 'pglite') === 'pglite') throw new UsageError(needsServerLine(level));
      settings.isolation = level;
    }
  }
  return { scenario, settings, linkSchedule: authored?.schedule ?? null, yourSql: authored?.yourSql ?? false };
}

function parseSeed(text: string): number {
  if (!/^\d{1,10}$/.test(text) || Number(text) > 4294967295) throw new UsageError(`--seed takes a whole number from 0 to 4294967295, not "${clip(text)}"`);
  return Number(text);
}

async function run(args: string[]): Promise<number> {
  const { values, positionals } = options(args, {
    schedule: { type: 'string' },
    seed: { type: 'string' },
    finish: { type: 'string' },
    fencing: { type: 'string' },
    strategy: { type: 'string' },
    claim: { type: 'string' },
    heartbeat: { type: 'string' },
    work: { type: 'string' },
    complete: { type: 'string' },
    reaper: { type: 'string' },
    param: { type: 'string', multiple: true },
    'hold-for-job': { type: 'boolean' },
    db: { type: 'string' },
    isolation: { type: 'string' },
    'statement-timeout': { type: 'string' },
    json: { type: 'boolean' },
    ...SCENARIO_OPTIONS,
  });
  const chosen = scenarioAndSettings(positionals, values, 'run');
  const { settings, yourSql } = chosen;
  let { linkSchedule } = chosen;
  let { scenario } = chosen;
  const spec = (values.db as string | undefined) ?? 'pglite';
  const timeout = statementTimeout(values['statement-timeout']);
  if (yourSql && values.claim === undefined) throw new UsageError(yourSqlNeedsClaim);
  if (values.claim !== undefined) {
    // A witness of `check`, replayed step by step with the same claim (on a server, as check --db plays it).
    if (values.strategy !== undefined) throw new UsageError('--claim and --strategy cannot go together: the claim is the strategy');
    const { claimStrategyFromFile, parseParamFlags, refuseIsolationWithTwoStatements, withReaperFromFile, withWritesFromFiles } = await import('./check');
    const { withReaperLane, withRescueSteps } = await import('../scenarios/reaper-lane');
    const onServer = { onServer: spec !== 'pglite' };
    const bindings = parseParamFlags(values.param ?? []);
    if (values['hold-for-job']) {
      refuseWithHoldForJob(values);
      const { heldClaimFromFiles } = await import('./check');
      settings.definition = (await heldClaimFromFiles(values.claim as string, values.complete as string | undefined, onServer)).definition;
    } else {
      const { definition } = await claimStrategyFromFile(values.claim as string, onServer, bindings);
      settings.definition = await withWritesFromFiles(definition, writeFiles(values), onServer, bindings);
      settings.definition = await withReaperFromFile(settings.definition, values.reaper as string | undefined, onServer, bindings);
    }
    refuseIsolationWithTwoStatements(settings, printablePath(values.claim as string));
    if (values.reaper !== undefined) {
      // A link's steps written without the lane are played on it as the page plays them: the reaper's turn after each step of the clock.
      if (scenario.rescuer === undefined && linkSchedule !== null) linkSchedule = withRescueSteps(linkSchedule);
      scenario = withReaperLane(scenario);
    }
  } else if (values['hold-for-job']) {
    throw new UsageError('--hold-for-job goes with --claim FILE (a SELECT … \\gset) and --complete FILE');
  } else if (Object.keys(writeFiles(values)).length > 0 || values.reaper !== undefined) {
    throw new UsageError('--heartbeat, --work, --complete and --reaper go with --claim FILE');
  } else if (values.param !== undefined) {
    throw new UsageError("--param binds your statements' parameters: it goes with --claim FILE");
  }
  let finish: Finish = { kind: 'round-robin' };
  if (values.seed !== undefined) finish = { kind: 'random', seed: parseSeed(values.seed as string) };
  if (values.finish !== undefined) {
    if (values.finish === 'none') finish = { kind: 'none' };
    else if (values.finish !== 'round-robin') throw new UsageError(`--finish takes round-robin or none, not "${clip(values.finish as string)}"`);
  }
  let schedule: string[];
  let onInapplicable: 'error' | 'skip' = 'error';
  if (values.schedule !== undefined) {
    schedule = parseSchedule(values.schedule as string);
  } else if (linkSchedule !== null && linkSchedule.length > 0) {
    // The schedule the link was shared with: the same view as in the browser.
    schedule = linkSchedule;
  } else if (values.seed !== undefined) {
    schedule = [];
  } else {
    // The scenario's own script, which may name workers that a different strategy has already stopped.
    schedule = scenario.script;
    onInapplicable = 'skip';
  }

  let db = await openDatabase(
    spec,
    scenario.workers.map((w) => w.id),
    settings.definition ? timeout : null,
  );
  if (settings.definition) db = stopOnYourStatementFailure((await import('./check')).guardCustomClaim(db, spec === 'pglite' ? 'pglite' : 'postgres'), timeout);
  try {
    const trace: Trace = await runSchedule(db, scenario, settings, schedule, { finish, onInapplicable });
    console.log(values.json ? JSON.stringify(trace, null, 2) : formatTrace(trace, scenario));
    return 0;
  } finally {
    await closeDatabase(db);
  }
}

const yourSqlNeedsClaim =
  "--scenario-link: the link's strategy is your own SQL (strategy=your-sql): give its statements with --claim FILE (and --heartbeat, --work, --complete), as check printed them";

/** --statement-timeout SECONDS: how long one statement may run (default DEFAULT_STATEMENT_TIMEOUT_SECONDS). */
function statementTimeout(value: unknown): number {
  if (value === undefined) return DEFAULT_STATEMENT_TIMEOUT_SECONDS;
  return parseCount(value as string, '--statement-timeout', 'a number of seconds', 3600);
}

async function explore(args: string[]): Promise<number> {
  const { values, positionals } = options(args, {
    strategy: { type: 'string' },
    fencing: { type: 'string' },
    method: { type: 'string' },
    sample: { type: 'string' },
    seed: { type: 'string' },
    db: { type: 'string' },
    isolation: { type: 'string' },
    json: { type: 'boolean' },
    ...SCENARIO_OPTIONS,
  });
  const { scenario, settings } = scenarioAndSettings(positionals, values, 'explore');
  const method = (values.method as string | undefined) ?? 'fast';
  if (method !== 'fast' && method !== 'brute-force') throw new UsageError(`--method takes fast or brute-force, not "${clip(method)}"`);
  let sample: number | null = null;
  if (values.sample !== undefined) {
    const text = values.sample as string;
    if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 10_000)
      throw new UsageError(`--sample takes a number of schedules from 1 to 10000, not "${clip(text)}"`);
    sample = Number(text);
  }
  if (values.seed !== undefined && sample === null) throw new UsageError('--seed goes with --sample N');
  const seed = values.seed === undefined ? 1 : parseSeed(values.seed as string);
  const db = await openDatabase(
    (values.db as string | undefined) ?? 'pglite',
    scenario.workers.map((w) => w.id),
  );
  try {
    const { exploreBruteForce, exploreFast, exploreSample } = await import('../engine/explore');
    const started = performance.now();
    const result =
      sample !== null
        ? await exploreSample(db, scenario, settings, sample, seed)
        : method === 'fast'
          ? await exploreFast(db, scenario, settings)
          : await exploreBruteForce(db, scenario, settings);
    const seconds = (performance.now() - started) / 1000;
    console.log(values.json ? JSON.stringify(result, null, 2) : formatExploration(result, seconds));
    return 0;
  } finally {
    await closeDatabase(db);
  }
}

async function check(args: string[]): Promise<number> {
  const { values, positionals } = options(args, {
    claim: { type: 'string' },
    'hold-for-job': { type: 'boolean' },
    heartbeat: { type: 'string' },
    work: { type: 'string' },
    complete: { type: 'string' },
    reaper: { type: 'string' },
    param: { type: 'string', multiple: true },
    fencing: { type: 'string' },
    method: { type: 'string' },
    db: { type: 'string' },
    isolation: { type: 'string' },
    'max-states': { type: 'string' },
    sample: { type: 'string' },
    seed: { type: 'string' },
    'statement-timeout': { type: 'string' },
    'fail-on': { type: 'string' },
    json: { type: 'boolean' },
    ...SCENARIO_OPTIONS,
  });
  const chosen = scenarioAndSettings(positionals, values, 'check');
  const { settings } = chosen;
  const {
    claimStrategyFromFile,
    checkReport,
    DEFAULT_FAIL_ON,
    formatCheck,
    guardCustomClaim,
    parseFailOn,
    parseParamFlags,
    refuseIsolationWithTwoStatements,
    withReaperFromFile,
    withWritesFromFiles,
  } = await import('./check');
  const { withReaperLane } = await import('../scenarios/reaper-lane');
  const failOn = values['fail-on'] === undefined ? DEFAULT_FAIL_ON : parseFailOn(values['fail-on'] as string);
  const timeout = statementTimeout(values['statement-timeout']);
  const method = (values.method as string | undefined) ?? 'fast';
  if (method !== 'fast' && method !== 'brute-force') throw new UsageError(`--method takes fast or brute-force, not "${clip(method)}"`);
  const maxStates =
    values['max-states'] === undefined
      ? EXHAUSTIVE_STATE_LIMIT
      : parseCount(values['max-states'] as string, '--max-states', 'a number of distinct states', 1_000_000);
  const sampleSize = values.sample === undefined ? SAMPLE_SIZE : parseCount(values.sample as string, '--sample', 'a number of schedules', 10_000);
  // --seed replays a sample: it goes straight to the seeded schedules, without exploring first.
  const seed = values.seed === undefined ? null : parseSeed(values.seed as string);
  if (method === 'brute-force' && (seed !== null || values.sample !== undefined || values['max-states'] !== undefined)) {
    throw new UsageError('--method brute-force plays every schedule: it takes no --max-states, --sample or --seed');
  }
  const file = values.claim as string | undefined;
  if (file === undefined || file === '') throw new UsageError('check needs --claim FILE: the claim statement to check ($1 worker, $2 lease seconds)');
  const spec = (values.db as string | undefined) ?? 'pglite';
  if (spec !== 'pglite' && !/^postgres(ql)?:\/\//.test(spec)) throw new UsageError(`--db takes pglite or a postgres:// URL, not "${clip(spec)}"`);
  // On a server the waits are real: shapes PGlite cannot follow through a wait are played there too.
  const onServer = { onServer: spec !== 'pglite' };
  const bindings = parseParamFlags(values.param ?? []);
  const held = values['hold-for-job'] === true;
  if (held) refuseWithHoldForJob(values);
  const claim = held
    ? await (await import('./check')).heldClaimFromFiles(file, values.complete as string | undefined, onServer)
    : await claimStrategyFromFile(file, onServer, bindings);
  const writes = writeFiles(values);
  const summary = [
    claim.summary,
    ...(bindings.length === 0 ? [] : [`parameters: ${bindings.map((binding) => binding.flag).join(', ')}`]),
    ...Object.entries(writes).map(([role, path]) => `${role}: ${printablePath(path)} (fenced and unfenced alike)`),
    ...(values.reaper === undefined ? [] : [`reaper: ${printablePath(values.reaper as string)} (its own session, a rescue step after each step of the clock)`]),
  ].join('; ');
  const reaper = values.reaper as string | undefined;
  const withWrites = held ? claim.definition : await withWritesFromFiles(claim.definition, writes, onServer, bindings);
  const definition = await withReaperFromFile(withWrites, reaper, onServer, bindings);
  // A reaper runs on a lane of its own: check adds the rescuer and its rescue steps (scenarios/reaper-lane.ts).
  const scenario = reaper === undefined ? chosen.scenario : withReaperLane(chosen.scenario);
  const custom = { ...settings, definition };
  refuseIsolationWithTwoStatements(custom, printablePath(file));
  const where = spec === 'pglite' ? ({ kind: 'pglite' } as const) : ({ kind: 'postgres', server: serverName(spec) } as const);
  const db = stopOnYourStatementFailure(
    guardCustomClaim(
      await openDatabase(
        spec,
        scenario.workers.map((w) => w.id),
        timeout,
      ),
      where.kind,
    ),
    timeout,
  );
  try {
    const { exploreBruteForce, exploreFast, exploreSample, ExplorationTooLarge } = await import('../engine/explore');
    const started = performance.now();
    const sample = async (because: string | null) => {
      const sampled = await exploreSample(db, scenario, custom, sampleSize, seed ?? SAMPLE_SEED);
      return because ? { ...sampled, sampledBecause: because } : sampled;
    };
    let result: Awaited<ReturnType<typeof exploreFast>>;
    if (method === 'brute-force') result = await exploreBruteForce(db, scenario, custom);
    else if (seed !== null) result = await sample(null);
    else {
      try {
        result = await exploreFast(db, scenario, custom, { maxStates });
      } catch (error) {
        if (!(error instanceof ExplorationTooLarge)) throw error;
        result = await sample(error.because);
      }
    }
    const seconds = (performance.now() - started) / 1000;
    const onlyFailed = claimThatOnlyFailed(printablePath(file), db.yourClaim);
    if (onlyFailed) throw onlyFailed;
    const shownWrites = Object.fromEntries(Object.entries(writes).map(([role, path]) => [role, printablePath(path)]));
    const report = checkReport(
      scenario,
      custom,
      printablePath(file),
      summary,
      result,
      shownWrites,
      where,
      failOn,
      reaper === undefined ? undefined : printablePath(reaper),
      bindings.map((binding) => binding.flag),
    );
    console.log(values.json ? JSON.stringify(report, null, 2) : formatCheck(report, seconds));
    return report.exitCode;
  } finally {
    await closeDatabase(db);
  }
}

function parseCount(text: string, flag: string, what: string, most: number): number {
  if (!/^\d{1,7}$/.test(text) || Number(text) < 1 || Number(text) > most) throw new UsageError(`${flag} takes ${what} from 1 to ${most}, not "${clip(text)}"`);
  return Number(text);
}

/** host:port/database of a postgres:// URL, for the report: never the user or the password. */
function serverName(url: string): string {
  try {
    const parsed = new URL(url);
    const socket = parsed.searchParams.get('host');
    const host = parsed.hostname ? `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}` : (socket ?? 'localhost');
    return `${host}/${decodeURIComponent(parsed.pathname.replace(/^\//, ''))}`;
  } catch {
    throw new UsageError('--db: not a valid postgres:// URL');
  }
}

/**
 * What does not go with --hold-for-job, each in one line: a heartbeat or work write (the job's transaction is
 * the lease, and the model calls send nothing), a reaper (no run is ever marked running to reap), --param
 * and --isolation (not played with it yet).
 */
function refuseWithHoldForJob(values: { heartbeat?: unknown; work?: unknown; reaper?: unknown; param?: unknown; isolation?: unknown }): void {
  if (values.heartbeat !== undefined || values.work !== undefined) {
    throw new UsageError(
      '--hold-for-job takes no --heartbeat or --work: the open transaction is the lease (no heartbeat renews it), and the model calls send no statement',
    );
  }
  if (values.reaper !== undefined)
    throw new UsageError('--hold-for-job takes no --reaper: a crash rolls the job back, and no run is left marked running to reap');
  if (values.param !== undefined)
    throw new UsageError('--hold-for-job takes no --param yet: the SELECT gets $1 worker and $2 lease seconds, the completion :run_id');
  if (values.isolation !== undefined) throw new UsageError('--hold-for-job takes no --isolation yet: the job is played at READ COMMITTED');
}

/** The owner's writes given as files (--heartbeat, --work, --complete). */
function writeFiles(values: { heartbeat?: unknown; work?: unknown; complete?: unknown }): Partial<Record<'heartbeat' | 'work' | 'complete', string>> {
  const files: Partial<Record<'heartbeat' | 'work' | 'complete', string>> = {};
  for (const role of ['heartbeat', 'work', 'complete'] as const) {
    const path = values[role];
    if (typeof path === 'string') files[role] = path;
  }
  return files;
}

/**
 * The database to play on. `statementTimeoutSeconds` (for statements someone wrote): on PGlite the lab
 * runs in a worker thread whose calls are timed (pglite-thread.ts); on a server, statement_timeout.
 */
async function openDatabase(spec: string, workers: string[], statementTimeoutSeconds: number | null = null): Promise<LabDatabase> {
  let db: LabDatabase;
  if (spec === 'pglite' && statementTimeoutSeconds !== null) {
    const { openPgliteThread } = await import('./pglite-thread');
    db = await openPgliteThread(statementTimeoutSeconds);
  } else if (spec === 'pglite') {
    // From the pre-built data directory when there is one (no initdb): ~4x less start-up work.
    const { bootLabDatabase } = await import('../db/pglite-boot');
    db = await bootLabDatabase();
  } else if (/^postgres(ql)?:\/\//.test(spec)) {
    // Only in a schema of this run's own (lease_lab_cli_<pid>_<random>, marked), never a table of the user's
    // nor live mode's lease_lab: it is dropped again on close, without CASCADE. The server itself stops a
    // statement that runs past the timeout.
    const { PostgresLab } = await import('../db/postgres-lab');
    db = await PostgresLab.connect(spec, workers, { schema: 'own', statementTimeoutMs: (statementTimeoutSeconds ?? DEFAULT_STATEMENT_TIMEOUT_SECONDS) * 1000 });
  } else {
    throw new UsageError(`--db takes pglite or a postgres:// URL, not "${clip(spec)}"`);
  }
  closeOnSignal.add(db);
  return db;
}

async function closeDatabase(db: LabDatabase): Promise<void> {
  closeOnSignal.delete(db);
  await db.close();
}

/**
 * The command line's answer to `argv`: its exit code, with what it prints on console.log (stdout) and
 * console.error (stderr). Exported so that tests can call it in their own process. Whatever goes wrong is
 * one line on stderr and exit code 2 (see failure.ts); with --json, also one JSON object on stdout.
 */
export async function runCli(argv: string[]): Promise<number> {
  try {
    return await main(argv);
  } catch (error) {
    // After a signal the handler below speaks for the run; what its closing did to the steps in flight is no news.
    if (stoppedBy) return EXIT_SIGNAL[stoppedBy];
    const line = error instanceof ScheduleError ? error.message : failureLine(error);
    console.error(`lease-lab: ${line}`);
    if (argv.includes('--json')) console.log(JSON.stringify({ error: line, exitCode: EXIT_BAD_INPUT }));
    if (process.env.LEASE_LAB_DEBUG) console.error(error);
    return EXIT_BAD_INPUT;
  }
}

let stoppedBy: keyof typeof EXIT_SIGNAL | null = null;
/** A signal's cleanup is bounded: a server that does not answer must not keep the terminal waiting for ever. */
const SIGNAL_CLEANUP_MS = 15_000;

/**
 * Ctrl+C or SIGTERM: each open database closes (on a server: the running statements are cancelled, the
 * connections end, the run's schema is dropped), then the process exits 130 or 143.
 */
function stopOnSignal(signal: keyof typeof EXIT_SIGNAL): void {
  if (stoppedBy) return;
  stoppedBy = signal;
  const labs = [...closeOnSignal];
  closeOnSignal.clear();
  console.error(
    `lease-lab: stopped by ${signal}${labs.some((db) => db.kind === 'postgres') ? "; cancelling the server's statements and dropping what the run created" : ''}`,
  );
  const closing = Promise.all(labs.map((db) => db.close().catch((error: unknown) => console.error(`lease-lab: ${failureLine(error)}`))));
  const bound = new Promise((resolve) => setTimeout(resolve, SIGNAL_CLEANUP_MS).unref());
  void Promise.race([closing, bound]).then(() => process.exit(EXIT_SIGNAL[signal]));
}

/** True when Node was started on this file (`npm run sim`), false when a test imports it. */
function startedAsProgram(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (startedAsProgram()) {
  process.on('SIGINT', () => stopOnSignal('SIGINT'));
  process.on('SIGTERM', () => stopOnSignal('SIGTERM'));
  runCli(process.argv.slice(2)).then((code) => {
    if (!stoppedBy) process.exitCode = code;
  });
}
