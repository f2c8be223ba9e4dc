import { describe, expect, it } from 'vitest';
import { branchFor, branchSchedule, endOfToken, matchedScriptLength, scriptCandidates, startsToken, tokensRevealed } from '../../src/store/script';
import type { TraceStep } from '../../src/sim/types';

/** Just enough of a trace step for the cursor logic: which token made it. */
function stepsOf(tokens: string[], perToken: Record<number, number> = {}): TraceStep[] {
  const steps: TraceStep[] = [];
  tokens.forEach((token, tokenIndex) => {
    for (let i = 0; i < (perToken[tokenIndex] ?? 1); i++) steps.push({ index: steps.length, token, tokenIndex } as TraceStep);
  });
  return steps;
}

describe('greedy script matching', () => {
  const script = ['A', 'B', 'A', 'B', '+30', 'A'];

  it('matches nothing for an empty schedule', () => {
    expect(matchedScriptLength(script, [])).toBe(0);
    expect(scriptCandidates(script, [])).toEqual(script);
  });

  it('follows a schedule that is a prefix of the script', () => {
    expect(matchedScriptLength(script, ['A', 'B', 'A'])).toBe(3);
    expect(scriptCandidates(script, ['A', 'B', 'A'])).toEqual(['B', '+30', 'A']);
  });

  it('jumps past script tokens that were skipped (they could not apply)', () => {
    // B could not move, so Step played the A after it.
    expect(matchedScriptLength(script, ['A', 'A'])).toBe(3);
    expect(scriptCandidates(script, ['A', 'A'])).toEqual(['B', '+30', 'A']);
  });

  it('passes over tokens the learner added that the rest of the script lacks', () => {
    expect(matchedScriptLength(script, ['pause:B', 'A', '+5'])).toBe(1);
    expect(scriptCandidates(script, ['pause:B', 'A', '+5'])).toEqual(['B', 'A', 'B', '+30', 'A']);
  });

  it('is used up once the whole script has played', () => {
    expect(scriptCandidates(script, [...script, 'B'])).toEqual([]);
  });
});

describe('cursor and branching', () => {
  // Token 2 ("A", a commit) also woke B: two steps.
  const schedule = ['A', 'B', 'A', 'B'];
  const steps = stepsOf(schedule, { 2: 2 });

  it('counts a partly revealed token as played', () => {
    expect(tokensRevealed(steps, 0)).toBe(0);
    expect(tokensRevealed(steps, 2)).toBe(2);
    expect(tokensRevealed(steps, 3)).toBe(3);
    expect(tokensRevealed(steps, 4)).toBe(3);
    expect(tokensRevealed(steps, 5)).toBe(4);
  });

  it('knows where tokens start and end', () => {
    expect(startsToken(steps, 2)).toBe(true);
    expect(startsToken(steps, 3)).toBe(false);
    expect(endOfToken(steps, 2)).toBe(4);
    expect(endOfToken(steps, 3)).toBe(4);
    expect(endOfToken(steps, 5)).toBe(5);
  });

  it('appends at the end of the trace', () => {
    expect(branchFor(schedule, steps, steps.length, 'A')).toEqual({ kind: 'append' });
  });

  it('replays nothing when the learner repeats the move already recorded', () => {
    expect(branchFor(schedule, steps, 1, 'B')).toEqual({ kind: 'reveal', position: 2 });
    expect(branchFor(schedule, steps, 2, 'A')).toEqual({ kind: 'reveal', position: 4 });
  });

  it('cuts the schedule when the learner steps a different worker after going back', () => {
    expect(branchFor(schedule, steps, 1, 'A')).toEqual({ kind: 'truncate', schedule: ['A'] });
    expect(branchFor(schedule, steps, 0, 'B')).toEqual({ kind: 'truncate', schedule: [] });
    expect(branchSchedule(schedule, steps, 2)).toEqual(['A', 'B']);
  });

  it('keeps a token whose steps are partly revealed', () => {
    expect(branchFor(schedule, steps, 3, 'A')).toEqual({ kind: 'truncate', schedule: ['A', 'B', 'A'] });
  });
});
