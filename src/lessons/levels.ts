/**
 * Challenges played as levels in the lab, in the spirit of The Deadlock Empire: a suggested order that
 * follows the lesson's chapters, the idea each level practises (its chapter), what the learner's record
 * of a level says, and the run a level judges after every step. The judge is the challenge's own
 * (challenges.ts); nothing here decides a win.
 */
import { anomaliesAfter } from '../sim/anomalies';
import type { RunRow, Trace } from '../sim/types';
import { CHALLENGES } from './challenges';
import { CHAPTERS, chapterById } from './chapters';
import type { LessonProgress } from './progress';
import type { Challenge, Judgement } from './types';

function chapterIndex(challenge: Challenge): number {
  return CHAPTERS.findIndex((chapter) => chapter.id === challenge.chapterId);
}

/** Every challenge, in the order of the chapters whose idea it practises (within a chapter, as listed in challenges.ts). */
export const LEVELS: readonly Challenge[] = CHALLENGES.map((challenge, listed) => ({ challenge, listed }))
  .sort((a, b) => chapterIndex(a.challenge) - chapterIndex(b.challenge) || a.listed - b.listed)
  .map(({ challenge }) => challenge);

export function findLevel(id: string): Challenge | undefined {
  return LEVELS.find((level) => level.id === id);
}

/** 1-based place in the suggested order. */
export function levelNumber(id: string): number {
  return LEVELS.findIndex((level) => level.id === id) + 1;
}

/** The level after this one in the suggested order; null after the last. */
export function nextLevel(id: string): Challenge | null {
  const index = LEVELS.findIndex((level) => level.id === id);
  return index < 0 ? null : (LEVELS[index + 1] ?? null);
}

/** The idea a level practises: its chapter's title. */
export function levelIdea(level: Challenge): string {
  return chapterById(level.chapterId).title;
}

/**
 * What the learner's record of a level says. The last hint spells out a winning schedule, so a level
 * solved after reading it was not solved but revealed; so is one whose last hint was read before any win.
 */
export type LevelRecord = { kind: 'unsolved'; hints: number } | { kind: 'solved' } | { kind: 'solved-with-hints'; hints: number } | { kind: 'revealed' };

export function levelRecord(progress: LessonProgress, level: Challenge): LevelRecord {
  const entry = progress.challenges[level.id];
  const revealing = level.hints.length;
  if (!entry) return { kind: 'unsolved', hints: 0 };
  if (!entry.won) return entry.hints >= revealing ? { kind: 'revealed' } : { kind: 'unsolved', hints: entry.hints };
  // A win saved before the hints it took were kept (progress version 2) reads as solved.
  const hints = entry.hintsAtWin ?? 0;
  if (hints >= revealing) return { kind: 'revealed' };
  return hints === 0 ? { kind: 'solved' } : { kind: 'solved-with-hints', hints };
}

/** The record in words, as the banner and the list of levels show it. */
export function recordLabel(record: LevelRecord): string {
  switch (record.kind) {
    case 'unsolved':
      return 'not solved yet';
    case 'solved':
      return 'solved';
    case 'solved-with-hints':
      return `solved with hints (${record.hints})`;
    case 'revealed':
      return 'revealed';
  }
}

/**
 * The run as it stands at the cursor: the first `position` steps, the schedule tokens they played and
 * the anomalies found by then (`initialRuns`: the rows before the first step). A level judges this after every step, so a win is told at the step that
 * makes it, and stepping back takes it back.
 */
function traceUpTo(trace: Trace, position: number, initialRuns: readonly RunRow[]): Trace {
  const shown = Math.max(0, Math.min(position, trace.steps.length));
  const steps = trace.steps.slice(0, shown);
  const tokens = shown === 0 ? 0 : steps[shown - 1]!.tokenIndex + 1;
  return {
    ...trace,
    schedule: trace.schedule.slice(0, tokens),
    steps,
    anomalies: anomaliesAfter(trace.steps, shown),
    finalRuns: steps.at(-1)?.runs ?? [...initialRuns],
  };
}

/** The level's verdict on the run at the cursor: the challenge's own judge, given the run up to there. */
export function judgeAt(level: Challenge, trace: Trace, position: number, initialRuns: readonly RunRow[]): Judgement {
  return level.judge(traceUpTo(trace, position, initialRuns));
}
