/**
 * Where the learner is in a scenario's script, and how a schedule is cut when the learner goes back and
 * takes a different step. Pure functions of the schedule and the trace steps.
 */
import type { TraceStep } from '../sim/types';

/**
 * How much of the script the schedule has already played: each schedule token is matched to the
 * earliest script token after the previous match (a greedy subsequence match). Tokens the learner added
 * that the rest of the script does not contain match nothing and are passed over.
 */
export function matchedScriptLength(script: readonly string[], schedule: readonly string[]): number {
  let matched = 0;
  for (const token of schedule) {
    const at = script.indexOf(token, matched);
    if (at >= 0) matched = at + 1;
  }
  return matched;
}

/**
 * How a step's number is put beside the steps there are: "of 14" once the run is over, else "of 3 so far"
 * and how many of the script's moves are still to come (a move can make several steps, so the script's
 * length in steps is not known before it is played).
 */
export function stepCountWords(played: number, scriptMovesLeft: number, over: boolean, source: 'script' | 'recording' = 'script'): string {
  if (over) return `of ${played}`;
  const left = scriptMovesLeft > 0 ? `; the ${source} has ${scriptMovesLeft} more move${scriptMovesLeft === 1 ? '' : 's'}` : '';
  return `of ${played} so far${left}`;
}

/** The script tokens "Step" may play next, in order: the first one that can apply now is played. */
export function scriptCandidates(script: readonly string[], schedule: readonly string[]): string[] {
  return script.slice(matchedScriptLength(script, schedule));
}

/**
 * How many schedule tokens the first `position` steps come from. A token can add several steps (a
 * commit also wakes the worker that waited); one whose steps are partly revealed counts as played.
 */
export function tokensRevealed(steps: readonly TraceStep[], position: number): number {
  if (position <= 0) return 0;
  const last = steps[Math.min(position, steps.length) - 1];
  return last ? last.tokenIndex + 1 : 0;
}

/** The schedule to keep when the learner takes a new step at `position`: everything revealed so far. */
export function branchSchedule(schedule: readonly string[], steps: readonly TraceStep[], position: number): string[] {
  return schedule.slice(0, tokensRevealed(steps, position));
}

/** True when the step at `position` is the first step of a token. */
export function startsToken(steps: readonly TraceStep[], position: number): boolean {
  const step = steps[position];
  if (!step) return false;
  const before = steps[position - 1];
  return !before || before.tokenIndex !== step.tokenIndex;
}

/** The position just after every step of the token whose steps begin (or continue) at `position`. */
export function endOfToken(steps: readonly TraceStep[], position: number): number {
  const step = steps[position];
  if (!step) return Math.min(position, steps.length);
  let end = position;
  while (steps[end]?.tokenIndex === step.tokenIndex) end++;
  return end;
}

/**
 * What a learner's move at `position` means for a trace that already goes further (after Back):
 * the same move that was already made just moves the cursor; a different one cuts the schedule there.
 */
export type Branch = { kind: 'append' } | { kind: 'reveal'; position: number } | { kind: 'truncate'; schedule: string[] };

export function branchFor(schedule: readonly string[], steps: readonly TraceStep[], position: number, token: string): Branch {
  if (position >= steps.length) return { kind: 'append' };
  if (startsToken(steps, position) && steps[position]!.token === token) return { kind: 'reveal', position: endOfToken(steps, position) };
  return { kind: 'truncate', schedule: branchSchedule(schedule, steps, position) };
}
