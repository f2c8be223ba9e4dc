import { parseToken, ScheduleError } from '../sim/schedule';
import type { Scenario } from '../sim/types';

/** What every scenario must say; everything else has a default (see SCENARIO_DEFAULTS). */
type Stated = 'id' | 'title' | 'summary' | 'script' | 'concepts';
/** Fields a scenario has only when it says so. */
type Optional = 'summaries' | 'incident';

export type ScenarioDraft = Pick<Scenario, Stated> & Partial<Omit<Scenario, Stated>>;

/**
 * The lab's usual setup: workers A and B, one pending run 123 at lease generation 17, the atomic claim with
 * fencing, a 60 s lease, no heartbeat, two model calls of 40 cents, three claim attempts, no faults.
 */
const SCENARIO_DEFAULTS: Omit<Scenario, Stated | Optional> = {
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
  };
  const problem = scenarioProblem(scenario);
  if (problem) throw new ScheduleError(`scenario "${scenario.id}": ${problem}`);
  return scenario;
}

/** The first thing wrong with a scenario, in the words the simulation uses for the same mistake. */
function scenarioProblem(scenario: Scenario): string | null {
  const workerIds = scenario.workers.map((worker) => worker.id);
  for (const [index, id] of workerIds.entries()) {
    const token = tryParse(id);
    if (typeof token === 'string' || token.kind !== 'step' || token.worker !== id) return `worker "${id}" is not named by one capital letter (A, B, C…)`;
    if (workerIds.indexOf(id) !== index) return `two workers are named ${id}`;
  }
  const runIds = scenario.runs.map((run) => run.runId);
  for (const [index, id] of runIds.entries()) {
    if (runIds.indexOf(id) !== index) return `two runs have id ${id}`;
  }
  // The same sentences as Simulation.apply's, for a schedule step naming a worker or a run that is not there.
  const noWorker = (id: string) => (workerIds.includes(id) ? null : `this scenario has no worker ${id}; its workers are ${workerIds.join(', ')}`);
  const noRun = (id: number) => (runIds.includes(id) ? null : `there is no run ${id}; the runs are ${runIds.join(', ')}`);
  for (const [index, text] of scenario.script.entries()) {
    const token = tryParse(text);
    const why = typeof token === 'string' ? token : 'worker' in token ? noWorker(token.worker) : 'runId' in token ? noRun(token.runId) : null;
    // As runSchedule names a step: its position counted from 1 and the token.
    if (why) return `step ${index + 1} (${text}): ${why}`;
  }
  for (const [index, fault] of scenario.faults.entries()) {
    const why = noWorker(fault.worker);
    if (why) return `fault ${index + 1} (${fault.kind}): ${why}`;
  }
  const incident = scenario.incident;
  if (incident && (scenario.defaultStrategy !== incident.queue || scenario.defaultFencing)) {
    return `an incident opens under its queue's own guard: strategy ${incident.queue}, fencing off`;
  }
  return null;
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
