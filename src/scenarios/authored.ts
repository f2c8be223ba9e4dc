/**
 * Scenarios someone wrote in the page's editor (or a file, or a link): a ScenarioSpec, the few things an
 * author chooses, made into a Scenario by defineScenario() so it is checked exactly as the lab's own are.
 * Its id is a hash of its content, so two different authored scenarios never share one (views, saved
 * places and explorations are keyed by scenario id). The lab remembers the ones it has met in this
 * JavaScript context (the page, a Web Worker, the CLI) so findScenario() finds them like the built-in ones.
 */
import { fnv1aHex } from '../sim/random';
import { seedJson } from '../sim/seed';
import { type Fault, type RunSeed, STRATEGIES, type Scenario, type Strategy } from '../sim/types';
import { defineScenario, SCENARIO_DEFAULTS, SCENARIO_LIMITS, type ScenarioProblem, scenarioProblems } from './define';

export const SPEC_VERSION = 1;

/** Every authored scenario's id starts with this; no built-in one does. */
const AUTHORED_PREFIX = 'authored-';

/** A seeded run as the author gives it; runs are created in the order listed (the first is the oldest). */
export interface SpecRun {
  runId: number;
  tenant: string;
  costCents: number;
  /** Its lease generation before the first claim; absent: 0. */
  leaseGeneration?: number;
  /**
   * Seconds before the start it was created (negative). Absent on every run: a minute apart, in the order
   * listed. Given on every run or none; a copy of a built-in scenario carries its runs' own times.
   */
  createdAtSeconds?: number;
  /** Already running under a lease held by `owner` (a worker outside the scenario) until `untilSeconds`. */
  heldBy?: { owner: string; untilSeconds: number };
}

export interface ScenarioSpec {
  version: typeof SPEC_VERSION;
  title: string;
  /** Two short lines: what the learner will see. The second may be empty. */
  description: [string, string];
  /** 2 to 4: workers A, B, C, D. */
  workers: number;
  /**
   * The name a worker claims under, by letter, where it is not its letter (delayed_job #1045: two letters,
   * one name). Absent in a spec without names, so a link written before names existed reads as it did.
   */
  workerNames?: WorkerNames;
  /** Workers, by letter, that heartbeat but never finish a model call (alive, yet stuck). Absent: none. */
  stuckWorkers?: WorkerLetter[];
  /**
   * Workers, by letter, that are lanes of a named process (its memory shared), or their process's recovery at
   * launch (WorkerSpec's process and recovery; DBOS #491). Absent: every worker a process of its own that claims.
   */
  lanes?: Partial<Record<WorkerLetter, SpecLane>>;
  runs: SpecRun[];
  /** Model calls a worker makes for one run before it completes it; absent: 2. */
  workSteps?: number;
  /**
   * The queue's rescue runs as its own process, stepped by `rescue` in the schedule (under a queue that has
   * one); `stallsAtSeconds`: from then on it takes no step. Absent: rescue is folded into the claim.
   */
  rescuer?: { stallsAtSeconds?: number };
  leaseSeconds: number;
  /** null: workers never heartbeat. */
  heartbeatSeconds: number | null;
  strategy: Strategy;
  fencing: boolean;
  faults: Fault[];
  /** The scripted interleaving as schedule tokens; empty: the lab's round-robin. */
  script: string[];
}

/** A worker as a lane of a process: the process it belongs to, and whether it is that process's recovery. */
interface SpecLane {
  process?: string;
  recovery?: { skipsActive: boolean };
}

export const WORKER_LETTERS = ['A', 'B', 'C', 'D'] as const;
export type WorkerLetter = (typeof WORKER_LETTERS)[number];
export type WorkerNames = Partial<Record<WorkerLetter, string>>;

/** Seconds between two seeded runs' created_at: the first listed is the oldest, so it is claimed first. */
const RUN_SPACING_SECONDS = 60;

/** What the editor opens with: the lab's usual two workers and one run. */
export function starterSpec(): ScenarioSpec {
  return {
    version: SPEC_VERSION,
    title: 'My scenario',
    description: ['Two workers race for one run.', ''],
    workers: 2,
    runs: [{ runId: 123, tenant: 'acme', costCents: 0 }],
    leaseSeconds: 60,
    heartbeatSeconds: 20,
    strategy: 'skip-locked',
    fencing: true,
    faults: [],
    script: [],
  };
}

/** The scenario a spec describes, or every problem with it (one per field, each in plain words). */
export function scenarioFromSpec(spec: ScenarioSpec): { scenario: Scenario; problems: [] } | { scenario: null; problems: ScenarioProblem[] } {
  const shape = specShapeProblems(spec);
  if (shape.length > 0) return { scenario: null, problems: shape };
  const draft = draftOf(spec);
  const problems = [...scenarioProblems(draft), ...runTimeProblems(spec)];
  if (problems.length > 0) return { scenario: null, problems };
  return { scenario: defineScenario(draft), problems: [] };
}

/** Run times are given on every run or none, and oldest first as the runs are listed. */
function runTimeProblems(spec: ScenarioSpec): ScenarioProblem[] {
  const timed = spec.runs.filter((run) => run.createdAtSeconds !== undefined).length;
  if (timed === 0) return [];
  if (timed < spec.runs.length) return [{ field: 'runs', message: 'give every run a created time, or none (a minute apart, in the order listed)' }];
  for (const [index, run] of spec.runs.entries()) {
    const before = spec.runs[index - 1]?.createdAtSeconds;
    if (before !== undefined && (run.createdAtSeconds as number) <= before)
      return [{ field: `runs.${index}.createdAtSeconds`, message: `run ${index + 1} must be created after run ${index}: the runs are listed oldest first` }];
  }
  return [];
}

/** The created times runs get when the spec gives none: a minute apart, the last a minute before the start. */
const spacedTimes = (count: number): number[] => Array.from({ length: count }, (_, index) => -RUN_SPACING_SECONDS * (count - index));

/** The spec as a draft Scenario, its id the hash of everything else. */
function draftOf(spec: ScenarioSpec): Scenario {
  const [first, second] = spec.description;
  const summary = second.trim() === '' ? first : `${first}\n${second}`;
  const body: Omit<Scenario, 'id'> = {
    title: spec.title,
    summary,
    workers: WORKER_LETTERS.slice(0, spec.workers).map((id) => {
      const name = spec.workerNames?.[id];
      const lane = spec.lanes?.[id];
      // No name, stuck or lane key unless given: the id hash of a scenario without them stays what it was.
      return {
        id,
        ...(name === undefined ? {} : { name }),
        ...(spec.stuckWorkers?.includes(id) ? { stuck: true } : {}),
        ...(lane?.process === undefined ? {} : { process: lane.process }),
        ...(lane?.recovery === undefined ? {} : { recovery: { skipsActive: lane.recovery.skipsActive } }),
      };
    }),
    runs: spec.runs.map((run, index) => ({
      runId: run.runId,
      tenant: run.tenant,
      costCents: run.costCents,
      createdAtSeconds: run.createdAtSeconds ?? (spacedTimes(spec.runs.length)[index] as number),
      ...(run.leaseGeneration === undefined ? {} : { leaseGeneration: run.leaseGeneration }),
      ...(run.heldBy === undefined ? {} : { status: 'running' as const, leaseOwner: run.heldBy.owner, leaseExpiresAtSeconds: run.heldBy.untilSeconds }),
    })),
    defaultStrategy: spec.strategy,
    defaultFencing: spec.fencing,
    leaseSeconds: spec.leaseSeconds,
    heartbeatSeconds: spec.heartbeatSeconds,
    // An authored scenario's workers work as the built-in ones do by default.
    workSteps: spec.workSteps ?? SCENARIO_DEFAULTS.workSteps,
    costPerCallCents: SCENARIO_DEFAULTS.costPerCallCents,
    maxClaimAttempts: SCENARIO_DEFAULTS.maxClaimAttempts,
    faults: spec.faults.map((fault) =>
      fault.kind === 'pause'
        ? { kind: 'pause', worker: fault.worker, atSeconds: fault.atSeconds, forSeconds: fault.forSeconds }
        : { kind: 'crash', worker: fault.worker, atSeconds: fault.atSeconds },
    ),
    script: [...spec.script],
    concepts: [],
    ...(spec.rescuer === undefined ? {} : { rescuer: rescuerOf(spec.rescuer) }),
  };
  return { id: `${AUTHORED_PREFIX}${fnv1aHex(JSON.stringify(body))}`, ...body };
}

const rescuerOf = (rescuer: { stallsAtSeconds?: number }) => (rescuer.stallsAtSeconds === undefined ? {} : { stallsAtSeconds: rescuer.stallsAtSeconds });

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * What is wrong with the shape of a spec that came from outside (a link, a file): a field missing or of
 * the wrong type. Ranges and names are defineScenario's to check, once the shape is right.
 */
export function specShapeProblems(value: unknown): ScenarioProblem[] {
  if (!isRecord(value)) return [{ field: 'scenario', message: 'the scenario is not an object of fields' }];
  const problems: ScenarioProblem[] = [];
  const say = (field: string, message: string) => problems.push({ field, message });
  if (value.version !== SPEC_VERSION) {
    const newer = typeof value.version === 'number' && value.version > SPEC_VERSION;
    say(
      'version',
      newer
        ? `the scenario was written by a newer Lease Lab (version ${value.version}); this one reads version ${SPEC_VERSION}`
        : `the scenario has no version this lab reads (it reads version ${SPEC_VERSION})`,
    );
    return problems;
  }
  if (typeof value.title !== 'string') say('title', 'the title must be text');
  if (!Array.isArray(value.description) || value.description.length !== 2 || !value.description.every((line) => typeof line === 'string'))
    say('description', 'the description must be two lines of text');
  else if (value.description.some((line) => (line as string).includes('\n'))) say('description', 'each line of the description is one line');
  if (!isInteger(value.workers) || value.workers < SCENARIO_LIMITS.minWorkers || value.workers > SCENARIO_LIMITS.maxWorkers) {
    say('workers', `a scenario has ${SCENARIO_LIMITS.minWorkers} to ${SCENARIO_LIMITS.maxWorkers} workers, not ${short(value.workers)}`);
  }
  if (value.workerNames !== undefined) workerNamesShapeProblems(value.workerNames, value.workers, say);
  if (value.stuckWorkers !== undefined) stuckWorkersShapeProblems(value.stuckWorkers, value.workers, say);
  if (value.lanes !== undefined) lanesShapeProblems(value.lanes, value.workers, say);
  if (value.workSteps !== undefined && typeof value.workSteps !== 'number') say('workSteps', 'the model calls per run must be a number');
  if (
    value.rescuer !== undefined &&
    (!isRecord(value.rescuer) || (value.rescuer.stallsAtSeconds !== undefined && typeof value.rescuer.stallsAtSeconds !== 'number'))
  )
    say('rescuer.stallsAtSeconds', 'the rescuer must be an object, its stall (if any) a number of seconds, such as {"stallsAtSeconds": 15}');
  if (!Array.isArray(value.runs)) say('runs', 'the runs must be a list');
  else if (value.runs.length > SCENARIO_LIMITS.maxRuns) say('runs', `a scenario seeds 1 to ${SCENARIO_LIMITS.maxRuns} runs, not ${value.runs.length}`);
  else {
    for (const [index, run] of value.runs.entries()) {
      if (!isRecord(run)) say(`runs.${index}`, `run ${index + 1} is not an object of fields`);
      else {
        if (typeof run.runId !== 'number') say(`runs.${index}.runId`, `run ${index + 1}: its id must be a number`);
        if (typeof run.tenant !== 'string') say(`runs.${index}.tenant`, `run ${index + 1}: its tenant must be text`);
        if (typeof run.costCents !== 'number') say(`runs.${index}.costCents`, `run ${index + 1}: its cost must be a number of cents`);
        if (run.leaseGeneration !== undefined && typeof run.leaseGeneration !== 'number')
          say(`runs.${index}.leaseGeneration`, `run ${index + 1}: its lease generation must be a number`);
        if (run.createdAtSeconds !== undefined && typeof run.createdAtSeconds !== 'number')
          say(`runs.${index}.createdAtSeconds`, `run ${index + 1}: its created time must be a number of seconds`);
        if (run.heldBy !== undefined && (!isRecord(run.heldBy) || typeof run.heldBy.owner !== 'string' || typeof run.heldBy.untilSeconds !== 'number'))
          say(`runs.${index}.heldBy`, `run ${index + 1}: a held lease is {"owner": a name, "untilSeconds": a number}`);
      }
    }
  }
  if (typeof value.leaseSeconds !== 'number') say('leaseSeconds', 'the lease must be a number of seconds');
  if (value.heartbeatSeconds !== null && typeof value.heartbeatSeconds !== 'number')
    say('heartbeatSeconds', 'the heartbeat must be a number of seconds, or none (null)');
  if (typeof value.strategy !== 'string' || !(STRATEGIES as readonly string[]).includes(value.strategy))
    say('strategy', `there is no strategy ${short(value.strategy)}; the strategies are: ${STRATEGIES.join(', ')}`);
  if (typeof value.fencing !== 'boolean') say('fencing', 'fencing must be true or false');
  if (!Array.isArray(value.faults)) say('faults', 'the faults must be a list');
  else if (value.faults.length > SCENARIO_LIMITS.maxFaults)
    say('faults', `a scenario has at most ${SCENARIO_LIMITS.maxFaults} faults, not ${value.faults.length}`);
  else {
    for (const [index, fault] of value.faults.entries()) {
      const at = `faults.${index}`;
      if (!isRecord(fault) || (fault.kind !== 'pause' && fault.kind !== 'crash')) say(at, `fault ${index + 1} must be a pause or a crash`);
      else {
        if (typeof fault.worker !== 'string') say(`${at}.worker`, `fault ${index + 1}: it must name a worker`);
        if (typeof fault.atSeconds !== 'number') say(`${at}.atSeconds`, `fault ${index + 1}: its time must be a number of seconds`);
        if (fault.kind === 'pause' && typeof fault.forSeconds !== 'number')
          say(`${at}.forSeconds`, `fault ${index + 1}: how long it lasts must be a number of seconds`);
      }
    }
  }
  if (!Array.isArray(value.script)) say('script', 'the schedule must be a list of steps');
  else if (value.script.length > SCENARIO_LIMITS.maxScriptSteps)
    say('script', `the schedule has ${value.script.length} steps; the lab replays at most ${SCENARIO_LIMITS.maxScriptSteps}`);
  else if (!value.script.every((step) => typeof step === 'string')) say('script', 'every step of the schedule must be text, such as A or +30');
  return problems;
}

/** Names by letter, each text, each for a worker the scenario has; how long a name may be is defineScenario's. */
function workerNamesShapeProblems(names: unknown, workers: unknown, say: (field: string, message: string) => void): void {
  if (!isRecord(names)) {
    say('workerNames', 'the workers\' names must be an object of names by letter, such as {"A": "host:web pid:1"}');
    return;
  }
  // A wrong count is said under workers; which letters there are is not known until it is right.
  if (!isInteger(workers)) return;
  const letters: readonly string[] = WORKER_LETTERS.slice(0, workers);
  for (const [letter, name] of Object.entries(names)) {
    if (!letters.includes(letter)) say('workerNames', `there is no worker ${short(letter)} to name; the workers are ${letters.join(', ')}`);
    else if (typeof name !== 'string') say(`workers.${letter}.name`, `worker ${letter}'s name must be text`);
  }
}

/** Lanes by letter, each for a worker the scenario has: {"process": text, "recovery": {"skipsActive": true or false}}, either part optional. */
function lanesShapeProblems(lanes: unknown, workers: unknown, say: (field: string, message: string) => void): void {
  const example = 'such as {"B": {"process": "app", "recovery": {"skipsActive": false}}}';
  if (!isRecord(lanes)) {
    say('lanes', `the lanes must be an object by letter, ${example}`);
    return;
  }
  if (!isInteger(workers)) return;
  const letters: readonly string[] = WORKER_LETTERS.slice(0, workers);
  for (const [letter, lane] of Object.entries(lanes)) {
    if (!letters.includes(letter)) say('lanes', `there is no worker ${short(letter)} to make a lane; the workers are ${letters.join(', ')}`);
    else if (
      !isRecord(lane) ||
      (lane.process !== undefined && typeof lane.process !== 'string') ||
      (lane.recovery !== undefined && (!isRecord(lane.recovery) || typeof lane.recovery.skipsActive !== 'boolean'))
    )
      say(`workers.${letter}.lane`, `worker ${letter}'s lane must be ${example.replace('such as ', 'shaped as ')}`);
  }
}

/** Letters of workers the scenario has, each once. */
function stuckWorkersShapeProblems(letters: unknown, workers: unknown, say: (field: string, message: string) => void): void {
  if (!Array.isArray(letters) || !letters.every((letter) => typeof letter === 'string')) {
    say('stuckWorkers', 'the stuck workers must be a list of letters, such as ["A"]');
    return;
  }
  if (!isInteger(workers)) return;
  const known: readonly string[] = WORKER_LETTERS.slice(0, workers);
  for (const [index, letter] of letters.entries()) {
    if (!known.includes(letter)) say('stuckWorkers', `there is no worker ${short(letter)} to be stuck; the workers are ${known.join(', ')}`);
    else if (letters.indexOf(letter) !== index) say('stuckWorkers', `worker ${letter} is listed as stuck twice`);
  }
}

const isInteger = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

function short(value: unknown): string {
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** The spec an authored scenario was made from, so a link or saved place can carry it. */
export function specOf(scenario: Scenario): ScenarioSpec {
  const [first = '', second = ''] = scenario.summary.split('\n');
  return {
    version: SPEC_VERSION,
    title: scenario.title,
    description: [first, second],
    workers: scenario.workers.length,
    ...workerNamesOf(scenario),
    ...stuckWorkersOf(scenario),
    ...lanesOf(scenario),
    runs: specRunsOf(scenario.runs),
    ...(scenario.workSteps === SCENARIO_DEFAULTS.workSteps ? {} : { workSteps: scenario.workSteps }),
    ...(scenario.rescuer === undefined ? {} : { rescuer: rescuerOf(scenario.rescuer) }),
    leaseSeconds: scenario.leaseSeconds,
    heartbeatSeconds: scenario.heartbeatSeconds,
    strategy: scenario.defaultStrategy,
    fencing: scenario.defaultFencing,
    faults: scenario.faults.map((fault) => ({ ...fault })),
    script: [...scenario.script],
  };
}

function stuckWorkersOf(scenario: Scenario): { stuckWorkers?: WorkerLetter[] } {
  const stuck = scenario.workers.filter((worker) => worker.stuck).map((worker) => worker.id as WorkerLetter);
  return stuck.length === 0 ? {} : { stuckWorkers: stuck };
}

/** The runs as a spec lists them: their times only where they are not the usual minute apart. */
function specRunsOf(runs: readonly RunSeed[]): SpecRun[] {
  const spaced = spacedTimes(runs.length);
  const ownTimes = runs.some((run, index) => run.createdAtSeconds !== spaced[index]);
  return runs.map((run) => ({
    runId: run.runId,
    tenant: run.tenant ?? 'acme',
    costCents: run.costCents ?? 0,
    ...(run.leaseGeneration === undefined ? {} : { leaseGeneration: run.leaseGeneration }),
    ...(ownTimes ? { createdAtSeconds: run.createdAtSeconds } : {}),
    ...(run.status === 'running' && run.leaseOwner != null && run.leaseExpiresAtSeconds != null
      ? { heldBy: { owner: run.leaseOwner, untilSeconds: run.leaseExpiresAtSeconds } }
      : {}),
  }));
}

function lanesOf(scenario: Scenario): { lanes?: Partial<Record<WorkerLetter, SpecLane>> } {
  const laned = scenario.workers.filter((worker) => worker.process !== undefined || worker.recovery !== undefined);
  if (laned.length === 0) return {};
  const lane = (worker: Scenario['workers'][number]): SpecLane => ({
    ...(worker.process === undefined ? {} : { process: worker.process }),
    ...(worker.recovery === undefined ? {} : { recovery: { skipsActive: worker.recovery.skipsActive } }),
  });
  return { lanes: Object.fromEntries(laned.map((worker) => [worker.id, lane(worker)])) };
}

function workerNamesOf(scenario: Scenario): { workerNames?: WorkerNames } {
  const named = scenario.workers.filter((worker) => worker.name !== undefined);
  if (named.length === 0) return {};
  return { workerNames: Object.fromEntries(named.map((worker) => [worker.id, worker.name])) as WorkerNames };
}

/** What a scenario does, as the simulation reads it: everything but its words (title, summaries, incident, concepts). */
function behaviourOf(scenario: Scenario) {
  return {
    workers: scenario.workers.map((worker) => ({
      id: worker.id,
      name: worker.name ?? worker.id,
      stuck: worker.stuck === true,
      ...(worker.process === undefined ? {} : { process: worker.process }),
      ...(worker.recovery === undefined ? {} : { recovery: worker.recovery }),
    })),
    'seeded runs': seedJson(scenario),
    strategy: scenario.defaultStrategy,
    fencing: scenario.defaultFencing,
    lease: scenario.leaseSeconds,
    heartbeat: scenario.heartbeatSeconds,
    'model calls per run': scenario.workSteps,
    'cost per model call': scenario.costPerCallCents,
    'claim attempts': scenario.maxClaimAttempts,
    faults: scenario.faults,
    schedule: scenario.script,
    rescuer: scenario.rescuer ?? null,
  };
}

/** What a copy's title ends in (and the picker's short name of a copy, pickerName). */
const COPY_SUFFIX = ' (copy)';

/**
 * The picker's name of a scenario someone wrote: its title where that fits, else its headline, the title
 * before the first colon (a long one cut after a word, with "…"), and " (copy)" where the title ends so. A
 * copy's whole title ("Edit a copy", or the one a reaper plays on) is cut off by a picker in a wide window,
 * let alone a phone's, and "(copy)" is the word that tells it from the built-in; the summary under the
 * picker names it in full.
 */
export function pickerName(title: string): string {
  if (title.length <= PICKER_NAME_CHARS) return title;
  const suffix = title.endsWith(COPY_SUFFIX) ? COPY_SUFFIX : '';
  const body = title.slice(0, title.length - suffix.length);
  const headline = body.split(': ')[0] || body;
  const room = PICKER_NAME_CHARS - suffix.length;
  const cut = headline.length <= room ? headline : `${headline.slice(0, room).replace(/\s+\S*$/, '')}…`;
  return `${cut}${suffix}`;
}

/** The longest copy's name measured whole in the picker of a 390 px wide window ("A pauses past its lease, then writes (copy)"). */
export const PICKER_NAME_CHARS = 43;

/**
 * A built-in scenario as a spec the editor opens ("Edit a copy"), which plays exactly as the built-in does
 * under every strategy and fencing; or, where the spec cannot carry one of its settings, which one. Its
 * words (the per-strategy summaries, the incident's report, the lesson's concepts) stay with the built-in.
 */
export function copySpecOf(scenario: Scenario): { spec: ScenarioSpec } | { reason: string } {
  const room = SCENARIO_LIMITS.titleChars - COPY_SUFFIX.length;
  const title = `${scenario.title.length > room ? `${scenario.title.slice(0, room - 1)}…` : scenario.title}${COPY_SUFFIX}`;
  const spec = { ...specOf(scenario), title };
  const built = scenarioFromSpec(spec);
  if (built.scenario === null) return { reason: `${scenario.title} cannot be copied into the editor: ${built.problems[0]?.message}.` };
  const want = behaviourOf(scenario);
  const got = behaviourOf(built.scenario);
  const lost = (Object.keys(want) as (keyof typeof want)[]).find((key) => JSON.stringify(want[key]) !== JSON.stringify(got[key]));
  if (lost !== undefined) return { reason: `${scenario.title} cannot be copied into the editor: it has no field for this scenario's ${lost}.` };
  return { spec };
}

/** The authored scenarios met in this context, by id. A learner meets a handful; the oldest are let go. */
const remembered = new Map<string, Scenario>();
const MAX_REMEMBERED = 32;

/** Makes an authored scenario findable by its id here (findScenario). */
export function rememberAuthored(scenario: Scenario): void {
  remembered.delete(scenario.id);
  remembered.set(scenario.id, scenario);
  while (remembered.size > MAX_REMEMBERED) remembered.delete(remembered.keys().next().value as string);
}

export function findAuthored(id: string): Scenario | undefined {
  return remembered.get(id);
}

export function isAuthoredId(id: string): boolean {
  return id.startsWith(AUTHORED_PREFIX);
}

/**
 * An authored scenario that came over a boundary (a request to a Web Worker): rebuilt from its spec, so
 * it is checked again and its id must match its content; then remembered.
 */
export function adoptAuthored(sent: Scenario): Scenario {
  const built = scenarioFromSpec(specOf(sent));
  if (built.scenario === null) throw new Error(`the authored scenario is not valid: ${built.problems[0]?.message}`);
  if (built.scenario.id !== sent.id) throw new Error(`the authored scenario "${sent.id}" does not match its content`);
  rememberAuthored(built.scenario);
  return built.scenario;
}

/** For a request to another context (a Web Worker): the authored scenario it names, which that context may not have met. */
export function authoredFor(scenarioId: string): { authored?: Scenario } {
  const scenario = isAuthoredId(scenarioId) ? findAuthored(scenarioId) : undefined;
  return scenario ? { authored: scenario } : {};
}
