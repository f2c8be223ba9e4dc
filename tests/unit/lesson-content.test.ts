/**
 * The lesson's content is typed data: these checks keep every link resolvable and every question
 * well-formed. Nothing here needs the database (see lesson-engine.test.ts for that).
 */
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CHALLENGES } from '../../src/lessons/challenges';
import { CHAPTERS, chapterById } from '../../src/lessons/chapters';
import { CONCEPTS } from '../../src/lessons/concepts';
import { EXIT_CRITERIA } from '../../src/lessons/exit-criteria';
import { findGenerator, PREDICT_GENERATORS } from '../../src/lessons/predict';
import { correctChoiceIds, countByKind, faultyLine, initialOrder, isCorrect, QUIZ } from '../../src/lessons/quiz';
import { SOURCES } from '../../src/lessons/sources';
import { resolveClauses, sqlLines, uniqueLine } from '../../src/lessons/sql-lines';
import { labStatementText } from '../../src/strategies';
import { findScenario } from '../../src/scenarios';
import { PGLITE_HAS_ONE_SESSION } from '../../src/sim/isolation';
import { parseSchedule } from '../../src/sim/schedule';
import { isBackpressureFragment } from '../../src/store/backpressure-link';
import type { QuizQuestion } from '../../src/lessons/types';

const CONCEPT_NAMES = ['claim', 'lease', 'lease-expiry', 'heartbeat', 'progress-vs-liveness', 'orphan-reclaim', 'fencing', 'cancellation', 'backpressure'];

function unique(ids: string[]): boolean {
  return new Set(ids).size === ids.length;
}

describe('chapters', () => {
  it('link to another view only where that view exists, and the backpressure chapter links to its lab', () => {
    const views = CHAPTERS.flatMap((chapter) => chapter.steps.flatMap((step) => (step.view ? [{ chapter: chapter.id, ...step.view }] : [])));
    for (const view of views) expect(isBackpressureFragment(view.fragment), `${view.chapter}: ${view.fragment}`).toBe(true);
    expect(views.map((view) => view.chapter)).toContain('backpressure');
  });

  it('have unique ids, and unique step ids within each chapter', () => {
    expect(unique(CHAPTERS.map((c) => c.id))).toBe(true);
    for (const chapter of CHAPTERS) expect(unique(chapter.steps.map((s) => s.id)), chapter.id).toBe(true);
  });

  it('say in compare-and-set what REPEATABLE READ and SERIALIZABLE do to a claim, that the page cannot show it, and where to see it', () => {
    const guard = chapterById('compare-and-set')
      .steps.find((step) => step.id === 'guard')!
      .body.join('\n');
    // PostgreSQL 15's own messages, as tests/ground-truth/isolation-cli.test.ts and postgres-isolation.test.ts get them.
    expect(guard).toContain('fails 40001 (`could not serialize access due to concurrent update`)');
    expect(guard).toContain('the second COMMIT fails 40001 (`could not serialize access due to read/write dependencies among transactions`)');
    expect(guard).toContain(`This page cannot run either: ${PGLITE_HAS_ONE_SESSION}, so every claim it runs is at READ COMMITTED.`);
    expect(guard).toContain('`npm run sim -- run race --isolation repeatable-read --db postgres://…`');
    expect(guard).toContain('the specs in `docs/examples/`');
    for (const spec of ['race-repeatable-read', 'tenant-limit-repeatable-read', 'tenant-limit-serializable']) {
      expect(existsSync(new URL(`../../docs/examples/${spec}.spec`, import.meta.url)), spec).toBe(true);
    }
  });

  it('cover every concept of the module, in the module order', () => {
    expect(CHAPTERS.map((c) => c.id)).toEqual([
      'race',
      'select-then-update',
      'compare-and-set',
      'atomic-claim',
      'lock-modes',
      'lease',
      'heartbeat',
      'progress-vs-liveness',
      'orphan-reclaim',
      'fencing',
      'cancellation',
      'backpressure',
      'production-queues',
    ]);
  });

  it('each name an existing scenario with settings, and every mark names a scenario and a valid schedule position', () => {
    for (const chapter of CHAPTERS) {
      expect(chapter.scenarioId, chapter.id).not.toBeNull();
      expect(findScenario(chapter.scenarioId!), chapter.id).toBeDefined();
      expect(chapter.settings, chapter.id).not.toBeNull();
      for (const step of chapter.steps) {
        expect(step.body.length, `${chapter.id}/${step.id}`).toBeGreaterThan(0);
        if (!step.mark) continue;
        const scenario = findScenario(step.mark.scenarioId ?? chapter.scenarioId!);
        expect(scenario, `${chapter.id}/${step.id}`).toBeDefined();
        const schedule = step.mark.schedule ?? scenario!.script;
        expect(parseSchedule(schedule.join(',')), `${chapter.id}/${step.id}`).toEqual(schedule);
        if (step.mark.tokenIndex !== null) {
          expect(step.mark.tokenIndex, `${chapter.id}/${step.id}`).toBeGreaterThanOrEqual(0);
          expect(step.mark.tokenIndex, `${chapter.id}/${step.id}`).toBeLessThan(schedule.length);
        }
        if (step.mark.expect) expect(step.mark.tokenIndex, `${chapter.id}/${step.id} expects something at no position`).not.toBeNull();
      }
    }
  });

  it('link only to known predict generators and sources', () => {
    for (const chapter of CHAPTERS) {
      for (const step of chapter.steps) {
        for (const id of step.predict ?? []) expect(findGenerator(id), `${chapter.id}/${step.id} → ${id}`).toBeDefined();
        for (const id of step.sources ?? []) expect(SOURCES.has(id), `${chapter.id}/${step.id} → ${id}`).toBe(true);
      }
    }
  });

  it('explain SQL clause by clause: every clause finds exactly one line of the real SQL file', () => {
    let walkthroughs = 0;
    for (const chapter of CHAPTERS) {
      for (const step of chapter.steps) {
        if (!step.sql) continue;
        walkthroughs++;
        const sql = labStatementText(step.sql.sqlId)?.text;
        if (sql === undefined) throw new Error(`${step.sql.sqlId} is not one of the lab's statements`);
        for (const clause of step.sql.clauses) expect(uniqueLine(sql, clause.match), `${step.sql.sqlId}: "${clause.match}"`).not.toBeNull();
        expect(resolveClauses(sql, step.sql.clauses)).toHaveLength(step.sql.clauses.length);
      }
    }
    expect(walkthroughs).toBeGreaterThan(5);
  });

  it('walk through the atomic claim covering FOR UPDATE, SKIP LOCKED, the CTE and the reclaim branch', () => {
    const atomic = chapterById('atomic-claim');
    const clauses = atomic.steps.flatMap((s) => s.sql?.clauses ?? []);
    const text = clauses.map((c) => `${c.match} ${c.note}`).join('\n');
    for (const needle of [
      'FOR UPDATE SKIP LOCKED',
      'WITH candidate AS (',
      'BUG #15715',
      'until the claiming transaction commits or rolls back',
      'lease_expires_at',
      'RETURNING',
    ]) {
      expect(text).toContain(needle);
    }
    const resolved = resolveClauses(labStatementText('claim-skip-locked')!.text, clauses);
    const covered = new Set(resolved.flatMap((c) => Array.from({ length: c.end - c.start + 1 }, (_, i) => c.start + i)));
    // Every non-blank line of the claim but the closing parenthesis, the FROM and the UPDATE keyword is explained.
    const lines = sqlLines(labStatementText('claim-skip-locked')!.text);
    const unexplained = lines.map((line, i) => ({ line: line.trim(), n: i + 1 })).filter((l) => !covered.has(l.n));
    expect(unexplained.map((l) => l.line).sort()).toEqual([')', 'FROM runs', 'SELECT run_id', 'UPDATE runs'].sort());
  });
});

describe('quiz', () => {
  it('has at least 15 questions of every kind, with unique ids', () => {
    expect(QUIZ.length).toBeGreaterThanOrEqual(15);
    expect(unique(QUIZ.map((q) => q.id))).toBe(true);
    const counts = countByKind();
    for (const kind of ['single', 'multiple', 'order', 'bug', 'predict'] as const) expect(counts[kind], kind).toBeGreaterThan(0);
  });

  it('explains every question, and every source resolves', () => {
    for (const question of QUIZ) {
      expect(question.explanation.length, question.id).toBeGreaterThan(20);
      for (const id of question.sources ?? []) expect(SOURCES.has(id), `${question.id} → ${id}`).toBe(true);
    }
  });

  it('covers every concept chapter with at least one question', () => {
    const asked = new Set(QUIZ.map((q) => q.chapterId));
    for (const chapter of CHAPTERS) expect(asked.has(chapter.id), chapter.id).toBe(true);
  });

  it('gives every single-choice question exactly one correct answer, and every multiple-choice at least one', () => {
    for (const question of QUIZ) {
      if (question.kind === 'single') expect(correctChoiceIds(question), question.id).toHaveLength(1);
      if (question.kind === 'multiple') {
        expect(correctChoiceIds(question).length, question.id).toBeGreaterThanOrEqual(1);
        expect(correctChoiceIds(question).length, `${question.id} needs a wrong choice too`).toBeLessThan(question.choices.length);
      }
      if (question.kind === 'single' || question.kind === 'multiple') expect(unique(question.choices.map((c) => c.id)), question.id).toBe(true);
    }
  });

  it('marks exactly one faulty line in each spot-the-bug query', () => {
    for (const question of QUIZ) {
      if (question.kind !== 'bug') continue;
      const line = faultyLine(question);
      expect(line, question.id).not.toBeNull();
      expect(line!, question.id).toBeLessThanOrEqual(sqlLines(question.sql).length);
    }
  });

  it('uses predict questions whose generators exist', () => {
    for (const question of QUIZ) if (question.kind === 'predict') expect(findGenerator(question.generatorId), question.id).toBeDefined();
  });

  it('grades answers of every kind', () => {
    const byKind = <K extends QuizQuestion['kind']>(kind: K) => QUIZ.find((q) => q.kind === kind) as Extract<QuizQuestion, { kind: K }>;
    const single = byKind('single');
    const right = correctChoiceIds(single)[0]!;
    const wrong = single.choices.find((c) => c.id !== right)!.id;
    expect(isCorrect(single, { kind: 'single', choiceId: right })).toBe(true);
    expect(isCorrect(single, { kind: 'single', choiceId: wrong })).toBe(false);

    const multiple = byKind('multiple');
    const all = correctChoiceIds(multiple);
    expect(isCorrect(multiple, { kind: 'multiple', choiceIds: [...all].reverse() })).toBe(true);
    expect(isCorrect(multiple, { kind: 'multiple', choiceIds: all.slice(1) })).toBe(all.length === 0);
    expect(isCorrect(multiple, { kind: 'multiple', choiceIds: multiple.choices.map((c) => c.id) })).toBe(false);
    expect(isCorrect(multiple, { kind: 'multiple', choiceIds: [...all, all[0]!] })).toBe(false);

    const order = byKind('order');
    expect(isCorrect(order, { kind: 'order', itemIds: order.items.map((i) => i.id) })).toBe(true);
    expect(isCorrect(order, { kind: 'order', itemIds: initialOrder(order).map((i) => i.id) })).toBe(false);

    const bug = byKind('bug');
    expect(isCorrect(bug, { kind: 'bug', line: faultyLine(bug)! })).toBe(true);
    expect(isCorrect(bug, { kind: 'bug', line: faultyLine(bug)! + 1 })).toBe(false);

    const predict = byKind('predict');
    expect(isCorrect(predict, { kind: 'predict', choiceId: 'x', correctChoiceId: 'x' })).toBe(true);
    expect(isCorrect(predict, { kind: 'predict', choiceId: 'x', correctChoiceId: 'y' })).toBe(false);
    expect(isCorrect(predict, { kind: 'predict', choiceId: 'x', correctChoiceId: null })).toBe(false);
    // An answer of the wrong kind is never right.
    expect(isCorrect(single, { kind: 'bug', line: 1 })).toBe(false);
  });

  it('starts ordering questions shuffled, never already solved, and the same way each time', () => {
    for (const question of QUIZ) {
      if (question.kind !== 'order') continue;
      for (let attempt = 0; attempt < 5; attempt++) {
        const start = initialOrder(question, attempt).map((i) => i.id);
        expect(start, question.id).not.toEqual(question.items.map((i) => i.id));
        expect([...start].sort()).toEqual(question.items.map((i) => i.id).sort());
        expect(initialOrder(question, attempt).map((i) => i.id)).toEqual(start);
      }
    }
  });
});

describe('challenges', () => {
  it('have unique ids, three hints, an existing scenario and chapter, and a valid solution schedule', () => {
    expect(CHALLENGES.length).toBeGreaterThanOrEqual(3);
    expect(unique(CHALLENGES.map((c) => c.id))).toBe(true);
    for (const challenge of CHALLENGES) {
      expect(challenge.hints, challenge.id).toHaveLength(3);
      expect(findScenario(challenge.scenarioId), challenge.id).toBeDefined();
      expect(parseSchedule(challenge.solution.join(','))).toEqual(challenge.solution);
    }
  });

  it('explain themselves when there is no run to judge', () => {
    for (const challenge of CHALLENGES) {
      const judgement = challenge.judge(null);
      expect(judgement.won).toBe(false);
      expect(judgement.message.length).toBeGreaterThan(10);
    }
  });
});

describe('exit criteria', () => {
  it('cover the seven abilities and require only things that exist', () => {
    expect(EXIT_CRITERIA.map((c) => c.id)).toEqual([
      'explain-race',
      'write-claim',
      'lease-heartbeat',
      'fencing',
      'durable-cancel',
      'backpressure',
      'judge-a-queue',
    ]);
    for (const criterion of EXIT_CRITERIA) {
      expect(criterion.requires.length, criterion.id).toBeGreaterThan(0);
      for (const r of criterion.requires) {
        // A chapter's id is a ChapterId: the compiler checks it exists.
        if (r.kind === 'chapter') continue;
        const found =
          r.kind === 'challenge' ? CHALLENGES.find((c) => c.id === r.id) : r.kind === 'question' ? QUIZ.find((q) => q.id === r.id) : findGenerator(r.id);
        expect(found, `${criterion.id} → ${r.kind} ${r.id}`).toBeDefined();
      }
    }
  });
});

describe('concept table', () => {
  it('has a row for each required concept, with lab SQL that exists, Temporal, and 2–3 production queues with sources', () => {
    expect(CONCEPTS.map((c) => c.id)).toEqual(CONCEPT_NAMES);
    for (const row of CONCEPTS) {
      for (const id of row.labSql) expect(labStatementText(id), `${row.id} → ${id}`).not.toBeNull();
      expect(row.temporal.length, row.id).toBeGreaterThan(10);
      expect(row.temporalSources.length, row.id).toBeGreaterThan(0);
      expect(row.queues.length, row.id).toBeGreaterThanOrEqual(2);
      expect(row.queues.length, row.id).toBeLessThanOrEqual(3);
      for (const id of [...row.temporalSources, ...row.queues.flatMap((q) => q.sources)]) expect(SOURCES.has(id), `${row.id} → ${id}`).toBe(true);
    }
  });
});

describe('sources', () => {
  it('are https links, pinned to a commit for repository files', () => {
    for (const source of SOURCES.values()) {
      expect(source.url, source.id).toMatch(/^https:\/\//);
      if (/github\.com\/[^/]+\/[^/]+\/blob\//.test(source.url)) expect(source.url, source.id).toMatch(/\/blob\/[0-9a-f]{7,40}\//);
    }
  });
});

describe('predict generators', () => {
  it('are deterministic per seed and tied to an existing scenario', () => {
    expect(unique(PREDICT_GENERATORS.map((g) => g.id))).toBe(true);
    for (const generator of PREDICT_GENERATORS) {
      expect(findScenario(generator.baseScenarioId), generator.id).toBeDefined();
      const a = generator.generate(42);
      const b = generator.generate(42);
      expect(a.key).toBe(b.key);
      expect(a.schedule).toEqual(b.schedule);
      expect(a.scenario).toEqual(b.scenario);
      expect(unique(a.choices.map((c) => c.id)), generator.id).toBe(true);
      expect(parseSchedule(a.schedule.join(','))).toEqual(a.schedule);
      // Plain data: a variant crosses a Web Worker boundary unchanged.
      expect(JSON.parse(JSON.stringify(a.scenario))).toEqual(a.scenario);
      expect(a.scenario.id.startsWith(`${generator.baseScenarioId}~`)).toBe(true);
    }
  });

  it('vary their parameters with the seed', () => {
    for (const generator of PREDICT_GENERATORS) {
      const keys = new Set(Array.from({ length: 12 }, (_, seed) => generator.generate(seed).key));
      expect(keys.size, generator.id).toBeGreaterThan(3);
    }
  });
});
