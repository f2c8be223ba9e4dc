/**
 * The quiz gives nothing away: a learner who always picks the first choice shown, or always the
 * longest, does no better than chance. Chance is computed from the choice counts: a choice picked
 * without reading is right with probability (right choices) / (choices) of its question.
 */
import { describe, expect, it } from 'vitest';
import { parseProgress, serializeProgress, withAnswer } from '../../src/lessons/progress';
import { createProgressStore, type StorageLike } from '../../src/store/progress-store';
import { displayedChoices, isCorrect, QUIZ } from '../../src/lessons/quiz';
import type { MultipleChoiceQuestion, SingleChoiceQuestion } from '../../src/lessons/types';

const choiceQuestions = QUIZ.filter((q): q is SingleChoiceQuestion | MultipleChoiceQuestion => q.kind === 'single' || q.kind === 'multiple');
const chance = choiceQuestions.reduce((sum, q) => sum + q.choices.filter((c) => c.correct).length / q.choices.length, 0);
/** Questions' worth of luck allowed above chance. */
const MARGIN = 1.5;

class MemoryStorage implements StorageLike {
  readonly data = new Map<string, string>();
  getItem = (key: string) => this.data.get(key) ?? null;
  setItem = (key: string, value: string) => void this.data.set(key, value);
  removeItem = (key: string) => void this.data.delete(key);
}

describe('the quiz gives no answer away', () => {
  it('has choice questions to judge', () => {
    expect(choiceQuestions.length).toBeGreaterThanOrEqual(10);
    expect(chance).toBeGreaterThan(2);
  });

  it('always picking the first choice shown scores no better than chance, over learners and attempts', () => {
    const learners = 200;
    let picks = 0;
    for (let learner = 0; learner < learners; learner++) {
      const seed = Math.imul(learner + 1, 0x9e3779b1) >>> 0;
      for (const attempt of [0, 1, 2]) {
        for (const question of choiceQuestions) if (displayedChoices(question, seed, attempt)[0]!.correct) picks++;
      }
    }
    expect(picks / (learners * 3)).toBeLessThanOrEqual(chance + MARGIN);
    // …and the single-answer questions are each right about 1/n of the time: no fixed position.
    const first = choiceQuestions.filter((q) => q.kind === 'single').map((q) => displayedChoices(q, 1, 0)[0]!.id);
    expect(new Set(first).size).toBeGreaterThan(1);
  });

  it('always picking the longest choice scores no better than chance', () => {
    const longestRight = choiceQuestions.filter((q) => {
      const longest = Math.max(...q.choices.map((c) => c.label.length));
      const tied = q.choices.filter((c) => c.label.length === longest);
      // A tie is broken by position on screen, which is shuffled: count the share that is right.
      return tied.filter((c) => c.correct).length / tied.length > 0.5;
    }).length;
    expect(longestRight).toBeLessThanOrEqual(chance + MARGIN);
  });

  it('shuffles per learner and attempt, the same on every reload, and keeps every choice', () => {
    const question = choiceQuestions[0]!;
    const order = (seed: number, attempt: number) => displayedChoices(question, seed, attempt).map((c) => c.id);
    expect(order(7, 0)).toEqual(order(7, 0));
    expect([...order(7, 0)].sort()).toEqual(question.choices.map((c) => c.id).sort());
    const orders = new Set([0, 1, 2, 3, 4, 5, 6, 7].flatMap((attempt) => [11, 12, 13].map((seed) => order(seed, attempt).join())));
    expect(orders.size).toBeGreaterThan(4);
  });

  it("keeps the learner's seed with the progress: made once, the same after a reload, answers by choice id", () => {
    const storage = new MemoryStorage();
    let made = 0;
    const newSeed = () => {
      made++;
      return 123_456_789;
    };
    const store = createProgressStore({ storage, newSeed });
    store.keepSeed();
    const again = createProgressStore({ storage, newSeed: () => 1 });
    expect(again.getState().seed).toBe(123_456_789);
    expect(made).toBe(1);
    // Answers saved before the shuffle (choice ids, no positions) read as before and grade the same.
    const saved = serializeProgress(withAnswer(parseProgress(null).progress, choiceQuestions[0]!.id, true, 1));
    expect(parseProgress(saved).progress.quiz[choiceQuestions[0]!.id]).toMatchObject({ correct: true });
    const right = choiceQuestions[0]!.choices.find((c) => c.correct)!;
    expect(isCorrect(choiceQuestions[0]!, { kind: 'single', choiceId: right.id })).toBe(true);
  });
});
