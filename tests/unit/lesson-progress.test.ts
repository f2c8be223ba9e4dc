/**
 * Progress that lasts: a versioned JSON form in localStorage that round-trips, rejects corrupt or
 * foreign data with a notice (never a crash), survives a full storage, and erases only when asked.
 */
import { describe, expect, it, vi } from 'vitest';
import { CHALLENGES } from '../../src/lessons/challenges';
import { CHAPTERS } from '../../src/lessons/chapters';
import { EXIT_CRITERIA, evaluateExitCriteria } from '../../src/lessons/exit-criteria';
import { PREDICT_GENERATORS } from '../../src/lessons/predict';
import {
  chaptersDone,
  emptyProgress,
  type LessonProgress,
  PROGRESS_STORAGE_KEY,
  PROGRESS_VERSION,
  parseProgress,
  quizScore,
  serializeProgress,
  withAnswer,
  withChallengeWon,
  withChapterDone,
  withChapterStep,
  withHints,
  withPrediction,
} from '../../src/lessons/progress';
import { createProgressStore, type StorageLike, unreadableKey } from '../../src/store/progress-store';
import { QUIZ } from '../../src/lessons/quiz';
import { MemoryStorage } from '../support/memory-storage';

class FullStorage extends MemoryStorage {
  full = true;
  override setItem(key: string, value: string): void {
    if (this.full) {
      const error = new Error('The quota has been exceeded.');
      error.name = 'QuotaExceededError';
      throw error;
    }
    super.setItem(key, value);
  }
}

function busyProgress(): LessonProgress {
  let p = emptyProgress();
  p = withChapterStep(p, 'race', 3);
  p = withChapterDone(p, 'race', 1000);
  p = withAnswer(p, 'q-cte', false, 2000);
  p = withAnswer(p, 'q-cte', true, 3000);
  p = withPrediction(p, 'claim-race', true);
  p = withPrediction(p, 'claim-race', false);
  p = withChallengeWon(p, 'double-run', 4000);
  p = withHints(p, 'atomic-race', 2);
  return p;
}

describe('progress data', () => {
  it('round-trips through its JSON form', () => {
    const p = busyProgress();
    const parsed = parseProgress(serializeProgress(p));
    expect(parsed.notice).toBeNull();
    expect(parsed.progress).toEqual(p);
    expect(JSON.parse(serializeProgress(p)).version).toBe(PROGRESS_VERSION);
  });

  it('records what the learner did', () => {
    const p = busyProgress();
    expect(p.chapters.race).toEqual({ done: true, step: 3, doneAt: 1000 });
    expect(p.currentChapter).toBe('race');
    expect(p.quiz['q-cte']).toEqual({ attempts: 2, first: 'wrong', correct: true, everCorrect: true, at: 3000 });
    expect(p.predictions['claim-race']).toEqual({ attempts: 2, correct: 1 });
    expect(p.challenges['double-run']).toMatchObject({ won: true, wonAt: 4000 });
    expect(p.challenges['atomic-race']).toMatchObject({ won: false, hints: 2 });
    // Winning again keeps the first time; hints never go back or past three.
    expect(withChallengeWon(p, 'double-run', 9999).challenges['double-run']!.wonAt).toBe(4000);
    expect(withHints(p, 'atomic-race', 1).challenges['atomic-race']!.hints).toBe(2);
    expect(withHints(p, 'atomic-race', 7).challenges['atomic-race']!.hints).toBe(3);
    // Later answers are practice: the first answer stays what it was.
    const wrongAgain = withAnswer(p, 'q-cte', false, 5000);
    expect(wrongAgain.quiz['q-cte']).toMatchObject({ first: 'wrong', correct: false, everCorrect: true, attempts: 3 });
    expect(withAnswer(withAnswer(emptyProgress(), 'q-cte', true, 1), 'q-cte', false, 2).quiz['q-cte']).toMatchObject({ first: 'right', correct: false });
  });

  it('scores the quiz by the first answers and counts finished chapters', () => {
    let p = emptyProgress();
    expect(quizScore(p)).toEqual({ correct: 0, answered: 0, total: QUIZ.length });
    p = withAnswer(p, 'q-cte', true, 1);
    p = withAnswer(p, 'q-nowait', false, 1);
    expect(quizScore(p)).toEqual({ correct: 1, answered: 2, total: QUIZ.length });
    // Right on a retry, wrong on a retry: the score is unchanged.
    p = withAnswer(p, 'q-nowait', true, 2);
    p = withAnswer(p, 'q-cte', false, 2);
    expect(quizScore(p)).toEqual({ correct: 1, answered: 2, total: QUIZ.length });
    expect(chaptersDone(withChapterDone(p, 'lease', 1))).toBe(1);
  });

  it('starts empty when nothing was saved, without a notice', () => {
    expect(parseProgress(null)).toEqual({ progress: emptyProgress(), notice: null });
  });

  it.each([
    ['not JSON', '{"version": 1, "chapters": '],
    ['JSON that is not an object', '[1,2,3]'],
  ])('rejects %s with a notice, hands the text back to keep aside, and starts fresh', (_, text) => {
    const parsed = parseProgress(text);
    expect(parsed.progress).toEqual(emptyProgress());
    expect(parsed.notice?.kind).toBe('reset-corrupt');
    expect(parsed.notice?.message).toMatch(/could not be read/);
    expect(parsed.unreadable).toBe(text);
  });

  it.each([
    ['a section of the wrong type', { chapters: 'race' }],
    ['a chapter entry of the wrong shape', { chapters: { race: { done: 'yes' } } }],
    ['a negative count', { quiz: { 'q-cte': { attempts: -1, first: 'right', correct: true, everCorrect: true, at: 0 } } }],
    ['a first answer that is not one of right, wrong, unknown', { quiz: { 'q-cte': { attempts: 1, first: true, correct: true, everCorrect: true, at: 0 } } }],
    ['more right predictions than attempts', { predictions: { 'claim-race': { attempts: 1, correct: 5 } } }],
    ['a current chapter that is not text', { currentChapter: 12 }],
  ])('leaves out %s and keeps every other entry', (_, damaged) => {
    const good = busyProgress();
    const saved = { ...good, ...damaged };
    const text = JSON.stringify(saved);
    const parsed = parseProgress(text);
    expect(parsed.notice?.kind).toBe('partly-unreadable');
    expect(parsed.notice?.message).toMatch(/One part .* set aside; everything else was kept/);
    expect(parsed.unreadable).toBe(text);
    // Every section the damage did not touch reads as it was saved.
    for (const section of ['chapters', 'quiz', 'predictions', 'challenges'] as const) {
      if (!(section in damaged)) expect(parsed.progress[section]).toEqual(good[section]);
    }
  });

  it('resets an older or unknown version with a notice that says which, and reads a newer one read-only', () => {
    const older = parseProgress(JSON.stringify({ version: 0, done: ['race'] }));
    expect(older.progress).toEqual(emptyProgress());
    expect(older.notice).toMatchObject({ kind: 'reset-version' });
    expect(older.notice!.message).toMatch(/older/);
    expect(older.unreadable).toBeDefined();
    const unversioned = parseProgress(JSON.stringify({ chapters: {} }));
    expect(unversioned.notice?.kind).toBe('reset-version');
    const newer = parseProgress(JSON.stringify({ ...busyProgress(), version: PROGRESS_VERSION + 1, somethingNew: { x: 1 } }));
    expect(newer.notice?.kind).toBe('read-only-newer');
    expect(newer.notice!.message).toMatch(/newer version .* read-only/);
    expect(newer.readOnly).toBe(true);
    expect(newer.progress.quiz).toEqual(busyProgress().quiz);
    expect(newer.progress.chapters).toEqual(busyProgress().chapters);
  });

  it('migrates an older version when a migration exists, with a notice', () => {
    const migrations = {
      [PROGRESS_VERSION - 1]: (old: Record<string, unknown>) => ({
        version: PROGRESS_VERSION,
        chapters: Object.fromEntries((old.done as string[]).map((id) => [id, { done: true, step: 0, doneAt: null }])),
      }),
    };
    const parsed = parseProgress(JSON.stringify({ version: PROGRESS_VERSION - 1, done: ['race', 'lease'] }), migrations);
    expect(parsed.notice?.kind).toBe('migrated');
    expect(chaptersDone(parsed.progress)).toBe(2);
    // A migration that chokes on the data is treated as corrupt data, not a crash.
    const broken = parseProgress(JSON.stringify({ version: PROGRESS_VERSION - 1, done: 'race' }), migrations);
    expect(broken.notice?.kind).toBe('reset-corrupt');
  });

  it('drops entries for chapters, questions and challenges that no longer exist, quietly', () => {
    const saved = {
      ...busyProgress(),
      chapters: { ...busyProgress().chapters, 'retired-chapter': { done: true, step: 0, doneAt: null } },
      quiz: { 'q-retired': { attempts: 1, first: 'right', correct: true, everCorrect: true, at: 0 } },
      currentChapter: 'retired-chapter',
    };
    const parsed = parseProgress(JSON.stringify(saved));
    expect(parsed.notice).toBeNull();
    expect(Object.keys(parsed.progress.chapters)).toEqual(['race']);
    expect(parsed.progress.quiz).toEqual({});
    expect(parsed.progress.currentChapter).toBeNull();
  });

  it('clamps a saved narration step to the chapter length', () => {
    const last = CHAPTERS[0]!.steps.length - 1;
    const parsed = parseProgress(JSON.stringify({ version: PROGRESS_VERSION, chapters: { race: { done: false, step: 999, doneAt: null } } }));
    expect(parsed.progress.chapters.race!.step).toBe(last);
  });
});

describe('progress store', () => {
  it('saves every change and survives a restart (a new store on the same storage)', () => {
    const storage = new MemoryStorage();
    const store = createProgressStore({ storage, now: () => 42 });
    const listener = vi.fn();
    store.subscribe(listener);
    store.markChapterDone('race');
    store.setChapterStep('lease', 2);
    store.recordAnswer('q-predict-race', true, 'claim-race');
    store.recordChallengeWon('double-run');
    store.revealHints('atomic-race', 1);
    expect(listener).toHaveBeenCalledTimes(5);
    expect(storage.getItem(PROGRESS_STORAGE_KEY)).not.toBeNull();

    const restarted = createProgressStore({ storage });
    const { progress, notice } = restarted.getState();
    expect(notice).toBeNull();
    expect(progress).toEqual(store.getState().progress);
    expect(progress.chapters.race).toMatchObject({ done: true, doneAt: 42 });
    expect(progress.predictions['claim-race']).toEqual({ attempts: 1, correct: 1 });
    expect(progress.quiz['q-predict-race']).toMatchObject({ correct: true });
  });

  it('keeps the same state object when nothing changes', () => {
    const store = createProgressStore({ storage: new MemoryStorage() });
    store.markChapterDone('race');
    const before = store.getState();
    store.markChapterDone('race');
    store.revealHints('atomic-race', 0);
    expect(store.getState()).toBe(before);
  });

  it('reports corrupt saved data once, keeps it aside, and replaces it at the next save', () => {
    const storage = new MemoryStorage();
    storage.setItem(PROGRESS_STORAGE_KEY, '{ nope');
    const store = createProgressStore({ storage });
    expect(store.getState().notice?.kind).toBe('reset-corrupt');
    expect(store.getState().progress).toEqual(emptyProgress());
    store.markChapterDone('race');
    expect(parseProgress(storage.getItem(PROGRESS_STORAGE_KEY)).progress.chapters.race?.done).toBe(true);
    expect(JSON.parse(storage.getItem(unreadableKey(PROGRESS_STORAGE_KEY))!)).toEqual(['{ nope']);
    store.dismissNotice();
    expect(store.getState().notice).toBeNull();
  });

  it('one damaged answer among 29 loses nothing else: the rest stay, through a save and a restart', () => {
    const storage = new MemoryStorage();
    let saved = emptyProgress();
    for (const question of QUIZ.slice(0, 29)) saved = withAnswer(saved, question.id, true, 7);
    const damagedId = QUIZ[3]!.id;
    const text = JSON.stringify({ ...saved, quiz: { ...saved.quiz, [damagedId]: { ...saved.quiz[damagedId], attempts: -1 } } });
    storage.setItem(PROGRESS_STORAGE_KEY, text);
    const store = createProgressStore({ storage, now: () => 8 });
    expect(store.getState().notice?.kind).toBe('partly-unreadable');
    expect(Object.keys(store.getState().progress.quiz)).toHaveLength(28);
    store.recordAnswer(QUIZ[29]!.id, false);
    const after = parseProgress(storage.getItem(PROGRESS_STORAGE_KEY));
    expect(after.notice).toBeNull();
    expect(Object.keys(after.progress.quiz)).toHaveLength(29);
    expect(after.progress.quiz[damagedId]).toBeUndefined();
    // The damaged record as it was is kept under its own key, once, however often it is saved.
    store.markChapterDone('race');
    expect(JSON.parse(storage.getItem(unreadableKey(PROGRESS_STORAGE_KEY))!)).toEqual([text]);
    expect(Object.keys(createProgressStore({ storage }).getState().progress.quiz)).toHaveLength(29);
  });

  it('never writes over a record from a newer version: shows it, keeps changes in memory, says it is read-only', () => {
    const storage = new MemoryStorage();
    const text = JSON.stringify({ ...busyProgress(), version: PROGRESS_VERSION + 1, somethingNew: [1, 2] });
    storage.setItem(PROGRESS_STORAGE_KEY, text);
    const store = createProgressStore({ storage });
    expect(store.getState()).toMatchObject({ readOnly: true, persistent: false, notice: { kind: 'read-only-newer' } });
    expect(store.getState().progress.quiz['q-cte']).toMatchObject({ attempts: 2, correct: true });
    store.recordAnswer('q-nowait', true);
    store.markChapterDone('lease');
    expect(store.getState().progress.quiz['q-nowait']).toMatchObject({ correct: true });
    expect(store.getState().notice?.kind).toBe('read-only-newer');
    expect(storage.getItem(PROGRESS_STORAGE_KEY)).toBe(text);
    expect([...storage.data.keys()]).toEqual([PROGRESS_STORAGE_KEY]);
  });

  it('keeps the damaged record in place when storage refuses its copy', () => {
    const storage = new FullStorage();
    storage.data.set(PROGRESS_STORAGE_KEY, '{ nope');
    const store = createProgressStore({ storage });
    store.markChapterDone('race');
    expect(store.getState().notice?.kind).toBe('save-failed');
    expect(storage.getItem(PROGRESS_STORAGE_KEY)).toBe('{ nope');
  });

  it('keeps progress in memory with a notice when the storage is full, and recovers when it has room again', () => {
    const storage = new FullStorage();
    const store = createProgressStore({ storage });
    store.markChapterDone('race');
    expect(store.getState().progress.chapters.race?.done).toBe(true);
    expect(store.getState().notice?.kind).toBe('save-failed');
    expect(store.getState().notice?.message).toMatch(/full/);
    expect(store.getState().persistent).toBe(false);
    storage.full = false;
    store.markChapterDone('lease');
    expect(store.getState().notice).toBeNull();
    expect(store.getState().persistent).toBe(true);
    expect(chaptersDone(parseProgress(storage.getItem(PROGRESS_STORAGE_KEY)).progress)).toBe(2);
  });

  it('works without storage at all, and when reading storage throws', () => {
    const none = createProgressStore({ storage: null });
    expect(none.getState().notice?.kind).toBe('storage-unavailable');
    none.markChapterDone('race');
    expect(none.getState().progress.chapters.race?.done).toBe(true);

    const blocked: StorageLike = {
      getItem: () => {
        throw new Error('SecurityError');
      },
      setItem: () => {
        throw new Error('SecurityError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    const store = createProgressStore({ storage: blocked });
    expect(store.getState().notice?.kind).toBe('storage-unavailable');
    store.markChapterDone('race');
    expect(store.getState().progress.chapters.race?.done).toBe(true);
    expect(() => store.reset()).not.toThrow();
  });

  it('erases everything on reset, with a notice', () => {
    const storage = new MemoryStorage();
    const store = createProgressStore({ storage });
    store.markChapterDone('race');
    store.reset();
    expect(storage.getItem(PROGRESS_STORAGE_KEY)).toBeNull();
    expect(store.getState().progress).toEqual(emptyProgress());
    expect(store.getState().notice?.kind).toBe('reset-done');
    expect(createProgressStore({ storage }).getState().progress).toEqual(emptyProgress());
  });

  it('follows changes made in another tab', () => {
    const storage = new MemoryStorage();
    const mine = createProgressStore({ storage });
    const target = new EventTarget();
    const stop = mine.listenToOtherTabs(target as unknown as Window);
    const theirs = createProgressStore({ storage });
    theirs.markChapterDone('fencing');
    target.dispatchEvent(Object.assign(new Event('storage'), { key: 'something-else' }));
    expect(mine.getState().progress.chapters.fencing).toBeUndefined();
    target.dispatchEvent(Object.assign(new Event('storage'), { key: PROGRESS_STORAGE_KEY }));
    expect(mine.getState().progress.chapters.fencing?.done).toBe(true);
    stop();
  });
});

describe('exit criteria from progress', () => {
  it('start all open, list what is left, and tick off from what the learner did', () => {
    const none = evaluateExitCriteria(emptyProgress());
    expect(none.every((c) => !c.met)).toBe(true);
    expect(none.every((c) => c.requirements.every((r) => !r.met && r.label.length > 0))).toBe(true);

    let p = emptyProgress();
    p = withChapterDone(p, 'backpressure', 1);
    const partial = evaluateExitCriteria(p).find((c) => c.criterion.id === 'backpressure')!;
    expect(partial.met).toBe(false);
    expect(partial.requirements.filter((r) => !r.met).map((r) => r.requirement)).toEqual([
      { kind: 'question', id: 'q-backpressure', practice: { kind: 'question', id: 'q-backpressure-tenant' } },
    ]);
    p = withAnswer(p, 'q-backpressure', true, 2);
    expect(evaluateExitCriteria(p).find((c) => c.criterion.id === 'backpressure')!.met).toBe(true);

    let all = emptyProgress();
    for (const chapter of CHAPTERS) all = withChapterDone(all, chapter.id, 1);
    for (const challenge of CHALLENGES) all = withChallengeWon(all, challenge.id, 1);
    for (const question of QUIZ) all = withAnswer(all, question.id, true, 1);
    for (const criterion of EXIT_CRITERIA) for (const r of criterion.requires) if (r.kind === 'predict') all = withPrediction(all, r.id, true);
    expect(evaluateExitCriteria(all).every((c) => c.met)).toBe(true);
  });
});

describe('first answers: what the quiz and the exit criteria count', () => {
  const version1 = {
    version: 1,
    chapters: { race: { done: true, step: 2, doneAt: 10 } },
    quiz: {
      'q-cte': { attempts: 1, correct: true, everCorrect: true, at: 1 },
      'q-nowait': { attempts: 1, correct: false, everCorrect: false, at: 2 },
      'q-lease': { attempts: 3, correct: false, everCorrect: false, at: 3 },
      // Right in the end after a retry: version 1 cannot say whether the first answer was.
      'q-race-condition': { attempts: 2, correct: true, everCorrect: true, at: 4 },
      'q-select-update': { attempts: 4, correct: false, everCorrect: true, at: 5 },
    },
    predictions: { 'claim-race': { attempts: 3, correct: 1 } },
    challenges: { 'double-run': { won: true, wonAt: 6, hints: 2 } },
    currentChapter: 'race',
    seed: 99,
  };

  it('carries version 1 over: every answer kept as answered, the first answer where it is known, with a notice', () => {
    const parsed = parseProgress(JSON.stringify(version1));
    expect(parsed.notice?.kind).toBe('migrated');
    expect(parsed.notice?.message).toMatch(/first answer .* counts as answered but not as right/);
    expect(parsed.seed).toBe(99);
    const { quiz, chapters, predictions, challenges, currentChapter } = parsed.progress;
    expect(Object.fromEntries(Object.entries(quiz).map(([id, entry]) => [id, entry.first]))).toEqual({
      'q-cte': 'right',
      'q-nowait': 'wrong',
      'q-lease': 'wrong',
      'q-race-condition': 'unknown',
      'q-select-update': 'unknown',
    });
    expect(quiz['q-race-condition']).toEqual({ attempts: 2, first: 'unknown', correct: true, everCorrect: true, at: 4 });
    expect(quizScore(parsed.progress)).toEqual({ correct: 1, answered: 5, total: QUIZ.length });
    expect({ chapters, predictions, challenges, currentChapter }).toEqual({
      chapters: version1.chapters,
      predictions: version1.predictions,
      challenges: version1.challenges,
      currentChapter: 'race',
    });
  });

  it('the store writes the carried-over record back at once, so the notice shows once and nothing is lost', () => {
    const storage = new MemoryStorage();
    storage.setItem(PROGRESS_STORAGE_KEY, JSON.stringify(version1));
    const first = createProgressStore({ storage });
    expect(first.getState().notice?.kind).toBe('migrated');
    const saved = JSON.parse(storage.getItem(PROGRESS_STORAGE_KEY)!);
    expect(saved.version).toBe(PROGRESS_VERSION);
    expect(saved.seed).toBe(99);
    const again = createProgressStore({ storage });
    expect(again.getState().notice).toBeNull();
    expect(again.getState().progress).toEqual(first.getState().progress);
  });

  it('a wrong first answer is final for its requirement; its practice can still show the idea, guessing cannot', () => {
    const race = (p: LessonProgress) => evaluateExitCriteria(p).find((c) => c.criterion.id === 'explain-race')!;
    const questionMet = (p: LessonProgress, id: string) => race(p).requirements.find((r) => r.requirement.kind === 'question' && r.requirement.id === id)!.met;
    let p = withAnswer(emptyProgress(), 'q-race-condition', false, 1);
    p = withAnswer(p, 'q-race-condition', true, 2);
    expect(questionMet(p, 'q-race-condition')).toBe(false);
    // Its practice: predictions of the race, right more often than wrong.
    p = withPrediction(p, 'claim-race', false);
    p = withPrediction(p, 'claim-race', true);
    expect(questionMet(p, 'q-race-condition')).toBe(false);
    p = withPrediction(p, 'claim-race', true);
    expect(questionMet(p, 'q-race-condition')).toBe(true);
    // A question's practice may be another question, answered right the first time.
    const backpressure = (q: LessonProgress) => evaluateExitCriteria(q).find((c) => c.criterion.id === 'backpressure')!;
    let b = withChapterDone(withAnswer(emptyProgress(), 'q-backpressure', false, 1), 'backpressure', 1);
    b = withAnswer(withAnswer(b, 'q-backpressure-tenant', false, 2), 'q-backpressure-tenant', true, 3);
    expect(backpressure(b).met).toBe(false);
    b = withAnswer(withChapterDone(withAnswer(emptyProgress(), 'q-backpressure', false, 1), 'backpressure', 1), 'q-backpressure-tenant', true, 2);
    expect(backpressure(b).met).toBe(true);
  });

  it('every question requirement has practice that exists and is not the question itself', () => {
    for (const criterion of EXIT_CRITERIA) {
      for (const r of criterion.requires) {
        if (r.kind !== 'question') continue;
        expect(
          QUIZ.some((q) => q.id === r.id),
          r.id,
        ).toBe(true);
        expect(r.practice.id).not.toBe(r.id);
        if (r.practice.kind === 'question') expect(QUIZ.some((q) => q.id === r.practice.id)).toBe(true);
        else expect(PREDICT_GENERATORS.some((g) => g.id === r.practice.id)).toBe(true);
      }
    }
  });
});
