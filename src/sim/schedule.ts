/**
 * A schedule is a list of tokens; with the scenario and its settings it fully determines a trace.
 *
 *   A, B …        the named worker takes its next step
 *   +30           the clock moves 30 seconds
 *   pause:A       worker A freezes (its connection and locks stay)
 *   resume:A      worker A carries on
 *   crash:A       worker A's process dies; its open transaction rolls back
 *   restart:A     crashed worker A starts again under the same name: a new process and session that
 *                 remembers nothing of its last life (the run that life claimed still names A as owner)
 *   cancel:123    an operator durably requests cancellation of run 123
 *   kill:123      an operator "cancels" run 123 by killing the process that runs it
 *   rescue        the queue's rescuer takes its next step: it fetches the stuck runs, or writes the next one back
 */
export type Token =
  | { kind: 'step'; worker: string }
  | { kind: 'advance'; seconds: number }
  | { kind: 'pause' | 'resume' | 'crash' | 'restart'; worker: string }
  | { kind: 'cancel' | 'kill'; runId: number }
  | { kind: 'rescue' };

/** Longest schedule the lab accepts; replay must stay instant. */
export const MAX_SCHEDULE_LENGTH = 2000;
const MAX_ADVANCE_SECONDS = 86_400;

export class ScheduleError extends Error {
  override name = 'ScheduleError';
}

/** A worker's step: the worker's one capital letter ("A"). */
export function isWorkerToken(token: string): boolean {
  return /^[A-Z]$/.test(token);
}

/** A move of the clock: "+" and whole seconds ("+30"), whether or not within MAX_ADVANCE_SECONDS. */
export function isClockToken(token: string): boolean {
  return /^\+\d+$/.test(token);
}

/** Digits a clock move may have; longer ones are no schedule step at all, not an out-of-range move. */
const MAX_ADVANCE_DIGITS = 6;

export function parseToken(text: string): Token {
  const token = text.trim();
  if (isWorkerToken(token)) return { kind: 'step', worker: token };
  if (isClockToken(token) && token.length <= 1 + MAX_ADVANCE_DIGITS) {
    const seconds = Number(token.slice(1));
    if (seconds < 1 || seconds > MAX_ADVANCE_SECONDS) {
      throw new ScheduleError(`"${token}": the clock moves between 1 and ${MAX_ADVANCE_SECONDS} seconds at a time`);
    }
    return { kind: 'advance', seconds };
  }
  if (token === 'rescue') return { kind: 'rescue' };
  const workerEvent = /^(pause|resume|crash|restart):([A-Z])$/.exec(token);
  if (workerEvent) return { kind: workerEvent[1] as 'pause' | 'resume' | 'crash' | 'restart', worker: workerEvent[2]! };
  const runEvent = /^(cancel|kill):(\d{1,9})$/.exec(token);
  if (runEvent) return { kind: runEvent[1] as 'cancel' | 'kill', runId: Number(runEvent[2]) };
  throw new ScheduleError(
    `"${shorten(token)}" is not a schedule step; use a worker letter (A), +SECONDS, pause:A, resume:A, crash:A, restart:A, cancel:RUN, kill:RUN or rescue`,
  );
}

export function formatToken(token: Token): string {
  switch (token.kind) {
    case 'step':
      return token.worker;
    case 'advance':
      return `+${token.seconds}`;
    case 'pause':
    case 'resume':
    case 'crash':
    case 'restart':
      return `${token.kind}:${token.worker}`;
    case 'cancel':
    case 'kill':
      return `${token.kind}:${token.runId}`;
    case 'rescue':
      return 'rescue';
  }
}

/** Splits "A,B,+30" into tokens, checking each one. */
export function parseSchedule(text: string): string[] {
  const parts = text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0);
  if (parts.length > MAX_SCHEDULE_LENGTH) {
    throw new ScheduleError(`the schedule has ${parts.length} steps; the lab replays at most ${MAX_SCHEDULE_LENGTH}`);
  }
  return parts.map((part) => formatToken(parseToken(part)));
}

function shorten(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}
