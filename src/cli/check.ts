/**
 * `npm run sim -- check <scenario> --claim FILE`: someone's own claim statement, read by PostgreSQL's parser,
 * played over every schedule of a scenario on PGlite. Exit 1 when some schedule ends in a double claim,
 * duplicate execution or split ownership, 0 when none does; bad input (a file it cannot read, a syntax error, a shape the lab
 * cannot replay exactly) is an error with `userFacing` set, which main.ts prints as one line with exit 2.
 */
import { readFileSync, statSync } from 'node:fs';
import type { LabDatabase } from '../db/port';
import type { Exploration, OutcomeGroup } from '../engine/explore';
import { type AnalyzeError, analyzeStatement } from '../sql/analyze';
import type { Scenario, Settings, StatementOutcome } from '../sim/types';
import { CUSTOM_CLAIM_IDS, customClaimStrategy, customWrite, type WriteRole } from '../strategies/custom';
import type { LabStatement, StrategyDefinition } from '../strategies';

/** Far longer than any claim; the analyzer refuses past its own limit anyway. */
const MAX_FILE_BYTES = 1_000_000;

/**
 * The anomalies that make a claim unsafe: a run handed to a second worker while the first one's lease was
 * live, one run done twice, or a stale owner's write committed over the new owner's.
 */
export const UNSAFE_KINDS = ['double-claim', 'duplicate-execution', 'split-ownership'] as const;

/** "double claim, duplicate execution or split ownership". */
const UNSAFE_WORDS = `${UNSAFE_KINDS.slice(0, -1).join(', ')} or ${UNSAFE_KINDS.at(-1)}`.replace(/-/g, ' ');

class CheckInputError extends Error {
  readonly userFacing = true;
}

/** The claim file's text, or a one-line reason it cannot be read. */
function readClaimFile(path: string, flag = '--claim'): string {
  let size: number;
  try {
    const stat = statSync(path);
    if (!stat.isFile()) throw new CheckInputError(`${flag} ${path}: not a file`);
    size = stat.size;
  } catch (error) {
    if (error instanceof CheckInputError) throw error;
    const code = (error as { code?: string }).code;
    throw new CheckInputError(`${flag} ${path}: ${code === 'ENOENT' ? 'no such file' : `cannot read it (${code ?? 'unknown error'})`}`);
  }
  if (size > MAX_FILE_BYTES) throw new CheckInputError(`${flag} ${path}: ${size} bytes, far more than a claim statement (at most ${MAX_FILE_BYTES})`);
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new CheckInputError(`${flag} ${path}: cannot read it (${(error as { code?: string }).code ?? 'unknown error'})`);
  }
}

/** The strategy that claims with the file's statement, or a one-line error. */
export async function claimStrategyFromFile(path: string): Promise<{ definition: StrategyDefinition; summary: string }> {
  const text = readClaimFile(path);
  const analysis = await analyzeStatement(text, 'claim');
  if (!analysis.ok) throw new CheckInputError(analyzeErrorLine(path, analysis.error));
  const built = customClaimStrategy(text, analysis.shape, path);
  if (!built.ok) throw new CheckInputError(`${path}: refused: ${built.reason}`);
  const lock = analysis.shape.locks[0];
  const claim = built.definition.claim;
  const afterWait = claim.shape === 'one-statement' ? claim.claim.afterWait.kind : 'none';
  const words = afterWait === 'cannot-wait' ? 'never waits for a row lock its finder meets' : 'waits; after the wait it relocks the runs it had found, in order, and claims the first that still qualifies';
  const summary = `${lock ? `FOR ${lock.strength.toUpperCase()}${lock.wait === 'wait' ? '' : ` ${lock.wait.toUpperCase()}`} in the ${lock.where.kind === 'cte' ? `CTE ${lock.where.name}` : lock.where.kind}` : 'no locking clause'}: ${words}`;
  return { definition: built.definition, summary };
}

const WRITE_KEYS = { heartbeat: 'heartbeat', work: 'work', complete: 'complete' } as const satisfies Record<WriteRole, keyof StrategyDefinition>;

/** The definition with the statement of `path` as both its fenced and its unfenced write for `role`. */
export async function withWriteFromFile(definition: StrategyDefinition, role: WriteRole, path: string): Promise<StrategyDefinition> {
  const text = readClaimFile(path, `--${role}`);
  const analysis = await analyzeStatement(text, role);
  if (!analysis.ok) throw new CheckInputError(analyzeErrorLine(path, analysis.error));
  const built = customWrite(role, text, analysis.shape, path);
  if (!built.ok) throw new CheckInputError(`${path}: refused: ${built.reason}`);
  return { ...definition, label: `${definition.label}, your ${role} (${path})`, [WRITE_KEYS[role]]: { fenced: built.statement, unfenced: built.statement } };
}

/** The claim's strategy with each write given in `files` (by role) in place of the lab's. */
export async function withWritesFromFiles(definition: StrategyDefinition, files: Partial<Record<WriteRole, string>>): Promise<StrategyDefinition> {
  let result = definition;
  for (const role of Object.keys(WRITE_KEYS) as WriteRole[]) {
    const path = files[role];
    if (path !== undefined) result = await withWriteFromFile(result, role, path);
  }
  return result;
}

function analyzeErrorLine(path: string, error: AnalyzeError): string {
  if (error.kind === 'syntax') return `${path}:${error.line}:${error.column}: syntax error: ${error.message}`;
  if (error.kind === 'refused') return `${path}: refused (${error.refusal.id}): ${error.refusal.reason}`;
  return `${path}: ${error.message}`;
}

/**
 * The port, with two guards on a custom claim. One built as never waiting must never be found waiting (its
 * UPDATE met a row another worker holds that its finder did not lock): the engine would run it again once
 * the lock is free, which is not what PostgreSQL does. And a claim that took several runs at once: the lab's
 * worker follows one run per claim, so the others would sit claimed and unworked in a way the lab does not
 * model. In both cases the check stops and says so instead of guessing.
 */
export function guardCustomClaim(db: LabDatabase): LabDatabase {
  const executeClaim = db.executeClaim.bind(db);
  db.executeClaim = async (session, request): Promise<StatementOutcome> => {
    const outcome = await executeClaim(session, request);
    const statement: LabStatement = request.statement;
    if (statement.id !== CUSTOM_CLAIM_IDS.claim) return outcome;
    if (outcome.status === 'ok' && outcome.rowCount > 1) {
      throw new CheckInputError(
        `${statement.file ?? 'the claim'}: refused: one claim took ${outcome.rowCount} runs (${outcome.rows.map((row) => row.run_id).join(', ')}); the lab's worker follows one run per claim, so it cannot play what happens to the others`,
      );
    }
    if (outcome.status === 'blocked' && statement.afterWait.kind === 'cannot-wait') {
      throw new CheckInputError(
        `${statement.file ?? 'the claim'}: refused: its finder skips or fails on a locked row, but its UPDATE would still wait for a row another worker holds; the lab cannot replay that wait on PGlite: run it on a real server (live mode)`,
      );
    }
    return outcome;
  };
  return db;
}

export function isUnsafe(group: OutcomeGroup): boolean {
  return group.key.split(' ').some((part) => (UNSAFE_KINDS as readonly string[]).includes(part.split(':')[0]!));
}

/** Leaves the characters schedules are made of readable; escapes everything else (as the lab's own links do). */
function encodeValue(value: string): string {
  return encodeURIComponent(value).replace(/%2C/g, ',').replace(/%3A/g, ':').replace(/%2B/g, '+');
}

/** The lab's link to a witness, with the claim's text in `claim=` (the browser's "Your SQL" reads it). */
export function witnessLink(scenario: Scenario, settings: Settings, witness: readonly string[]): string {
  const claim = settings.definition?.claim;
  const text = claim?.shape === 'one-statement' ? claim.claim.text : null;
  const parts = [`scenario=${encodeValue(scenario.id)}`, `fencing=${settings.fencing ? 'on' : 'off'}`, `schedule=${encodeValue(witness.join(','))}`];
  if (text !== null) parts.push(`claim=${encodeValue(text)}`);
  return `#${parts.join('&')}`;
}

export interface CheckReport {
  scenario: string;
  claim: { file: string; summary: string; writes: Partial<Record<WriteRole, string>> };
  fencing: boolean;
  coverage: Exploration['coverage'];
  method: Exploration['method'];
  total: number;
  groups: (OutcomeGroup & { unsafe: boolean; link: string })[];
  unsafeSchedules: number;
  exitCode: 0 | 1;
}

export function checkReport(scenario: Scenario, settings: Settings, file: string, summary: string, result: Exploration, writes: Partial<Record<WriteRole, string>> = {}): CheckReport {
  const groups = result.groups.map((group) => ({ ...group, unsafe: isUnsafe(group), link: witnessLink(scenario, settings, group.witness) }));
  const unsafeSchedules = groups.filter((group) => group.unsafe).reduce((sum, group) => sum + group.count, 0);
  return {
    scenario: scenario.id,
    claim: { file, summary, writes },
    fencing: settings.fencing,
    coverage: result.coverage,
    method: result.method,
    total: result.total,
    groups,
    unsafeSchedules,
    exitCode: unsafeSchedules > 0 ? 1 : 0,
  };
}

export function formatCheck(report: CheckReport, seconds: number): string {
  const lines: string[] = [];
  lines.push(`${report.scenario}: all ${report.total} schedules with your claim ${report.claim.file}; fencing ${report.fencing ? 'on' : 'off'} (explored ${report.method} on PGlite in ${seconds.toFixed(2)} s)`);
  lines.push(`claim: ${report.claim.summary}`);
  lines.push('');
  for (const group of report.groups) {
    lines.push(`${String(group.count).padStart(7)} of ${report.total}  ${group.label}${group.unsafe ? '   <- unsafe' : ''}`);
    lines.push(`         shortest: --schedule ${group.witness.join(',')}`);
    lines.push(`         link: ${group.link}`);
  }
  lines.push('');
  lines.push(`replay a witness step by step: npm run sim -- run ${report.scenario} --claim ${report.claim.file}${Object.entries(report.claim.writes).map(([role, path]) => ` --${role} ${path}`).join('')} --fencing ${report.fencing ? 'on' : 'off'} --schedule …`);
  lines.push('(the links carry your claim in claim=, for the page\'s "Your SQL"; the page does not read it yet)');
  lines.push(
    report.exitCode === 1
      ? `UNSAFE: ${report.unsafeSchedules} of ${report.total} schedules end in ${UNSAFE_WORDS} (exit 1)`
      : `safe here: no schedule ends in ${UNSAFE_WORDS} (exit 0)`,
  );
  return lines.join('\n');
}
