/**
 * The learner's progress as plain data, with a versioned JSON form for localStorage. Reading never
 * throws and never loses more than it must: every entry that reads is kept, a damaged entry is left
 * out and the whole saved text is handed back (`unreadable`) for the store to keep aside under its own
 * key; a record written by a newer version is read as far as this code understands it and marked
 * read-only, so the store never overwrites it. Entries for chapters, questions or challenges that no
 * longer exist are dropped quietly.
 */
import { type Migration, type Parsed, parseSaved, type SavedFormat, serializeSaved } from '../persist/saved';
import { CHALLENGES } from './challenges';
import { CHAPTERS, chapterById, isChapterId } from './chapters';
import { PREDICT_GENERATORS } from './predict';
import { QUIZ } from './quiz';
import type { ChapterId } from './types';

export const PROGRESS_STORAGE_KEY = 'lease-lab.lesson-progress';
export const PROGRESS_VERSION = 3;

interface ChapterProgress {
  done: boolean;
  /** 0-based narration step the learner last looked at. */
  step: number;
  doneAt: number | null;
}

/**
 * How the first answer to a question went: what the score and the exit criteria count, since a retry
 * follows a feedback that has taught something. 'unknown': answered several times before version 2,
 * which did not keep the first answer (counted as answered, never as right).
 */
type FirstAnswer = 'right' | 'wrong' | 'unknown';

interface QuestionProgress {
  attempts: number;
  first: FirstAnswer;
  /** Whether the latest answer was right (practice: shown, not scored). */
  correct: boolean;
  everCorrect: boolean;
  at: number;
}

interface PredictionProgress {
  attempts: number;
  correct: number;
}

interface ChallengeProgress {
  won: boolean;
  wonAt: number | null;
  /** Hints revealed, 0 to 3. */
  hints: number;
  /**
   * Hints the learner had seen when the level was first solved (what its record says: solved, solved with
   * hints, revealed). Absent on a win saved before version 3, which did not keep it: that win reads "solved".
   */
  hintsAtWin?: number;
}

export interface LessonProgress {
  version: typeof PROGRESS_VERSION;
  chapters: Partial<Record<ChapterId, ChapterProgress>>;
  quiz: Record<string, QuestionProgress>;
  predictions: Record<string, PredictionProgress>;
  challenges: Record<string, ChallengeProgress>;
  /** The chapter the learner was last reading. */
  currentChapter: ChapterId | null;
  /** The level (a challenge played in the lab, its goal above the timeline) in play; null: the free lab. */
  currentLevel: string | null;
}

type NoticeKind =
  | 'reset-corrupt'
  | 'partly-unreadable'
  | 'read-only-newer'
  | 'reset-version'
  | 'migrated'
  | 'save-failed'
  | 'storage-unavailable'
  | 'reset-done';

export interface ProgressNoticeText {
  kind: NoticeKind;
  message: string;
}

export function emptyProgress(): LessonProgress {
  return { version: PROGRESS_VERSION, chapters: {}, quiz: {}, predictions: {}, challenges: {}, currentChapter: null, currentLevel: null };
}

// ---- Reading -------------------------------------------------------------------------------------

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isRecord(value: unknown): value is Record<string, Json> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function count(value: unknown): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 1e12 ? value : null;
}

function time(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
}

class Corrupt extends Error {}

function field<T>(value: T | null, what: string): T {
  if (value === null) throw new Corrupt(what);
  return value;
}

/** An id of one of these, as a test of a saved entry's name. */
const oneOf =
  (ids: readonly string[]) =>
  (id: string): id is string =>
    ids.includes(id);

const KNOWN = {
  chapters: isChapterId,
  quiz: oneOf(QUIZ.map((q) => q.id)),
  predictions: oneOf(PREDICT_GENERATORS.map((g) => g.id)),
  challenges: oneOf(CHALLENGES.map((c) => c.id)),
};

/** What reading left out: the number of damaged entries (a damaged section or field counts as one). */
interface Damage {
  count: number;
}

function entries<Id extends string, T>(
  value: unknown,
  known: (id: string) => id is Id,
  read: (entry: unknown, id: Id) => T,
  damage: Damage,
): Record<string, T> {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    damage.count += 1;
    return {};
  }
  const out: Record<string, T> = {};
  for (const [id, entry] of Object.entries(value)) {
    if (!known(id)) continue;
    try {
      out[id] = read(entry, id);
    } catch (error) {
      if (!(error instanceof Corrupt)) throw error;
      damage.count += 1;
    }
  }
  return out;
}

function readChapter(entry: unknown, id: ChapterId): ChapterProgress {
  if (!isRecord(entry) || typeof entry.done !== 'boolean') throw new Corrupt(`chapter ${id}`);
  const steps = chapterById(id).steps.length;
  const step = Math.min(field(count(entry.step ?? 0), `chapter ${id} step`), steps - 1);
  return { done: entry.done, step, doneAt: entry.doneAt === null || entry.doneAt === undefined ? null : field(time(entry.doneAt), 'doneAt') };
}

const FIRST_ANSWERS: readonly unknown[] = ['right', 'wrong', 'unknown'] satisfies FirstAnswer[];

function readQuestion(entry: unknown, id: string): QuestionProgress {
  if (!isRecord(entry) || typeof entry.correct !== 'boolean' || typeof entry.everCorrect !== 'boolean' || !FIRST_ANSWERS.includes(entry.first))
    throw new Corrupt(`question ${id}`);
  return {
    attempts: field(count(entry.attempts), 'attempts'),
    first: entry.first as FirstAnswer,
    correct: entry.correct,
    everCorrect: entry.everCorrect || entry.correct,
    at: field(time(entry.at), 'at'),
  };
}

function readPrediction(entry: unknown, id: string): PredictionProgress {
  if (!isRecord(entry)) throw new Corrupt(`prediction ${id}`);
  const attempts = field(count(entry.attempts), 'attempts');
  const correct = field(count(entry.correct), 'correct');
  if (correct > attempts) throw new Corrupt('correct > attempts');
  return { attempts, correct };
}

function readChallenge(entry: unknown, id: string): ChallengeProgress {
  if (!isRecord(entry) || typeof entry.won !== 'boolean') throw new Corrupt(`challenge ${id}`);
  const hints = field(count(entry.hints ?? 0), 'hints');
  const read: ChallengeProgress = {
    won: entry.won,
    wonAt: entry.wonAt === null || entry.wonAt === undefined ? null : field(time(entry.wonAt), 'wonAt'),
    hints: Math.min(hints, 3),
  };
  if (entry.won && entry.hintsAtWin !== undefined) read.hintsAtWin = Math.min(field(count(entry.hintsAtWin), 'hintsAtWin'), 3);
  return read;
}

function readCurrent(value: unknown, damage: Damage): LessonProgress {
  if (!isRecord(value)) throw new Corrupt('not an object');
  const current = value.currentChapter;
  if (current !== null && current !== undefined && typeof current !== 'string') damage.count += 1;
  const level = value.currentLevel;
  if (level !== null && level !== undefined && typeof level !== 'string') damage.count += 1;
  return {
    version: PROGRESS_VERSION,
    chapters: entries(value.chapters, KNOWN.chapters, readChapter, damage),
    quiz: entries(value.quiz, KNOWN.quiz, readQuestion, damage),
    predictions: entries(value.predictions, KNOWN.predictions, readPrediction, damage),
    challenges: entries(value.challenges, KNOWN.challenges, readChallenge, damage),
    currentChapter: typeof current === 'string' && KNOWN.chapters(current) ? current : null,
    currentLevel: typeof level === 'string' && KNOWN.challenges(level) ? level : null,
  };
}

/**
 * What version 1 knew of a question's first answer. It kept the latest answer and whether any was right:
 * with one attempt that is the first; with several and none right, the first was wrong; with several and
 * one right, nothing tells whether the first was (it may have been a retry after seeing the answer).
 */
function firstFromVersion1(entry: Record<string, unknown>): FirstAnswer {
  if (entry.attempts === 1 && typeof entry.correct === 'boolean') return entry.correct ? 'right' : 'wrong';
  return entry.everCorrect === false ? 'wrong' : 'unknown';
}

/**
 * Upgrades from older saved formats, keyed by the version they read. An older version without one is
 * reset with a notice. When the format changes, bump PROGRESS_VERSION and add
 * `[old]: (value) => value in the next format` here.
 */
export type { Migration };
const MIGRATIONS: Readonly<Record<number, Migration>> = {
  // Version 2 scores first answers: each saved answer is kept, with the first answer as far as it is known.
  1: (value) => {
    const quiz = isRecord(value.quiz)
      ? Object.fromEntries(Object.entries(value.quiz).map(([id, entry]) => [id, isRecord(entry) ? { ...entry, first: firstFromVersion1(entry) } : entry]))
      : value.quiz;
    return { ...value, version: 2, quiz };
  },
  // Version 3 plays challenges as levels: a win keeps how many hints it took (hintsAtWin) and the level in
  // play is saved. A version 2 win did not keep when its hints were seen, so it carries no hintsAtWin and
  // reads "solved"; no level is in play.
  2: (value) => ({ ...value, version: 3, currentLevel: null }),
};

/** A record of the current version as read: what reads, the seed beside it, and how many parts did not. */
export interface DecodedProgress {
  progress: LessonProgress;
  seed?: number;
  damaged: number;
}

/** The saved form: { version, chapters, quiz, predictions, challenges, currentChapter, currentLevel, seed? } under PROGRESS_STORAGE_KEY. */
export function progressFormat(migrations: Readonly<Record<number, Migration>> = MIGRATIONS, key: string = PROGRESS_STORAGE_KEY): SavedFormat<DecodedProgress> {
  return {
    key,
    version: PROGRESS_VERSION,
    versionOf: (value) => (isRecord(value) ? (typeof value.version === 'number' ? value.version : undefined) : null),
    migrations,
    decode: decodeProgress,
    encode: ({ progress, seed }) => (seed === undefined ? progress : { ...progress, seed }),
  };
}

function decodeProgress(value: unknown): DecodedProgress {
  const damage: Damage = { count: 0 };
  const progress = readCurrent(value, damage);
  const seed = readSeed(value, damage);
  return { progress, ...seed, damaged: damage.count };
}

export interface ParsedProgress {
  progress: LessonProgress;
  notice: ProgressNoticeText | null;
  /** The learner's seed for shuffling quiz choices, saved beside the progress (absent: none saved yet). */
  seed?: number;
  /** The saved text, when some or all of it could not be read: to keep aside before anything overwrites it. */
  unreadable?: string;
  /** The record was written by a newer version of the lab: show what reads, never write over it. */
  readOnly?: boolean;
}

/** Reads what storage held (null: nothing saved). Never throws. */
export function parseProgress(text: string | null, migrations: Readonly<Record<number, Migration>> = MIGRATIONS): ParsedProgress {
  return progressFrom(parseSaved(text, progressFormat(migrations)));
}

/** What a stored record (as the persistence mechanism read it) gives the lesson, with the notice to show. */
export function progressFrom(parsed: Parsed<DecodedProgress>): ParsedProgress {
  switch (parsed.kind) {
    case 'none':
      return { progress: emptyProgress(), notice: null };
    case 'unreadable':
      return corrupt(parsed.text);
    case 'newer': {
      // A newer lab wrote this. Its fields may mean more than this code knows, so read what it can and
      // leave the record alone.
      let read: DecodedProgress;
      try {
        read = decodeProgress(parsed.value);
      } catch {
        return corrupt(parsed.text);
      }
      return {
        progress: read.progress,
        ...(read.seed === undefined ? {} : { seed: read.seed }),
        notice: {
          kind: 'read-only-newer',
          message:
            'Your saved progress was written by a newer version of Lease Lab. This page shows what it can read of it, but it is read-only here: nothing you do on this page is saved, so the newer record stays as it was.',
        },
        readOnly: true,
      };
    }
    case 'read': {
      const { progress, seed, damaged } = parsed.state;
      const withSeed = seed === undefined ? {} : { seed };
      if (damaged > 0) {
        return {
          progress,
          ...withSeed,
          notice: {
            kind: 'partly-unreadable',
            message: `${damaged === 1 ? 'One part' : `${damaged} parts`} of your saved progress could not be read (damaged or edited) and ${damaged === 1 ? 'was' : 'were'} set aside; everything else was kept.`,
          },
          unreadable: parsed.text,
        };
      }
      return {
        progress,
        ...withSeed,
        notice: parsed.migrated ? { kind: 'migrated', message: migratedMessage(progress) } : null,
      };
    }
    case 'older':
      return {
        progress: emptyProgress(),
        notice: {
          kind: 'reset-version',
          message: 'Your saved progress is from an older version of the lesson that this one cannot read. It was set aside, and the lesson starts fresh.',
        },
        unreadable: parsed.text,
      };
  }
}

/** What carrying saved progress over says; more when it changed the score (answers whose first try is unknown). */
function migratedMessage(progress: LessonProgress): string {
  const carried = 'Your saved progress came from an older version of the lesson and has been carried over.';
  if (!Object.values(progress.quiz).some((entry) => entry.first === 'unknown')) return carried;
  return `${carried} The quiz now scores only the first answer to each question; where your saved record does not show whether your first answer was right (you had answered it more than once), the question counts as answered but not as right.`;
}

function readSeed(value: unknown, damage: Damage): { seed?: number } {
  const seed = isRecord(value) ? value.seed : undefined;
  if (seed === undefined) return {};
  if (typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff) return { seed };
  damage.count += 1;
  return {};
}

function corrupt(text: string): ParsedProgress {
  return {
    progress: emptyProgress(),
    notice: {
      kind: 'reset-corrupt',
      message: 'Your saved progress could not be read (it was damaged or edited). It was set aside, and the lesson starts fresh.',
    },
    unreadable: text,
  };
}

/** The saved form; `seed` (the learner's quiz shuffle seed) is kept beside the progress when known. */
export function serializeProgress(progress: LessonProgress, seed?: number): string {
  return serializeSaved(progressFormat(), { progress, seed, damaged: 0 });
}

// ---- Changes (pure) --------------------------------------------------------------------------------

function chapterEntry(progress: LessonProgress, id: ChapterId): ChapterProgress {
  return progress.chapters[id] ?? { done: false, step: 0, doneAt: null };
}

export function withChapterStep(progress: LessonProgress, chapterId: ChapterId, step: number): LessonProgress {
  const entry = chapterEntry(progress, chapterId);
  return { ...progress, currentChapter: chapterId, chapters: { ...progress.chapters, [chapterId]: { ...entry, step: Math.max(0, step) } } };
}

export function withChapterDone(progress: LessonProgress, chapterId: ChapterId, now: number): LessonProgress {
  const entry = chapterEntry(progress, chapterId);
  return { ...progress, chapters: { ...progress.chapters, [chapterId]: { ...entry, done: true, doneAt: entry.doneAt ?? now } } };
}

/** An answer to a quiz question: the first one is kept as the scored one, later ones are practice. */
export function withAnswer(progress: LessonProgress, questionId: string, correct: boolean, now: number): LessonProgress {
  const before = progress.quiz[questionId];
  const first: FirstAnswer = before?.first ?? (correct ? 'right' : 'wrong');
  return {
    ...progress,
    quiz: {
      ...progress.quiz,
      [questionId]: { attempts: (before?.attempts ?? 0) + 1, first, correct, everCorrect: (before?.everCorrect ?? false) || correct, at: now },
    },
  };
}

/** Whether the first answer to a question was right (the one thing that scores it and ticks what needs it). */
export function answeredRightFirst(progress: LessonProgress, questionId: string): boolean {
  return progress.quiz[questionId]?.first === 'right';
}

/**
 * Whether the learner's predictions of a generator show the idea: more right than wrong. Each prediction
 * is made on fresh parameters, so guessing until one is right does not pass: a guesser falls further
 * behind with every wrong guess.
 */
export function predictsWell(progress: LessonProgress, generatorId: string): boolean {
  const record = progress.predictions[generatorId];
  return record !== undefined && record.correct * 2 > record.attempts;
}

export function withPrediction(progress: LessonProgress, generatorId: string, correct: boolean): LessonProgress {
  const before = progress.predictions[generatorId] ?? { attempts: 0, correct: 0 };
  return {
    ...progress,
    predictions: { ...progress.predictions, [generatorId]: { attempts: before.attempts + 1, correct: before.correct + (correct ? 1 : 0) } },
  };
}

function challengeEntry(progress: LessonProgress, id: string): ChallengeProgress {
  return progress.challenges[id] ?? { won: false, wonAt: null, hints: 0 };
}

/** The first win counts, with the hints seen by then (hints read afterwards do not change the record). */
export function withChallengeWon(progress: LessonProgress, challengeId: string, now: number): LessonProgress {
  const entry = challengeEntry(progress, challengeId);
  if (entry.won) return progress;
  return { ...progress, challenges: { ...progress.challenges, [challengeId]: { ...entry, won: true, wonAt: now, hintsAtWin: entry.hints } } };
}

/** Puts a level in play (its goal above the timeline), or none (null: the free lab). */
export function withCurrentLevel(progress: LessonProgress, levelId: string | null): LessonProgress {
  if (progress.currentLevel === levelId) return progress;
  return { ...progress, currentLevel: levelId };
}

export function withHints(progress: LessonProgress, challengeId: string, hints: number): LessonProgress {
  const entry = challengeEntry(progress, challengeId);
  const next = Math.min(3, Math.max(entry.hints, hints));
  if (next === entry.hints) return progress;
  return { ...progress, challenges: { ...progress.challenges, [challengeId]: { ...entry, hints: next } } };
}

export interface QuizScore {
  correct: number;
  answered: number;
  total: number;
}

/** The quiz's score: first answers only (a retry follows feedback, so it measures less). */
export function quizScore(progress: LessonProgress): QuizScore {
  const answered = QUIZ.filter((q) => progress.quiz[q.id] !== undefined);
  return { correct: answered.filter((q) => answeredRightFirst(progress, q.id)).length, answered: answered.length, total: QUIZ.length };
}

export function chaptersDone(progress: LessonProgress): number {
  return CHAPTERS.filter((chapter) => progress.chapters[chapter.id]?.done).length;
}
