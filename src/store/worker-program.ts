/**
 * A worker's whole program as its strategy runs it, with its instruction pointer: the claim, then the
 * loop of cancel check, heartbeat, model call and completion, each statement named by its file and first
 * line, with the few lines of loop around them. Every statement line is the statement planAction gives for
 * its action, and the pointer is nextAction's choice (or the action a blocked worker waits in), so the line
 * the card highlights is always the one the engine runs next: the engine's own rules, never a copy.
 */
import { definitionOf, nextAction, planAction, recoveryOf } from '../sim/simulated-worker';
import { isSelectThenUpdateAction } from '../strategies';
import type { Scenario, Settings, WorkerAction, WorkerState } from '../sim/types';
import { durationLabel } from '../sim/clock';
import { ISOLATION_WORDS } from '../sim/isolation';
import { yourStatementName } from '../strategies/custom';

interface CodeLine {
  kind: 'code';
  text: string;
  depth: number;
}

export interface StatementLine {
  kind: 'statement';
  action: WorkerAction;
  /** The words before it, as a program reads: its condition ("if heartbeat due (every 20 s):", "else:") or "BEGIN;"; null: none. */
  lead: string | null;
  /**
   * The statement's name as the card shows it: the file it is read from (its name only), or, for one typed in
   * the page, what the learner calls it ("your claim", "your SELECT … \gset", "your UPDATE").
   */
  file: string;
  /** True for a statement typed in the page: `file` is words, not a file name. */
  yours: boolean;
  /** The statement's id as the lab runs it (a lab file's name, or custom.ts's id for one typed in the page). */
  id: string;
  /** Its first line that is not a comment. */
  firstLine: string;
  /** What follows it, when the program ends there ("then stop"). */
  then: string | null;
  depth: number;
}

export type ProgramLine = CodeLine | StatementLine;

/** Where the worker is in its program. */
export type Pointer =
  /** It runs `line` at its next step (once resumed, when paused). */
  | { kind: 'next'; line: number; paused: boolean }
  /** `line` has started and waits for a row lock. */
  | { kind: 'waiting'; line: number; holders: string[] }
  /** It runs nothing more: finished, stopped or crashed, in words. */
  | { kind: 'ended'; words: string };

const ENDED_WORDS: Partial<Record<WorkerState['phase'], string>> = {
  done: 'done',
  'no-work': 'done: it found no run to claim',
  'lost-lease': 'stopped: its write matched no row',
  cancelled: 'stopped: it marked its run cancelled',
  'gave-up': 'stopped: it gave up',
  crashed: 'crashed',
};

/** The words for a worker that runs nothing more, or null while it still has statements to run. */
function endedWords(worker: WorkerState): string | null {
  return ENDED_WORDS[worker.phase] ?? null;
}

function firstLineOf(text: string): string {
  const lines = text.split('\n').map((line) => line.trim());
  return lines.find((line) => line !== '' && !line.startsWith('--')) ?? lines[0] ?? '';
}

/**
 * The program a worker of this scenario runs under these settings. `worker` only picks per-worker facts
 * (a stuck worker beats and never works); the statements do not depend on its state.
 */
export function workerProgram(workerId: string, scenario: Scenario, settings: Settings): ProgramLine[] {
  const strategy = definitionOf(settings);
  const spec = scenario.workers.find((w) => w.id === workerId);
  // planAction reads the worker only for parameter values; the statement is chosen by action and settings.
  const placeholder = { id: workerId, runId: null, generation: null } as WorkerState;
  const twoStatements = strategy.claim.shape === 'one-statement' && strategy.claim.readFirst !== undefined;
  const statement = (action: WorkerAction, lead: string | null, depth: number, then: string | null = null): StatementLine => {
    const { statement: s } = planAction(action, placeholder, scenario, settings);
    return {
      kind: 'statement',
      action,
      lead,
      file: s.file === null ? (yourStatementName(s.id, twoStatements) ?? s.id) : (s.file.split('/').at(-1) ?? s.file),
      yours: s.file === null,
      id: s.id,
      firstLine: firstLineOf(s.text),
      then,
      depth,
    };
  };
  const code = (text: string, depth: number): CodeLine => ({ kind: 'code', text, depth });

  // A recovery lane reads once, then writes the run it found by id (or, fixed, first skips one its process runs).
  const recovery = recoveryOf(workerId, scenario, settings);
  const recovers: ProgramLine[] | null = recovery
    ? [
        statement('recover-read', null, 0, 'none: stop'),
        ...(recovery.skipsActive ? [statement('skip-active', 'if its process is running it:', 0, 'stop')] : []),
        statement('recover', null, 0, 'finished: stop'),
      ]
    : null;
  const update = strategy.claim.shape === 'select-then-update' ? strategy.claim.action : null;
  // Above READ COMMITTED (a recording, or the command line on a server) the whole claim is one explicit
  // transaction at that level, and a statement that fails 40001 is rolled back and the claim tried again.
  const strict = settings.isolation;
  const claim: ProgramLine[] = recovers
    ? recovers
    : strict
      ? [
          code('until it holds a run:', 0),
          ...(update !== null && isSelectThenUpdateAction(update)
            ? [statement('select', `BEGIN ISOLATION LEVEL ${ISOLATION_WORDS[strict]};`, 1, 'none: stop'), statement(update, null, 1)]
            : [statement('claim', `BEGIN ISOLATION LEVEL ${ISOLATION_WORDS[strict]};`, 1, 'none: stop')]),
          // Only SERIALIZABLE checks at COMMIT (read/write dependencies); a failed COMMIT has rolled back already.
          statement('commit', null, 1, strict === 'serializable' ? '40001: claim again' : null),
          statement('rollback', 'if a statement failed 40001:', 1, 'claim again'),
        ]
      : update !== null && isSelectThenUpdateAction(update)
        ? [code('until it holds a run:', 0), statement('select', null, 1, 'none: stop'), statement(update, null, 1)]
        : strategy.claim.shape === 'one-statement' && strategy.claim.readFirst
          ? // A claim in two statements (SELECT … \gset, then the UPDATE): a step each, in one transaction.
            [statement('select', 'BEGIN;', 0, 'none: stop'), statement('claim', null, 0), statement('commit', null, 0)]
          : [statement('claim', 'BEGIN;', 0, 'none: stop'), statement('commit', null, 0)];

  // A stuck worker only ever beats (nextAction), so its heartbeat has no condition.
  const beats = spec?.stuck
    ? 'stuck, always:'
    : scenario.heartbeatSeconds === null
      ? null
      : `if heartbeat due (every ${durationLabel(scenario.heartbeatSeconds)}):`;
  const loop: ProgramLine[] = [
    code('until the run is done:', 0),
    statement('cancel-ack', 'if cancel seen:', 1, 'stop'),
    ...(beats === null ? [] : [statement('heartbeat', beats, 1)]),
    statement('work', `if model calls left (${scenario.workSteps} in all):`, 1),
    statement('complete', 'else:', 1, 'done'),
  ];
  return [...claim, ...loop];
}

/**
 * The line a worker runs next, or the one it waits in, or why it runs none. `settings`: those its steps were played
 * with; `lanes`: every worker's state, which a recovery lane that looks in its process's memory reads (nextAction).
 */
export function pointerOf(
  program: readonly ProgramLine[],
  worker: WorkerState,
  scenario: Scenario,
  settings: Settings,
  clockSeconds: number,
  lanes: Iterable<WorkerState> = [],
): Pointer {
  // A recovery lane that wrote nothing (it found no run, or its process was running the one it found) is over.
  const recoveryOver = worker.phase === 'no-work' && recoveryOf(worker.id, scenario, settings) !== null;
  const ended = recoveryOver ? 'done: its recovery left nothing to run' : endedWords(worker);
  if (ended !== null) return { kind: 'ended', words: ended };
  const lineOf = (action: WorkerAction | 'cancel-request' | null) => program.findIndex((line) => line.kind === 'statement' && line.action === action);
  if (worker.phase === 'blocked') return { kind: 'waiting', line: lineOf(worker.waitingAction), holders: worker.blockedOn };
  return { kind: 'next', line: lineOf(nextAction(worker, scenario, settings, clockSeconds, lanes)), paused: worker.paused };
}
