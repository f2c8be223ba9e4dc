/**
 * A "view" is everything that fixes what the learner sees: scenario, settings, schedule and how many
 * steps are revealed. Links and saved places are views; both come from outside and are checked here.
 */
import { RECORDING_PLANS, type RecordingId, recordingIdFor, whyRecorded } from '../recordings';
import { defaultSettings, findScenario, SCENARIOS } from '../scenarios';
import { ISOLATION_WORDS, isIsolationLevel, type StrictIsolation } from '../sim/isolation';
import { formatToken, MAX_SCHEDULE_LENGTH, parseToken, ScheduleError } from '../sim/schedule';
import { STRATEGIES, STRATEGY_LABELS, type Settings, type Strategy } from '../sim/types';
import type { YourSqlTexts } from './your-sql';

export interface View {
  scenarioId: string;
  settings: Settings;
  schedule: string[];
  /** Trace steps revealed; null means "all of them". */
  position: number | null;
}

/** Raw, unchecked fields of a view, as text from a link or values from storage. */
export interface RawView {
  scenario?: unknown;
  strategy?: unknown;
  fencing?: unknown;
  /** A level above READ COMMITTED: the view is a trace recorded on a real server (recordings/). */
  isolation?: unknown;
  schedule?: unknown;
  step?: unknown;
}

export interface CheckedView {
  view: View;
  /** What was wrong, in plain words; empty when the view was fine. */
  problems: string[];
  /**
   * "Your SQL" statements the link or saved place carries, not yet analyzed: opening the view builds them
   * into `view.settings.definition` (or says why it could not).
   */
  yourSql?: YourSqlTexts;
}

export function defaultView(scenarioId: string = SCENARIOS[0]!.id): View {
  const scenario = findScenario(scenarioId) ?? SCENARIOS[0]!;
  return { scenarioId: scenario.id, settings: defaultSettings(scenario), schedule: [], position: 0 };
}

/** A recording's view before its first step: its scenario, claim and level, with the scenario's fencing (as recorded). */
export function recordingView(id: RecordingId): View {
  const plan = RECORDING_PLANS.find((candidate) => candidate.id === id);
  if (!plan) throw new Error(`there is no recording "${id}"`);
  const { fencing } = defaultView(plan.scenarioId).settings;
  return { scenarioId: plan.scenarioId, settings: { strategy: plan.strategy, fencing, isolation: plan.isolation }, schedule: [], position: 0 };
}

/** The lab's start: its first scenario, with that scenario's own settings, before any step. */
export function isStartView(view: View): boolean {
  const start = defaultView();
  return (
    view.scenarioId === start.scenarioId &&
    view.schedule.length === 0 &&
    view.settings.definition === undefined &&
    view.settings.strategy === start.settings.strategy &&
    view.settings.fencing === start.settings.fencing
  );
}

/** Shows a piece of untrusted text safely short; React escapes it, this keeps notices readable. */
export function quote(value: unknown): string {
  const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  const flat = text.replace(/\s+/g, ' ');
  return `"${flat.length > 40 ? `${flat.slice(0, 40)}…` : flat}"`;
}

/** Checks every field; whatever is wrong is replaced by the scenario's default and named in `problems`. */
export function checkView(raw: RawView): CheckedView {
  const problems: string[] = [];
  if (raw.scenario === undefined) {
    problems.push('It names no scenario, so the lab opened the first one.');
    return { view: defaultView(), problems };
  }
  const scenario = typeof raw.scenario === 'string' ? findScenario(raw.scenario) : undefined;
  if (!scenario) {
    problems.push(
      `There is no scenario ${quote(raw.scenario)}, so the lab opened "${SCENARIOS[0]!.title}". The scenarios are: ${SCENARIOS.map((s) => s.id).join(', ')}.`,
    );
    return { view: defaultView(), problems };
  }
  const defaults = defaultSettings(scenario);
  let strategy: Strategy = defaults.strategy;
  if (raw.strategy !== undefined) {
    if (typeof raw.strategy === 'string' && (STRATEGIES as readonly string[]).includes(raw.strategy)) strategy = raw.strategy as Strategy;
    else
      problems.push(`There is no strategy ${quote(raw.strategy)}; the lab used "${STRATEGY_LABELS[strategy]}". The strategies are: ${STRATEGIES.join(', ')}.`);
  }
  let fencing = defaults.fencing;
  if (raw.fencing !== undefined) {
    const value = parseSwitch(raw.fencing);
    if (value === null) problems.push(`Fencing must be on or off, not ${quote(raw.fencing)}; the lab used ${fencing ? 'on' : 'off'}.`);
    else fencing = value;
  }
  const isolation = checkIsolation(raw.isolation, scenario.id, strategy, problems);
  const schedule = checkSchedule(raw.schedule, problems);
  const position = checkPosition(raw.step, problems);
  return { view: { scenarioId: scenario.id, settings: { strategy, fencing, ...(isolation ? { isolation } : {}) }, schedule, position }, problems };
}

/**
 * A level above READ COMMITTED, where a trace of this scenario and claim was recorded at it on a real
 * server (the page shows that recording); otherwise READ COMMITTED, and `problems` says why.
 */
function checkIsolation(raw: unknown, scenarioId: string, strategy: Strategy, problems: string[]): StrictIsolation | undefined {
  if (raw === undefined || raw === 'read-committed') return undefined;
  if (typeof raw !== 'string' || !isIsolationLevel(raw)) {
    problems.push(`There is no isolation level ${quote(raw)}; the lab used READ COMMITTED.`);
    return undefined;
  }
  const level = raw as StrictIsolation;
  if (recordingIdFor(scenarioId, { strategy, fencing: false, isolation: level }) !== null) return level;
  problems.push(`No trace of this scenario and claim was recorded at ${ISOLATION_WORDS[level]}, and ${whyRecorded(level)}; the lab used READ COMMITTED.`);
  return undefined;
}

function parseSwitch(value: unknown): boolean | null {
  if (value === true || value === false) return value;
  if (typeof value !== 'string') return null;
  if (['on', '1', 'true', 'yes'].includes(value.toLowerCase())) return true;
  if (['off', '0', 'false', 'no'].includes(value.toLowerCase())) return false;
  return null;
}

/** The valid beginning of a schedule: tokens up to the first one that is not a schedule step. */
function checkSchedule(raw: unknown, problems: string[]): string[] {
  if (raw === undefined || raw === '') return [];
  const parts = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : null;
  if (parts === null) {
    problems.push('The schedule is not a list of steps, so the lab started from the beginning.');
    return [];
  }
  const tokens: string[] = [];
  if (parts.length > MAX_SCHEDULE_LENGTH) {
    problems.push(`The schedule has ${parts.length} steps; the lab replays at most ${MAX_SCHEDULE_LENGTH}, so it kept the first ${MAX_SCHEDULE_LENGTH}.`);
  }
  for (const [index, part] of parts.slice(0, MAX_SCHEDULE_LENGTH).entries()) {
    try {
      if (typeof part !== 'string') throw new ScheduleError(`${quote(part)} is not a schedule step`);
      tokens.push(formatToken(parseToken(part)));
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
      problems.push(`Step ${index + 1} of the schedule is wrong: ${error.message}. The lab kept the ${index} step${index === 1 ? '' : 's'} before it.`);
      break;
    }
  }
  return tokens;
}

function checkPosition(raw: unknown, problems: string[]): number | null {
  if (raw === undefined || raw === 'end') return null;
  const value = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d{1,6}$/.test(raw) ? Number(raw) : Number.NaN;
  if (typeof raw === 'string' && /^\d{7,}$/.test(raw)) {
    problems.push(`It asks for step ${quote(raw)}, far beyond the end of any schedule; the lab shows the last step.`);
    return null;
  }
  if (!Number.isInteger(value) || value < 0) {
    problems.push(`The step to show must be a whole number, not ${quote(raw)}; the lab shows the last step.`);
    return null;
  }
  return value;
}

/** After the engine replayed a view: the position made to fit the trace, with a problem if it did not. */
export function fitPosition(position: number | null, stepCount: number, problems: string[]): number {
  if (position === null) return stepCount;
  if (position > stepCount) {
    problems.push(`It asks for step ${position}, but this schedule has ${stepCount} step${stepCount === 1 ? '' : 's'}; the lab shows the last one.`);
    return stepCount;
  }
  return position;
}
