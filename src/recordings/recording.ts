/**
 * A trace recorded on a real PostgreSQL server (see plans.ts): its shape, the check that a file still has
 * that shape, and the words the page labels it with. The page steps through it like any trace, but never
 * runs it: a level above READ COMMITTED needs two snapshots at once, which PGlite's one session cannot hold.
 */
import { findScenario } from '../scenarios';
import { ISOLATION_WORDS, isIsolationLevel, PGLITE_HAS_ONE_SESSION, type StrictIsolation } from '../sim/isolation';
import { STRATEGIES, type Anomaly, type RunRow, type Settings, type TraceStep, type WorkerState } from '../sim/types';
import type { RecordingPlan } from './plans';

/** The files' format: a file that says another was written for another reader. */
export const RECORDING_FORMAT = 'lease-lab-recording/1';

export interface Recording {
  format: typeof RECORDING_FORMAT;
  id: string;
  /** The server's version, as server_version gives it up to its first space ("15.18"). */
  serverVersion: string;
  scenarioId: string;
  settings: Settings & { isolation: StrictIsolation };
  /** Every token the server played, the finishing ones included: the trace's schedule. */
  schedule: string[];
  /** The state before the first step: the seeded runs table and fresh workers. */
  initialRuns: RunRow[];
  initialWorkers: WorkerState[];
  /** The steps as the engine recorded them on the server, the SQL as it ran and the server's answers. */
  steps: TraceStep[];
  /** The anomalies the run ended with. */
  anomalies: Anomaly[];
}

/** What the page needs of a recording beside its steps: where it ran and its whole schedule (the engine sends it). */
export type RecordedSummary = Pick<Recording, 'serverVersion' | 'schedule'>;

/** The label: at which level and where the trace ran, and that it did not run here. */
export function recordedOn(recording: Pick<Recording, 'serverVersion' | 'settings'>): string {
  return `Recorded at ${ISOLATION_WORDS[recording.settings.isolation]} on PostgreSQL ${recording.serverVersion}, not run in your browser`;
}

/** Why the page shows a recording for this level instead of running it. */
export function whyRecorded(level: StrictIsolation): string {
  return `${PGLITE_HAS_ONE_SESSION}, so ${ISOLATION_WORDS[level]} cannot run here`;
}

/** The command that plays the recording's claim at its level on a server, from any schedule. */
export function serverCommand(recording: Pick<Recording, 'scenarioId' | 'settings'>): string {
  return `npm run sim -- run ${recording.scenarioId} --strategy ${recording.settings.strategy} --isolation ${recording.settings.isolation} --db postgres://…`;
}

/** Why a move off the recorded schedule cannot happen here, as the rest of a sentence. */
export function offTheRecording(recording: Pick<Recording, 'scenarioId' | 'settings' | 'serverVersion'>, next: string | undefined): string {
  const where = next === undefined ? 'the recording has ended' : `the recording's next step is "${next}"`;
  return `this trace was recorded on PostgreSQL ${recording.serverVersion} and ${where}; another move needs a new run on a server (${serverCommand(recording)})`;
}

class RecordingDrift extends Error {}

function fail(id: string, what: string): never {
  throw new RecordingDrift(`recording ${id}: ${what}; record it again with npm run record-isolation`);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

const STEP_FIELDS: Record<string, (value: unknown) => boolean> = {
  index: Number.isInteger,
  token: (value) => typeof value === 'string',
  tokenIndex: Number.isInteger,
  actor: (value) => typeof value === 'string',
  action: (value) => typeof value === 'string',
  sqlId: (value) => value === null || typeof value === 'string',
  sql: (value) => value === null || typeof value === 'string',
  params: Array.isArray,
  outcome: (value) => value === null || (isObject(value) && ['ok', 'error', 'blocked'].includes(String(value.status))),
  verdict: (value) => ['ok', 'empty', 'rejected', 'error', 'blocked', 'event'].includes(String(value)),
  runId: (value) => value === null || Number.isInteger(value),
  clockSeconds: (value) => typeof value === 'number',
  facts: Array.isArray,
  note: (value) => typeof value === 'string',
  engineFact: (value) => value === null || isObject(value),
  engineNote: (value) => value === null || typeof value === 'string',
  resumed: (value) => typeof value === 'boolean',
  staleWrite: (value) => value === null || isObject(value),
  workers: Array.isArray,
  runs: Array.isArray,
  locks: Array.isArray,
  anomalies: Array.isArray,
};

/**
 * The file as a Recording of `plan`, or an error naming what drifted: another format, another plan's
 * scenario, claim or level, a schedule that does not start with the plan's, or a step missing a field
 * the page reads (or with one it does not know).
 */
export function parseRecording(raw: unknown, plan: RecordingPlan): Recording {
  const id = plan.id;
  if (!isObject(raw)) fail(id, 'not a JSON object');
  if (raw.format !== RECORDING_FORMAT) fail(id, `its format is ${JSON.stringify(raw.format)}, not ${RECORDING_FORMAT}`);
  if (raw.id !== id) fail(id, `it names itself ${JSON.stringify(raw.id)}`);
  if (typeof raw.serverVersion !== 'string' || !/^\d+(\.\d+)?$/.test(raw.serverVersion)) fail(id, 'no server version');
  if (raw.scenarioId !== plan.scenarioId || !findScenario(plan.scenarioId))
    fail(id, `its scenario is ${JSON.stringify(raw.scenarioId)}, not ${plan.scenarioId}`);
  const settings = raw.settings;
  if (!isObject(settings)) fail(id, 'no settings');
  if (settings.strategy !== plan.strategy || !STRATEGIES.includes(plan.strategy))
    fail(id, `its claim is ${JSON.stringify(settings.strategy)}, not ${plan.strategy}`);
  if (typeof settings.isolation !== 'string' || !isIsolationLevel(settings.isolation) || settings.isolation !== plan.isolation) {
    fail(id, `its level is ${JSON.stringify(settings.isolation)}, not ${plan.isolation}`);
  }
  if (typeof settings.fencing !== 'boolean') fail(id, 'its fencing is not on or off');
  if (Object.keys(settings).some((key) => !['strategy', 'fencing', 'isolation'].includes(key))) fail(id, 'its settings have a field the page does not know');
  const schedule = raw.schedule;
  if (!isStringList(schedule)) fail(id, 'no schedule');
  const given = plan.schedule === 'script' ? [] : plan.schedule;
  if (given.some((token, index) => schedule[index] !== token)) fail(id, `its schedule does not start with ${given.join(',')}`);
  if (!Array.isArray(raw.initialRuns) || !Array.isArray(raw.initialWorkers) || !Array.isArray(raw.anomalies)) fail(id, 'no initial state or anomalies');
  if (!Array.isArray(raw.steps) || raw.steps.length === 0) fail(id, 'no steps');
  raw.steps.forEach((step: unknown, index) => {
    if (!isObject(step)) fail(id, `step ${index} is not an object`);
    for (const [field, valid] of Object.entries(STEP_FIELDS)) if (!valid(step[field])) fail(id, `step ${index} has no valid ${field}`);
    const unknown = Object.keys(step).find((field) => !(field in STEP_FIELDS));
    if (unknown) fail(id, `step ${index} has a field the page does not know: ${unknown}`);
    if (step.index !== index) fail(id, `step ${index} says it is step ${String(step.index)}`);
    if (schedule[step.tokenIndex as number] !== step.token) fail(id, `step ${index}'s token is not the schedule's token ${String(step.tokenIndex)}`);
  });
  return raw as unknown as Recording;
}
