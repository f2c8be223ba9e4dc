/**
 * Challenges as levels: their suggested order follows the lesson's chapters; the level judges the run at
 * the cursor after every step with the challenge's own judge, so its win comes at the step that makes it
 * and not before; the record says solved, solved with hints (n) or revealed; and a saved version 2 win
 * (whose hints are not known) is carried over as solved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { runSchedule } from '../../src/engine/run';
import { CHALLENGES } from '../../src/lessons/challenges';
import { CHAPTERS } from '../../src/lessons/chapters';
import { judgeAt, LEVELS, levelIdea, levelNumber, levelRecord, nextLevel, recordLabel } from '../../src/lessons/levels';
import { emptyProgress, PROGRESS_STORAGE_KEY, parseProgress, serializeProgress, withChallengeWon, withHints } from '../../src/lessons/progress';
import { findScenario } from '../../src/scenarios';
import type { Trace } from '../../src/sim/types';
import { createProgressStore } from '../../src/store/progress-store';
import { MemoryStorage } from '../support/memory-storage';

const chapterIndex = (id: string) => CHAPTERS.findIndex((chapter) => chapter.id === id);

describe('the suggested order', () => {
  it('holds every challenge once, in the order of the chapters each practises', () => {
    expect(new Set(LEVELS.map((level) => level.id))).toEqual(new Set(CHALLENGES.map((c) => c.id)));
    expect(LEVELS).toHaveLength(CHALLENGES.length);
    const chapters = LEVELS.map((level) => chapterIndex(level.chapterId));
    expect(chapters.every((index) => index >= 0)).toBe(true);
    expect(chapters).toEqual([...chapters].sort((a, b) => a - b));
    // The race comes first, what production queues do last.
    expect(LEVELS[0]!.id).toBe('lucky-naive');
    expect(LEVELS.at(-1)!.chapterId).toBe('production-queues');
  });

  it('numbers the levels from 1, names the idea by its chapter, and "Next level" walks them to the end', () => {
    expect(levelNumber(LEVELS[0]!.id)).toBe(1);
    expect(levelIdea(LEVELS[0]!)).toBe('The race');
    expect(levelIdea(LEVELS.find((level) => level.id === 'long-wait')!)).toBe('Wait, fail or skip: FOR UPDATE, NOWAIT, SKIP LOCKED');
    const walked = [LEVELS[0]!.id];
    for (let next = nextLevel(LEVELS[0]!.id); next; next = nextLevel(next.id)) walked.push(next.id);
    expect(walked).toEqual(LEVELS.map((level) => level.id));
  });

  it('the last hint of every level spells out a schedule: reading it reveals the level', () => {
    for (const level of LEVELS) expect(level.hints.at(-1), level.id).toMatch(/^(Try|Let) /);
  });
});

describe('the record of a level', () => {
  const level = LEVELS.find((l) => l.id === 'atomic-race')!;
  const record = (progress: ReturnType<typeof emptyProgress>) => recordLabel(levelRecord(progress, level));

  it('solved, solved with hints (n), revealed: by the hints seen before the first win', () => {
    expect(record(emptyProgress())).toBe('not solved yet');
    expect(record(withChallengeWon(emptyProgress(), level.id, 1))).toBe('solved');
    expect(record(withChallengeWon(withHints(emptyProgress(), level.id, 1), level.id, 1))).toBe('solved with hints (1)');
    expect(record(withChallengeWon(withHints(emptyProgress(), level.id, 2), level.id, 1))).toBe('solved with hints (2)');
    expect(record(withChallengeWon(withHints(emptyProgress(), level.id, 3), level.id, 1))).toBe('revealed');
    // Hints read after the win do not change it; the last hint read before any win reveals the level.
    expect(record(withHints(withChallengeWon(emptyProgress(), level.id, 1), level.id, 3))).toBe('solved');
    expect(record(withHints(emptyProgress(), level.id, 3))).toBe('revealed');
    expect(record(withHints(emptyProgress(), level.id, 2))).toBe('not solved yet');
  });

  it('survives the saved form, with the level in play', () => {
    const store = createProgressStore({ storage: new MemoryStorage() });
    const storage = new MemoryStorage();
    const saved = createProgressStore({ storage });
    saved.revealHints(level.id, 2);
    saved.recordChallengeWon(level.id);
    saved.revealHints(level.id, 3);
    saved.setLevel(level.id);
    const again = createProgressStore({ storage });
    expect(again.getState().progress.currentLevel).toBe(level.id);
    expect(recordLabel(levelRecord(again.getState().progress, level))).toBe('solved with hints (2)');
    again.setLevel(null);
    expect(createProgressStore({ storage }).getState().progress.currentLevel).toBeNull();
    expect(store.getState().progress.currentLevel).toBeNull();
  });

  it('a level that no longer exists is not in play after a reload', () => {
    const text = serializeProgress({ ...emptyProgress(), currentLevel: 'no-such-level' });
    expect(parseProgress(text).progress.currentLevel).toBeNull();
  });
});

describe('carrying version 2 over', () => {
  const version2 = {
    version: 2,
    chapters: {},
    quiz: {},
    predictions: {},
    challenges: {
      // Won, with two hints seen at some time: version 2 did not keep whether before or after the win.
      'double-run': { won: true, wonAt: 6, hints: 2 },
      'atomic-race': { won: true, wonAt: 7, hints: 3 },
      'long-wait': { won: false, wonAt: null, hints: 1 },
    },
    currentChapter: null,
    seed: 5,
  };

  it('a stored win whose hints are not known stays "solved"; hints seen are kept; no level in play', () => {
    const parsed = parseProgress(JSON.stringify(version2));
    expect(parsed.notice?.kind).toBe('migrated');
    const { progress } = parsed;
    expect(progress.currentLevel).toBeNull();
    expect(progress.challenges['double-run']).toEqual({ won: true, wonAt: 6, hints: 2 });
    const label = (id: string) => recordLabel(levelRecord(progress, LEVELS.find((l) => l.id === id)!));
    expect(label('double-run')).toBe('solved');
    expect(label('atomic-race')).toBe('solved');
    expect(label('long-wait')).toBe('not solved yet');
  });

  it('the store writes it back in version 3 at once, and it reads the same', () => {
    const storage = new MemoryStorage();
    storage.setItem(PROGRESS_STORAGE_KEY, JSON.stringify(version2));
    const first = createProgressStore({ storage });
    expect(JSON.parse(storage.getItem(PROGRESS_STORAGE_KEY)!).version).toBe(3);
    const again = createProgressStore({ storage });
    expect(again.getState().notice).toBeNull();
    expect(again.getState().progress).toEqual(first.getState().progress);
  });
});

describe('judged after every step, by the challenge’s own judge (PGlite)', () => {
  let db: PGliteLab;
  beforeAll(async () => {
    db = await bootLabDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it.each(LEVELS.map((level) => [level.id, level] as const))('%s: its solution wins at its last step, not before', async (_id, level) => {
    const scenario = findScenario(level.scenarioId)!;
    const trace: Trace = await runSchedule(db, scenario, level.settings, level.solution, { onInapplicable: 'error' });
    const initialRuns = (await runSchedule(db, scenario, level.settings, [], { onInapplicable: 'error' })).finalRuns;
    const won = trace.steps.map((_, index) => judgeAt(level, trace, index + 1, initialRuns).won);
    expect(won.at(-1)).toBe(true);
    expect(won.slice(0, -1).every((w) => !w)).toBe(true);
    expect(judgeAt(level, trace, 0, initialRuns).won).toBe(false);
    // The same verdict as the judge gives the whole run.
    expect(judgeAt(level, trace, trace.steps.length, initialRuns)).toEqual(level.judge(trace));
    // At a token's last step, the verdict is the one the judge gives that prefix played on its own.
    for (let tokens = 1; tokens < level.solution.length; tokens++) {
      const prefix = await runSchedule(db, scenario, level.settings, level.solution.slice(0, tokens), { onInapplicable: 'error' });
      const position = trace.steps.filter((step) => step.tokenIndex < tokens).length;
      expect(judgeAt(level, trace, position, initialRuns), `${level.id} after ${tokens} tokens`).toEqual(level.judge(prefix));
    }
  });
});
