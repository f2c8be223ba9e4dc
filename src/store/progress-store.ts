/**
 * A tiny observable store for lesson progress, saved to localStorage (or any Storage-like object) through
 * the lab's one persistence mechanism (persist/saved.ts, with lessons/progress.ts's format); the
 * composition root (src/app/page.tsx) makes the page's one.
 * Storage that is missing, blocked or full never breaks the lesson: progress stays in memory and the
 * learner gets a notice saying so. Saved text that did not read (in whole or in part) is copied under
 * `<key>:unreadable` before the first save replaces it, and a record from a newer version of the lab is
 * never written over.
 */
import { forgetSaved, loadSaved, type SavedFormat, type StorageLike, saveSaved } from '../persist/saved';
import {
  emptyProgress,
  type LessonProgress,
  PROGRESS_STORAGE_KEY,
  type ProgressNoticeText,
  progressFormat,
  progressFrom,
  withAnswer,
  withChallengeWon,
  withChapterDone,
  withChapterStep,
  withCurrentLevel,
  withHints,
  withPrediction,
} from '../lessons/progress';
import type { ChapterId } from '../lessons/types';

export type { StorageLike };

export interface ProgressState {
  progress: LessonProgress;
  notice: ProgressNoticeText | null;
  /** False when progress cannot be saved (no storage, the last save failed, or the record is read-only). */
  persistent: boolean;
  /** The saved record came from a newer version of the lab: changes stay in memory, storage is left as it was. */
  readOnly: boolean;
  /** The learner's seed for shuffling quiz choices: saved with the progress, made once per learner. */
  seed: number;
}

/** Where saved text that could not be read is kept: the latest few distinct copies, newest last. */
export function unreadableKey(key: string): string {
  return `${key}:unreadable`;
}
const UNREADABLE_KEPT = 5;

/** The copies kept aside: a list of texts, newest last (anything else there is replaced by a list that reads). */
function unreadableFormat(key: string): SavedFormat<string[]> {
  return {
    key: unreadableKey(key),
    version: 1,
    versionOf: (value) => (Array.isArray(value) ? 1 : null),
    decode: (value) => (value as unknown[]).filter((entry): entry is string => typeof entry === 'string'),
    encode: (texts) => texts,
  };
}

export interface ProgressStore {
  getState(): ProgressState;
  subscribe(listener: () => void): () => void;
  update(change: (progress: LessonProgress) => LessonProgress): void;
  setChapterStep(chapterId: ChapterId, step: number): void;
  markChapterDone(chapterId: ChapterId): void;
  /** A quiz answer; a predict question also counts as a prediction for its generator. */
  recordAnswer(questionId: string, correct: boolean, generatorId?: string): void;
  recordPrediction(generatorId: string, correct: boolean): void;
  recordChallengeWon(challengeId: string): void;
  revealHints(challengeId: string, count: number): void;
  /** Puts a level in play (its goal shows above the timeline), or leaves it (null). */
  setLevel(levelId: string | null): void;
  dismissNotice(): void;
  /** Saves the learner's seed if storage does not hold it yet, so the quiz's order survives a reload. */
  keepSeed(): void;
  /** Erases saved progress (ask the learner first). */
  reset(): void;
  /** Reads storage again, e.g. after another tab changed it. */
  reload(): void;
  /** Keeps this store in step with other tabs; returns a function that stops listening. */
  listenToOtherTabs(target: Pick<Window, 'addEventListener' | 'removeEventListener'>): () => void;
}

export interface ProgressStoreOptions {
  storage: StorageLike | null;
  key?: string;
  now?: () => number;
  /** A fresh learner seed (default: crypto.getRandomValues). */
  newSeed?: () => number;
}

function randomSeed(): number {
  return globalThis.crypto.getRandomValues(new Uint32Array(1))[0]!;
}

const UNAVAILABLE: ProgressNoticeText = {
  kind: 'storage-unavailable',
  message: 'This browser is not letting the lesson save progress (private mode or blocked storage). Your progress lasts until you close the page.',
};

function saveFailed(error: unknown): ProgressNoticeText {
  const quota = error instanceof Error && (error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED');
  return {
    kind: 'save-failed',
    message: quota
      ? "Your browser's storage for this site is full, so the latest progress was not saved. It is kept until you close the page; freeing some site data lets saving resume."
      : 'Your progress could not be saved just now. It is kept until you close the page.',
  };
}

export function createProgressStore(options: ProgressStoreOptions): ProgressStore {
  const key = options.key ?? PROGRESS_STORAGE_KEY;
  const format = progressFormat(undefined, key);
  const asideFormat = unreadableFormat(key);
  const now = options.now ?? (() => Date.now());
  const storage = options.storage;
  const newSeed = options.newSeed ?? randomSeed;
  const listeners = new Set<() => void>();
  /** Whether storage holds the current seed (else the next save, or keepSeed, writes it). */
  let seedSaved = false;
  /** The learner's seed: the saved one, else one made here once (kept across reloads of this store). */
  let learnerSeed: number | undefined;

  /** Saved text that did not read and is not yet kept aside. */
  let aside: string | null = null;

  function read(): ProgressState {
    aside = null;
    seedSaved = false;
    learnerSeed ??= newSeed();
    const seed = learnerSeed;
    const loaded = loadSaved(storage, format);
    if (loaded.kind === 'blocked') return { progress: emptyProgress(), notice: UNAVAILABLE, persistent: false, readOnly: false, seed };
    const parsed = progressFrom(loaded);
    aside = parsed.unreadable ?? null;
    seedSaved = parsed.seed !== undefined;
    learnerSeed = parsed.seed ?? learnerSeed;
    const readOnly = parsed.readOnly === true;
    return { progress: parsed.progress, notice: parsed.notice, persistent: !readOnly, readOnly, seed: parsed.seed ?? seed };
  }

  /** Copies the unreadable text under its own key; throws if storage refuses it (then the record stays). */
  function keepAside(target: StorageLike, text: string): void {
    const before = loadSaved(target, asideFormat);
    let kept = before.kind === 'read' ? before.state : [];
    if (!kept.includes(text)) kept = [...kept, text].slice(-UNREADABLE_KEPT);
    const saved = saveSaved(target, asideFormat, kept);
    if (!saved.ok) throw saved.error;
  }

  let state = read();

  function emit(next: ProgressState): void {
    state = next;
    for (const listener of [...listeners]) listener();
  }

  function save(progress: LessonProgress): ProgressState {
    const seed = state.seed;
    if (!storage) return { progress, notice: state.notice ?? UNAVAILABLE, persistent: false, readOnly: false, seed };
    if (state.readOnly) return { ...state, progress };
    try {
      // The damaged record is replaced only once a copy of it is safe under its own key.
      if (aside !== null) keepAside(storage, aside);
      aside = null;
      const saved = saveSaved(storage, format, { progress, seed, damaged: 0 });
      if (!saved.ok) throw saved.error;
      seedSaved = true;
      const notice = state.notice?.kind === 'save-failed' || state.notice?.kind === 'storage-unavailable' ? null : state.notice;
      return { progress, notice, persistent: true, readOnly: false, seed };
    } catch (error) {
      return { progress, notice: saveFailed(error), persistent: false, readOnly: false, seed };
    }
  }

  /** A record carried over from an older format is written back in today's at once, so its notice shows once. */
  function upgraded(fresh: ProgressState): ProgressState {
    if (fresh.notice?.kind !== 'migrated' || fresh.readOnly || !storage) return fresh;
    state = fresh;
    return save(fresh.progress);
  }
  state = upgraded(state);

  const store: ProgressStore = {
    getState: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    update(change) {
      const next = change(state.progress);
      if (next === state.progress) return;
      emit(save(next));
    },
    setChapterStep: (chapterId, step) =>
      store.update((p) => (p.chapters[chapterId]?.step === step && p.currentChapter === chapterId ? p : withChapterStep(p, chapterId, step))),
    markChapterDone: (chapterId) => store.update((p) => (p.chapters[chapterId]?.done ? p : withChapterDone(p, chapterId, now()))),
    recordAnswer(questionId, correct, generatorId) {
      store.update((p) => {
        const answered = withAnswer(p, questionId, correct, now());
        return generatorId ? withPrediction(answered, generatorId, correct) : answered;
      });
    },
    recordPrediction: (generatorId, correct) => store.update((p) => withPrediction(p, generatorId, correct)),
    recordChallengeWon: (challengeId) => store.update((p) => withChallengeWon(p, challengeId, now())),
    revealHints: (challengeId, count) => store.update((p) => withHints(p, challengeId, count)),
    setLevel: (levelId) => store.update((p) => withCurrentLevel(p, levelId)),
    keepSeed() {
      if (seedSaved || !storage || state.readOnly) return;
      emit(save(state.progress));
    },
    dismissNotice() {
      if (state.notice) emit({ ...state, notice: null });
    },
    reset() {
      const persistent = storage !== null && forgetSaved(storage, key);
      aside = null;
      seedSaved = false;
      learnerSeed = newSeed();
      emit({
        seed: learnerSeed,
        progress: emptyProgress(),
        notice: { kind: 'reset-done', message: 'Your progress has been erased. The lesson starts from the beginning.' },
        persistent,
        readOnly: false,
      });
    },
    reload() {
      emit(upgraded(read()));
    },
    listenToOtherTabs(target) {
      const onStorage = (event: Event) => {
        const changed = (event as StorageEvent).key;
        if (changed === key || changed === null) store.reload();
      };
      target.addEventListener('storage', onStorage);
      return () => target.removeEventListener('storage', onStorage);
    },
  };
  return store;
}

/** window.localStorage when the browser allows it, else null. */
export function browserStorage(): StorageLike | null {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return null;
    const probe = `${PROGRESS_STORAGE_KEY}.probe`;
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch (error) {
    // A full storage still reads fine: keep it, saving will report the problem.
    if (error instanceof Error && error.name === 'QuotaExceededError') {
      try {
        return globalThis.localStorage ?? null;
      } catch {
        return null;
      }
    }
    return null;
  }
}
