import { MAX_SCHEDULE_LENGTH, parseToken, ScheduleError } from '../sim/schedule';
import type { Scenario } from '../sim/types';

/** What every scenario must say; everything else has a default (see SCENARIO_DEFAULTS). */
type Stated = 'id' | 'title' | 'summary' | 'script' | 'concepts';
/** Fields a scenario has only when it says so. */
type Optional = 'summaries' | 'incident' | 'rescuer';

export type ScenarioDraft = Pick<Scenario, Stated> & Partial<Omit<Scenario, Stated>>;

/**
 * The lab's usual setup: workers A and B, one pending run 123 at lease generation 17, the atomic claim with
 * fencing, a 60 s lease, no heartbeat, two model calls of 40 cents, three claim attempts, no faults.
 * The one place these values are written (defineScenario copies them, never shares them); read, never change.
 */
export const SCENARIO_DEFAULTS: Readonly<Omit<Scenario, Stated | Optional>> = {
  workers: [{ id: 'A' }, { id: 'B' }],
  runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
  defaultStrategy: 'skip-locked',
  defaultFencing: true,
  leaseSeconds: 60,
  heartbeatSeconds: null,
  workSteps: 2,
  costPerCallCents: 40,
  maxClaimAttempts: 3,
  faults: [],
};

/**
 * A scenario from what differs from the defaults, checked as the simulation would check it at the first
 * step that goes wrong (a script step it cannot parse, a worker or run the scenario lacks), but when the
 * module loads, so a mistake in a scenario fails every test instead of one learner's step.
 */
export function defineScenario(draft: ScenarioDraft): Scenario {
  const filled = { ...structuredClone(SCENARIO_DEFAULTS), ...structuredClone(draft) };
  // Spelled out in the order Scenario declares its fields: scenarios serialise byte for byte as before.
  const scenario: Scenario = {
    id: filled.id,
    title: filled.title,
    summary: filled.summary,
    ...(filled.summaries === undefined ? {} : { summaries: filled.summaries }),
    workers: filled.workers,
    runs: filled.runs,
    defaultStrategy: filled.defaultStrategy,
    defaultFencing: filled.defaultFencing,
    leaseSeconds: filled.leaseSeconds,
    heartbeatSeconds: filled.heartbeatSeconds,
    workSteps: filled.workSteps,
    costPerCallCents: filled.costPerCallCents,
    maxClaimAttempts: filled.maxClaimAttempts,
    faults: filled.faults,
    script: filled.script,
    concepts: filled.concepts,
    ...(filled.incident === undefined ? {} : { incident: filled.incident }),
    ...(filled.rescuer === undefined ? {} : { rescuer: filled.rescuer }),
  };
  const problem = scenarioProblem(scenario);
  if (problem) throw new ScheduleError(`scenario "${scenario.id}": ${problem}`);
  return scenario;
}

/**
 * The bounds of a scenario the lab can show: every built-in one is inside them, and an authored one
 * (scenarios/authored.ts) is held to the same. Beyond them the timeline, the worker cards or the explorer
 * would have more than they are made for.
 */
export const SCENARIO_LIMITS = {
  titleChars: 80,
  summaryLines: 2,
  summaryLineChars: 120,
  minWorkers: 2,
  maxWorkers: 4,
  // A worker's name as delayed_job makes one: "host:<hostname> pid:<pid>".
  workerNameChars: 40,
  maxRuns: 8,
  maxRunId: 2_147_483_647,
  maxSeconds: 86_400,
  // A day: long enough for a queue whose lock lasts hours (graphile-worker's 4-hour rule in its incident).
  maxLeaseSeconds: 86_400,
  maxCostCents: 10_000_000,
  maxFaults: 8,
  // Far more model calls than any built-in or swarm scenario makes (1 to 3); the worker cards show each.
  maxWorkSteps: 10,
  maxScriptSteps: MAX_SCHEDULE_LENGTH,
} as const;

/** A tenant is a short plain name (it is shown on the runs table and stored in runs.tenant). */
const TENANT_PATTERN = /^[a-z0-9][a-z0-9_-]{0,31}$/;

/** One thing wrong with a scenario, and the field it is about (a path such as "runs.2.runId"). */
export interface ScenarioProblem {
  field: string;
  message: string;
}

/** The first thing wrong with a scenario, in the words the simulation uses for the same mistake. */
function scenarioProblem(scenario: Scenario): string | null {
  return scenarioProblems(scenario)[0]?.message ?? null;
}

/** A wrong value as a notice shows it; a field left empty (NaN in a form) is said to be empty. */
const shown = (value: unknown): string => (typeof value === 'number' && Number.isNaN(value) ? 'empty' : String(value));

const isWhole = (value: unknown, min: number, max: number): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;

/** Everything wrong with a scenario, one problem per field, in the order Scenario declares its fields. */
export function scenarioProblems(scenario: Scenario): ScenarioProblem[] {
  const problems: ScenarioProblem[] = [];
  const say = (field: string, message: string) => problems.push({ field, message });
  const L = SCENARIO_LIMITS;
  if (typeof scenario.title !== 'string' || scenario.title.trim() === '') say('title', 'the title is empty');
  else if (scenario.title.length > L.titleChars) say('title', `the title has ${scenario.title.length} characters; at most ${L.titleChars} fit`);
  for (const [which, text] of [
    ['summary', scenario.summary],
    ...Object.entries(scenario.summaries ?? {}).map(([strategy, line]) => [`summaries.${strategy}`, line]),
  ] as const) {
    if (typeof text !== 'string' || text.trim() === '') {
      say(which, 'the description is empty');
      continue;
    }
    const lines = text.split('\n');
    if (lines.length > L.summaryLines) say(which, `the description has ${lines.length} lines; it is shown in ${L.summaryLines}`);
    for (const [index, line] of lines.slice(0, L.summaryLines).entries()) {
      if (line.length > L.summaryLineChars)
        say(which, `line ${index + 1} of the description has ${line.length} characters; at most ${L.summaryLineChars} fit on a line`);
    }
  }
  const workerIds = scenario.workers.map((worker) => worker.id);
  for (const [index, id] of workerIds.entries()) {
    const token = tryParse(id);
    if (typeof token === 'string' || token.kind !== 'step' || token.worker !== id)
      say('workers', `worker "${id}" is not named by one capital letter (A, B, C…)`);
    else if (workerIds.indexOf(id) !== index) say('workers', `two workers are named ${id}`);
  }
  for (const worker of scenario.workers) {
    if (worker.name !== undefined && (typeof worker.name !== 'string' || worker.name.trim() === '' || worker.name.length > L.workerNameChars))
      say(`workers.${worker.id}.name`, `worker ${worker.id}'s name must be 1 to ${L.workerNameChars} characters, not ${JSON.stringify(worker.name)}`);
  }
  for (const worker of scenario.workers) {
    if (worker.process !== undefined && (typeof worker.process !== 'string' || worker.process.trim() === '' || worker.process.length > L.workerNameChars))
      say(
        `workers.${worker.id}.process`,
        `worker ${worker.id}'s process must be named by 1 to ${L.workerNameChars} characters, not ${JSON.stringify(worker.process)}`,
      );
    // The fix's look is in the memory of a process: a lane of none has no other lane to find running the run.
    if (worker.recovery?.skipsActive && worker.process === undefined)
      say(`workers.${worker.id}.recovery`, `worker ${worker.id} looks in its process's memory before recovering: make it a lane of a process`);
  }
  for (const worker of scenario.workers) {
    if (worker.stuck && scenario.heartbeatSeconds === null)
      say(`workers.${worker.id}.stuck`, `worker ${worker.id} is stuck, which shows only in its heartbeats: turn heartbeats on`);
  }
  if (workerIds.length < L.minWorkers || workerIds.length > L.maxWorkers)
    say('workers', `a scenario has ${L.minWorkers} to ${L.maxWorkers} workers, not ${workerIds.length}`);
  if (scenario.runs.length === 0 || scenario.runs.length > L.maxRuns) say('runs', `a scenario seeds 1 to ${L.maxRuns} runs, not ${scenario.runs.length}`);
  const runIds = scenario.runs.map((run) => run.runId);
  for (const [index, run] of scenario.runs.entries()) {
    const at = `runs.${index}`;
    if (!isWhole(run.runId, 1, L.maxRunId))
      say(`${at}.runId`, `run ${index + 1}: its id must be a whole number from 1 to ${L.maxRunId}, not ${shown(run.runId)}`);
    else if (runIds.indexOf(run.runId) !== index) say(`${at}.runId`, `two runs have id ${run.runId}`);
    if (run.tenant !== undefined && (typeof run.tenant !== 'string' || !TENANT_PATTERN.test(run.tenant))) {
      say(
        `${at}.tenant`,
        `run ${index + 1}: a tenant is 1 to 32 small letters, digits, "-" or "_", starting with a letter or digit, not ${JSON.stringify(run.tenant)}`,
      );
    }
    if (run.costCents !== undefined && !isWhole(run.costCents, 0, L.maxCostCents))
      say(`${at}.costCents`, `run ${index + 1}: its cost must be a whole number of cents from 0 to ${L.maxCostCents}, not ${shown(run.costCents)}`);
    if (run.leaseGeneration !== undefined && !isWhole(run.leaseGeneration, 0, L.maxRunId))
      say(`${at}.leaseGeneration`, `run ${index + 1}: its lease generation must be a whole number from 0 to ${L.maxRunId}, not ${shown(run.leaseGeneration)}`);
    if (!isWhole(run.createdAtSeconds, -L.maxSeconds, 0))
      say(
        `${at}.createdAtSeconds`,
        `run ${index + 1}: it must be created a whole number of seconds from ${L.maxSeconds} to 0 before the start, not ${shown(-run.createdAtSeconds)}`,
      );
    if (run.leaseOwner != null && (typeof run.leaseOwner !== 'string' || run.leaseOwner.trim() === '' || run.leaseOwner.length > L.workerNameChars))
      say(
        `${at}.leaseOwner`,
        `run ${index + 1}: the name holding its lease must be 1 to ${L.workerNameChars} characters, not ${JSON.stringify(run.leaseOwner)}`,
      );
    if (run.leaseExpiresAtSeconds != null && !isWhole(run.leaseExpiresAtSeconds, -L.maxSeconds, L.maxSeconds))
      say(
        `${at}.leaseExpiresAtSeconds`,
        `run ${index + 1}: its lease must end a whole number of seconds from -${L.maxSeconds} to ${L.maxSeconds} from the start, not ${shown(run.leaseExpiresAtSeconds)}`,
      );
  }
  if (!isWhole(scenario.leaseSeconds, 1, L.maxLeaseSeconds))
    say('leaseSeconds', `the lease must be a whole number of seconds from 1 to ${L.maxLeaseSeconds}, not ${shown(scenario.leaseSeconds)}`);
  if (scenario.heartbeatSeconds !== null && !isWhole(scenario.heartbeatSeconds, 1, L.maxLeaseSeconds)) {
    say('heartbeatSeconds', `the heartbeat must be a whole number of seconds from 1 to ${L.maxLeaseSeconds}, or none, not ${shown(scenario.heartbeatSeconds)}`);
  }
  if (!isWhole(scenario.workSteps, 1, L.maxWorkSteps))
    say('workSteps', `a worker makes 1 to ${L.maxWorkSteps} model calls per run, not ${shown(scenario.workSteps)}`);
  const stallsAt = scenario.rescuer?.stallsAtSeconds;
  if (stallsAt !== undefined && !isWhole(stallsAt, 0, L.maxSeconds))
    say('rescuer.stallsAtSeconds', `the rescuer must stall a whole number of seconds from 0 to ${L.maxSeconds} after the start, not ${shown(stallsAt)}`);
  // The same sentences as Simulation.apply's, for a schedule step naming a worker or a run that is not there.
  const noWorker = (id: string) => (workerIds.includes(id) ? null : `this scenario has no worker ${id}; its workers are ${workerIds.join(', ')}`);
  const noRun = (id: number) => (runIds.includes(id) ? null : `there is no run ${id}; the runs are ${runIds.join(', ')}`);
  if (scenario.faults.length > L.maxFaults) say('faults', `a scenario has at most ${L.maxFaults} faults, not ${scenario.faults.length}`);
  for (const [index, fault] of scenario.faults.entries()) {
    const at = `faults.${index}`;
    const why = noWorker(fault.worker);
    if (why) say(`${at}.worker`, `fault ${index + 1} (${fault.kind}): ${why}`);
    if (!isWhole(fault.atSeconds, 0, L.maxSeconds))
      say(
        `${at}.atSeconds`,
        `fault ${index + 1} (${fault.kind}): its time must be a whole number of seconds from 0 to ${L.maxSeconds}, not ${shown(fault.atSeconds)}`,
      );
    if (fault.kind === 'pause' && !isWhole(fault.forSeconds, 1, L.maxSeconds)) {
      say(`${at}.forSeconds`, `fault ${index + 1} (pause): it must last a whole number of seconds from 1 to ${L.maxSeconds}, not ${shown(fault.forSeconds)}`);
    }
  }
  if (scenario.script.length > L.maxScriptSteps) say('script', `the schedule has ${scenario.script.length} steps; the lab replays at most ${L.maxScriptSteps}`);
  for (const [index, text] of scenario.script.slice(0, L.maxScriptSteps).entries()) {
    const token = tryParse(text);
    const why = typeof token === 'string' ? token : 'worker' in token ? noWorker(token.worker) : 'runId' in token ? noRun(token.runId) : null;
    // As runSchedule names a step: its position counted from 1 and the token.
    if (why) {
      say('script', `step ${index + 1} (${text}): ${why}`);
      break;
    }
  }
  const incident = scenario.incident;
  if (incident && (scenario.defaultStrategy !== incident.queue || scenario.defaultFencing)) {
    say('incident', `an incident opens under its queue's own guard: strategy ${incident.queue}, fencing off`);
  }
  return problems;
}

/** The token, or the schedule parser's message for why it is not one. */
function tryParse(text: string): ReturnType<typeof parseToken> | string {
  try {
    return parseToken(text);
  } catch (error) {
    if (error instanceof ScheduleError) return error.message;
    throw error;
  }
}
