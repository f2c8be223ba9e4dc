/**
 * `--scenario-link '<link>'` and `--scenario-file FILE`: a scenario someone wrote in the lab's editor, given
 * to the CLI in place of a built-in scenario's name. The link is the one the page shows (the whole URL, or
 * only its fragment) and brings its strategy, fencing and schedule along; the file is the scenario's JSON
 * (as the editor's "Download JSON" writes it). Both are checked exactly as the page checks them.
 */
import { readFileSync, statSync } from 'node:fs';
import { clip } from '../sim/echo';
import { decodeScenarioParam, type DecodedScenario, MAX_SCENARIO_CHARS, SCENARIO_KEY, scenarioFromValue } from '../scenarios/link';
import { formatToken, MAX_SCHEDULE_LENGTH, parseToken, ScheduleError } from '../sim/schedule';
import { type Scenario, type Settings, STRATEGIES, type Strategy } from '../sim/types';

export const SCENARIO_OPTIONS = {
  'scenario-link': { type: 'string' },
  'scenario-file': { type: 'string' },
} as const;

class ScenarioOptionError extends Error {
  readonly userFacing = true;
}

/** A link's length the CLI reads at most: an authored scenario and the longest schedule beside it. */
const MAX_LINK_CHARS = MAX_SCENARIO_CHARS + 20 * MAX_SCHEDULE_LENGTH;
/** A scenario file's size at most: far more than the longest scenario's JSON. */
const MAX_FILE_BYTES = 64 * 1024;

export interface AuthoredChoice {
  scenario: Scenario;
  settings: Settings;
  /** The schedule the link carried; empty for a file. */
  schedule: string[];
  /**
   * The link's strategy is someone's own SQL (`strategy=your-sql`, as check's witness links are): the
   * statements come with --claim FILE (and --heartbeat, --work, --complete), as check printed them.
   */
  yourSql: boolean;
}

/** The page's strategy name for statements someone wrote (store/your-sql-link.ts writes it into links). */
export const YOUR_SQL = 'your-sql';

/** The authored scenario the options give, null when they give none; a one-line error when it is wrong. */
export function scenarioFromOptions(values: { 'scenario-link'?: unknown; 'scenario-file'?: unknown }): AuthoredChoice | null {
  const link = values['scenario-link'];
  const file = values['scenario-file'];
  if (link !== undefined && file !== undefined) throw new ScenarioOptionError('--scenario-link and --scenario-file cannot go together: give the scenario once');
  if (typeof link === 'string') return fromLink(link);
  if (typeof file === 'string') return fromFile(file);
  return null;
}

function fromLink(text: string): AuthoredChoice {
  const fail = (why: string): never => {
    throw new ScenarioOptionError(`--scenario-link: ${why}`);
  };
  if (text.length > MAX_LINK_CHARS) fail(`the link is ${text.length} characters long, far more than any scenario needs`);
  const hash = text.indexOf('#');
  const fragment = hash < 0 ? text : text.slice(hash + 1);
  const parts = new Map<string, string>();
  for (const pair of fragment.split('&')) {
    if (pair === '') continue;
    const eq = pair.indexOf('=');
    const key = safeDecode(eq < 0 ? pair : pair.slice(0, eq));
    const value = safeDecode(eq < 0 ? '' : pair.slice(eq + 1));
    if (key === null || value === null) fail(`part of the link is not properly encoded (${clip(pair)})`);
    parts.set(key!, value!);
  }
  const encoded = parts.get(SCENARIO_KEY);
  if (encoded === undefined) fail(`the link carries no scenario someone wrote (no "${SCENARIO_KEY}="); for a built-in scenario give its name instead`);
  const decoded = deepSafe(() => decodeScenarioParam(encoded!), fail);
  if (decoded.scenario === null) fail(decoded.problem.replace(/^The scenario in the link/, 'the scenario').replace(/\.$/, ''));
  const scenario = (decoded as Extract<DecodedScenario, { problem: null }>).scenario;
  const settings: Settings = { strategy: scenario.defaultStrategy, fencing: scenario.defaultFencing };
  const strategy = parts.get('strategy');
  const yourSql = strategy === YOUR_SQL;
  if (strategy !== undefined && !yourSql) {
    if (!(STRATEGIES as readonly string[]).includes(strategy)) fail(`there is no strategy "${clip(strategy)}"; the strategies are ${STRATEGIES.join(', ')}`);
    settings.strategy = strategy as Strategy;
  }
  const fencing = parts.get('fencing');
  if (fencing !== undefined) {
    if (fencing !== 'on' && fencing !== 'off') fail(`fencing must be on or off, not "${clip(fencing)}"`);
    settings.fencing = fencing === 'on';
  }
  const schedule: string[] = [];
  const steps = parts.get('schedule') ?? '';
  const tokens = steps === '' ? [] : steps.split(',');
  if (tokens.length > MAX_SCHEDULE_LENGTH) fail(`the schedule has ${tokens.length} steps; the lab replays at most ${MAX_SCHEDULE_LENGTH}`);
  for (const [index, token] of tokens.entries()) {
    try {
      schedule.push(formatToken(parseToken(token)));
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
      fail(`step ${index + 1} of the schedule is wrong: ${error.message}`);
    }
  }
  return { scenario, settings, schedule, yourSql };
}

function fromFile(path: string): AuthoredChoice {
  const fail = (why: string): never => {
    throw new ScenarioOptionError(`--scenario-file ${clip(path)}: ${why}`);
  };
  let text = '';
  try {
    const stat = statSync(path);
    if (!stat.isFile()) fail('not a file');
    if (stat.size > MAX_FILE_BYTES) fail(`${stat.size} bytes, far more than any scenario (at most ${MAX_FILE_BYTES})`);
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if (error instanceof ScenarioOptionError) throw error;
    const code = (error as { code?: string }).code;
    fail(code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? 'unknown error'})`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    if (error instanceof RangeError) fail('it is nested too deeply to be a scenario');
    fail(`not valid JSON (${(error as Error).message})`);
  }
  const decoded = deepSafe(() => scenarioFromValue(value, (why) => fail(why)), fail);
  const scenario = (decoded as Extract<DecodedScenario, { problem: null }>).scenario;
  return { scenario, settings: { strategy: scenario.defaultStrategy, fencing: scenario.defaultFencing }, schedule: [], yourSql: false };
}

/** Reading a scenario nested thousands deep runs out of stack: that is the input's problem, said in one line. */
function deepSafe<T>(read: () => T, fail: (why: string) => never): T {
  try {
    return read();
  } catch (error) {
    if (error instanceof RangeError) fail('it is nested too deeply to be a scenario');
    throw error;
  }
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

export { clip };

/** A path printed whole (in a report, in a command to copy): its control characters shown as "?", so none reaches the terminal. */
export function printablePath(path: string): string {
  return [...path].map((char) => (isControl(char.codePointAt(0)!) ? '?' : char)).join('');
}

/** C0 and C1 control characters, DEL, and the line and paragraph separators. */
function isControl(code: number): boolean {
  return code < 0x20 || (code >= 0x7f && code <= 0x9f) || code === 0x2028 || code === 0x2029;
}
