/**
 * The quiz gives nothing away: a learner who always picks the first choice shown, or always the
 * longest, does no better than chance, and neither does one who answers anything and then tries again
 * until right (only first answers score, and a wrong answer is told why it is wrong, never which choice
 * is right). Chance is computed from the choice counts: a choice picked without reading is right with
 * probability (right choices) / (choices) of its question.
 */
import { describe, expect, it } from 'vitest';
import { evaluateExitCriteria } from '../../src/lessons/exit-criteria';
import { findGenerator } from '../../src/lessons/predict';
import { emptyProgress, parseProgress, quizScore, serializeProgress, withAnswer, withPrediction } from '../../src/lessons/progress';
import { displayedChoices, faultyLine, initialOrder, isCorrect, QUIZ, whyWrong } from '../../src/lessons/quiz';
import { sqlLines, uniqueLine } from '../../src/lessons/sql-lines';
import type { MultipleChoiceQuestion, QuizAnswer, QuizQuestion, SingleChoiceQuestion } from '../../src/lessons/types';
import { seededRandom } from '../../src/sim/random';
import { createProgressStore, type StorageLike } from '../../src/store/progress-store';

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

// ---- Answer anything, then try again until right ------------------------------------------------------

function factorial(n: number): number {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

/** How many choices a predict question offers (its instances all offer the same number). */
function predictChoices(generatorId: string): number {
  return findGenerator(generatorId)!.generate(1).choices.length;
}

/** The chance that an answer picked without reading is right, question by question. */
function chanceOf(question: QuizQuestion): number {
  switch (question.kind) {
    case 'single':
      return 1 / question.choices.length;
    case 'multiple':
      return 1 / (2 ** question.choices.length - 1);
    case 'order':
      return 1 / factorial(question.items.length);
    case 'bug':
      return 1 / sqlLines(question.sql).length;
    case 'predict':
      return 1 / predictChoices(question.generatorId);
  }
}

/** The right answer of a static question (what a learner reaches by trying again). */
function rightAnswer(question: Exclude<QuizQuestion, { kind: 'predict' }>): QuizAnswer {
  switch (question.kind) {
    case 'single':
      return { kind: 'single', choiceId: question.choices.find((c) => c.correct)!.id };
    case 'multiple':
      return { kind: 'multiple', choiceIds: question.choices.filter((c) => c.correct).map((c) => c.id) };
    case 'order':
      return { kind: 'order', itemIds: question.items.map((i) => i.id) };
    case 'bug':
      return { kind: 'bug', line: faultyLine(question)! };
  }
}

/** "Anything": the first thing on screen, as the learner's seed shows it. */
function anyAnswer(question: Exclude<QuizQuestion, { kind: 'predict' }>, seed: number): QuizAnswer {
  switch (question.kind) {
    case 'single':
      return { kind: 'single', choiceId: displayedChoices(question, seed, 0)[0]!.id };
    case 'multiple':
      return { kind: 'multiple', choiceIds: [displayedChoices(question, seed, 0)[0]!.id] };
    case 'order':
      return { kind: 'order', itemIds: initialOrder(question, 0).map((i) => i.id) };
    case 'bug':
      return { kind: 'bug', line: 1 };
  }
}

/**
 * One learner answers every question with anything, then tries again until right, through the real
 * progress store. A predict question is a guess on fresh parameters each time, right with its chance.
 */
function answerAnythingThenRetry(seed: number) {
  const store = createProgressStore({ storage: new MemoryStorage(), newSeed: () => seed });
  const random = seededRandom(seed);
  for (const question of QUIZ) {
    if (question.kind === 'predict') {
      for (let tries = 0; tries < 50; tries++) {
        const right = random() < chanceOf(question);
        store.recordAnswer(question.id, right, question.generatorId);
        if (right) break;
      }
      continue;
    }
    const first = anyAnswer(question, seed);
    store.recordAnswer(question.id, isCorrect(question, first));
    if (!isCorrect(question, first)) store.recordAnswer(question.id, isCorrect(question, rightAnswer(question)));
  }
  return store.getState().progress;
}

/** Exit-criteria requirements that a quiz answer or a prediction can meet. */
function quizRequirementsMet(progress: ReturnType<typeof emptyProgress>): number {
  return evaluateExitCriteria(progress)
    .flatMap((c) => c.requirements)
    .filter((r) => (r.requirement.kind === 'question' || r.requirement.kind === 'predict') && r.met).length;
}

describe('answering anything, then trying again until right', () => {
  const expected = QUIZ.reduce((sum, q) => sum + chanceOf(q), 0);
  const learners = 200;
  const runs = Array.from({ length: learners }, (_, learner) => answerAnythingThenRetry(Math.imul(learner + 1, 0x9e3779b1) >>> 0));

  it('scores no better than answering at random (+ a margin)', () => {
    const mean = runs.reduce((sum, p) => sum + quizScore(p).correct, 0) / learners;
    expect(mean).toBeLessThanOrEqual(expected + MARGIN);
    // Every question was answered, and right in the end: the retries happened, they just do not score.
    for (const p of runs.slice(0, 5)) {
      expect(quizScore(p).answered).toBe(QUIZ.length);
      expect(Object.values(p.quiz).every((entry) => entry.correct)).toBe(true);
    }
  });

  it('ticks no more exit-criteria requirements than answering at random once (+ a margin)', () => {
    const random = Array.from({ length: learners }, (_, learner) => {
      const pick = seededRandom(Math.imul(learner + 7, 0x85ebca6b) >>> 0);
      let p = emptyProgress();
      for (const question of QUIZ) {
        const right = pick() < chanceOf(question);
        p = withAnswer(p, question.id, right, 1);
        if (question.kind === 'predict') p = withPrediction(p, question.generatorId, right);
      }
      return quizRequirementsMet(p);
    });
    const meanRetry = runs.reduce((sum, p) => sum + quizRequirementsMet(p), 0) / learners;
    const meanRandom = random.reduce((sum, n) => sum + n, 0) / learners;
    expect(meanRetry).toBeLessThanOrEqual(meanRandom + MARGIN);
  });
});

// ---- What a wrong answer is told ------------------------------------------------------------------------

function subsets<T>(items: readonly T[]): T[][] {
  const all: T[][] = [[]];
  for (const item of items) for (const set of [...all]) all.push([...set, item]);
  return all.filter((set) => set.length > 0);
}

function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

describe('a wrong answer is told why it is wrong, and no right choice', () => {
  it.each(QUIZ.filter((q) => q.kind !== 'predict').map((q) => [q.id, q] as const))('%s', (_, question) => {
    let wrong = 0;
    const check = (answer: QuizAnswer, extra: (text: string) => void) => {
      const lines = whyWrong(question, answer);
      if (isCorrect(question, answer)) {
        expect(lines).toEqual([]);
        return;
      }
      wrong++;
      expect(lines.length, JSON.stringify(answer)).toBeGreaterThan(0);
      const text = lines.join(' ');
      expect(text).not.toContain(question.explanation);
      expect(text).not.toMatch(/belongs at|right place|correct answer|the bug/i);
      extra(text);
    };
    switch (question.kind) {
      case 'single':
      case 'multiple': {
        const right = question.choices.filter((c) => c.correct);
        const ids = question.choices.map((c) => c.id);
        const answers: QuizAnswer[] =
          question.kind === 'single'
            ? ids.map((choiceId) => ({ kind: 'single', choiceId }))
            : subsets(ids).map((choiceIds) => ({ kind: 'multiple', choiceIds }));
        for (const answer of answers) {
          check(answer, (text) => {
            for (const choice of right) expect(text).not.toContain(choice.label);
          });
        }
        break;
      }
      case 'order':
        for (const itemIds of permutations(question.items.map((i) => i.id))) {
          check({ kind: 'order', itemIds }, (text) => {
            // It names two events, the one placed too early before one it needs, as the learner placed them.
            const named = question.items.filter((i) => text.includes(`"${i.label}"`));
            expect(named).toHaveLength(2);
            const [needs, early] = named;
            expect(itemIds.indexOf(early!.id)).toBeLessThan(itemIds.indexOf(needs!.id));
          });
        }
        break;
      case 'bug': {
        const faulty = faultyLine(question)!;
        const lines = sqlLines(question.sql);
        for (let line = 1; line <= lines.length; line++) {
          check({ kind: 'bug', line }, (text) => {
            expect(text).toMatch(new RegExp(`^Line ${line}\\b`));
            expect(text).not.toContain(lines[faulty - 1]!.trim());
            expect(text).not.toContain(question.faultyLineContains);
          });
        }
        // Each note explains one line, never the faulty one.
        for (const note of question.lineNotes) {
          const at = uniqueLine(question.sql, note.match);
          expect(at, note.match).not.toBeNull();
          expect(at).not.toBe(faulty);
        }
        break;
      }
    }
    expect(wrong).toBeGreaterThan(0);
  });

  it('every event of an ordering question but the first says what must come before it', () => {
    for (const question of QUIZ) {
      if (question.kind !== 'order') continue;
      for (const item of question.items.slice(1)) expect(item.why, `${question.id}/${item.id}`).toBeTruthy();
    }
  });
});
