/**
 * The lesson's React components render every chapter step, question, challenge, criterion and concept
 * row (server-side, no DOM needed), with the headings, labels and controls the page relies on.
 */
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CHALLENGES } from '../../src/lessons/challenges';
import { LEVELS } from '../../src/lessons/levels';
import { CHAPTERS } from '../../src/lessons/chapters';
import { CONCEPTS } from '../../src/lessons/concepts';
import { EXIT_CRITERIA } from '../../src/lessons/exit-criteria';
import { PREDICT_GENERATORS } from '../../src/lessons/predict';
import { createProgressStore, type StorageLike } from '../../src/store/progress-store';
import { QUIZ } from '../../src/lessons/quiz';
import { findScenario } from '../../src/scenarios';
import type { OpenScenario, RunTrace } from '../../src/lessons/types';
import { ChapterView } from '../../src/ui/lesson/ChapterView';
import { ConceptTable } from '../../src/ui/lesson/ConceptTable';
import { ExitCriteriaView } from '../../src/ui/lesson/ExitCriteriaView';
import { LessonHub } from '../../src/ui/lesson/LessonHub';
import { LessonView } from '../../src/ui/lesson/LessonView';
import { LevelsView } from '../../src/ui/lesson/LevelsView';
import { lessonHref, parseLessonHash } from '../../src/ui/lesson/links';
import { PredictCard } from '../../src/ui/lesson/PredictCard';
import { ProgressNotice, ResetProgress } from '../../src/ui/lesson/ProgressControls';
import { QuizView } from '../../src/ui/lesson/QuizView';
import { narrationRequest } from '../../src/ui/lesson/requests';

const runTrace: RunTrace = () => Promise.reject(new Error('not used when rendering'));
const onOpenScenario: OpenScenario = () => undefined;

function memoryStore(initial?: string) {
  const data = new Map<string, string>();
  const storage: StorageLike = {
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
    removeItem: (k) => void data.delete(k),
  };
  if (initial !== undefined) storage.setItem('lease-lab.lesson-progress', initial);
  return createProgressStore({ storage });
}

function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/\s+/g, ' ');
}

describe('LessonHub', () => {
  it('renders tabs, the first chapter, the progress summary and the reset control', () => {
    const html = renderToStaticMarkup(createElement(LessonHub, { runTrace, onOpenScenario, progressStore: memoryStore() }));
    expect(html).toContain('role="tablist"');
    expect(html.match(/role="tab"/g)).toHaveLength(6);
    expect(html).toContain('aria-selected="true"');
    expect(html).toContain('role="tabpanel"');
    expect(text(html)).toContain(CHAPTERS[0]!.title);
    expect(text(html)).toContain('Reset my progress');
    expect(text(html)).toContain(`Chapters 0/${CHAPTERS.length}`);
  });

  it.each(['challenges', 'quiz', 'exit', 'concepts'] as const)('opens on the %s tab', (tab) => {
    const html = renderToStaticMarkup(createElement(LessonHub, { runTrace, onOpenScenario, progressStore: memoryStore(), initialTab: tab }));
    expect(html).toContain('<h2');
  });

  it('shows a notice instead of crashing on corrupt saved progress', () => {
    const html = renderToStaticMarkup(createElement(LessonHub, { runTrace, onOpenScenario, progressStore: memoryStore('{oops') }));
    expect(html).toContain('role="alert"');
    expect(text(html)).toMatch(/could not be read/);
  });
});

describe('LessonView and ChapterView', () => {
  it('lists every chapter with its done mark, and marks the current one', () => {
    const store = memoryStore();
    store.markChapterDone('race');
    const html = renderToStaticMarkup(createElement(LessonView, { runTrace, onOpenScenario, progressStore: store, chapterId: 'lease' }));
    for (const chapter of CHAPTERS) expect(text(html)).toContain(chapter.title);
    expect(html).toContain('aria-current="page"');
    expect(text(html)).toContain(`1 of ${CHAPTERS.length} chapters done`);
    expect(CHAPTERS).toHaveLength(13);
    expect(text(html)).toContain('(done)');
  });

  it.each(
    CHAPTERS.flatMap((chapter) => chapter.steps.map((step, index) => [`${chapter.id}/${step.id}`, chapter, index] as const)),
  )('renders %s with its narration, navigation and lab link', (_, chapter, index) => {
    const step = chapter.steps[index]!;
    const html = renderToStaticMarkup(
      createElement(ChapterView, {
        chapter,
        stepIndex: index,
        onStepChange: () => undefined,
        done: false,
        onFinish: () => undefined,
        runTrace,
        onOpenScenario,
      }),
    );
    const plain = text(html);
    expect(plain).toContain(step.heading);
    expect(plain).toContain(`Step ${index + 1} of ${chapter.steps.length}`);
    expect(plain).toContain('Back');
    expect(plain).toMatch(index === chapter.steps.length - 1 ? /Finish/ : /Continue/);
    if (narrationRequest(chapter, step)) expect(plain).toContain('Open in the lab');
    for (const clause of step.sql?.clauses ?? []) expect(plain).toContain(clause.note.slice(0, 40));
    expect((step.predict ?? []).every(() => html.includes('ll-predict'))).toBe(true);
    // The header names the scenario this step plays, which may be another than the chapter's.
    const shown = findScenario(step.mark?.scenarioId ?? chapter.scenarioId!)!;
    expect(plain).toContain(`Scenario: ${shown.title}`);
  });
});

describe('PredictCard', () => {
  it.each(
    PREDICT_GENERATORS.map((g) => [g.id, g] as const),
  )('%s shows a prompt, labelled choices and a disabled Run (or recorded answer) button until a choice is made', (_, generator) => {
    const html = renderToStaticMarkup(createElement(PredictCard, { generator, runTrace, seed: 7 }));
    const instance = generator.generate(7);
    expect(text(html)).toContain(instance.prompt.slice(0, 30));
    expect(html.match(/type="radio"/g)).toHaveLength(instance.choices.length);
    expect(html).toContain('<legend>');
    // A question judged by a recording (a level above READ COMMITTED) is never run here: its button says so.
    const button = instance.settings.isolation ? 'Show the recorded answer' : 'Run it';
    expect(html).toContain(`<button type="button" class="ll-primary" disabled="">${button}</button>`);
  });
});

describe('QuizView', () => {
  it.each(QUIZ.map((q) => [q.id, q] as const))('renders %s with its prompt and answer controls', (_, question) => {
    const html = renderToStaticMarkup(createElement(QuizView, { runTrace, progressStore: memoryStore(), questionId: question.id }));
    const plain = text(html);
    if (question.kind !== 'predict') expect(plain).toContain(question.prompt.slice(0, 30));
    expect(plain).toMatch(new RegExp(`Question ${QUIZ.indexOf(question) + 1} of ${QUIZ.length}`));
    if (question.kind === 'single' || question.kind === 'predict' || question.kind === 'bug') expect(html).toContain('type="radio"');
    if (question.kind === 'multiple') expect(html.match(/type="checkbox"/g)).toHaveLength(question.choices.length);
    if (question.kind === 'order') expect(html.match(/aria-label="Move /g)).toHaveLength(question.items.length * 2);
  });

  it('shows the score from saved answers', () => {
    const store = memoryStore();
    store.recordAnswer('q-cte', true);
    store.recordAnswer('q-nowait', false);
    const html = renderToStaticMarkup(createElement(QuizView, { runTrace, progressStore: store }));
    expect(text(html)).toMatch(new RegExp(`Score: 1 of ${QUIZ.length} correct \\(2 answered\\)`));
    expect(html).toContain('answered correctly');
    expect(html).toContain('answered wrongly');
  });
});

describe('LevelsView, ExitCriteriaView, ConceptTable, progress controls', () => {
  it('lists every challenge as a level, in the suggested order, each with the idea it practises and a Play button', () => {
    const html = text(renderToStaticMarkup(createElement(LevelsView, { onOpenScenario, progressStore: memoryStore() })));
    expect(LEVELS).toHaveLength(CHALLENGES.length);
    let from = -1;
    for (const [index, level] of LEVELS.entries()) {
      const at = html.indexOf(`Level ${index + 1}: ${level.title}`);
      expect(at, level.id).toBeGreaterThan(from);
      from = at;
    }
    expect(html.match(/Play this level/g)).toHaveLength(CHALLENGES.length);
    expect(html).toContain('Practises The race .');
    expect(html).not.toContain('Check my run');
  });

  it("shows each level's record from progress", () => {
    const store = memoryStore();
    store.revealHints('double-run', 2);
    store.recordChallengeWon('double-run');
    store.revealHints('atomic-race', 3);
    store.recordChallengeWon('atomic-race');
    store.recordChallengeWon('long-wait');
    const html = text(renderToStaticMarkup(createElement(LevelsView, { onOpenScenario, progressStore: store })));
    const title = (id: string) => CHALLENGES.find((c) => c.id === id)!.title;
    expect(html).toContain(`${title('double-run')} solved with hints (2)`);
    expect(html).toContain(`${title('atomic-race')} revealed`);
    expect(html).toContain(`${title('long-wait')} solved`);
    expect(html).toContain(`${title('stranded')} not solved yet`);
  });

  it('shows every exit criterion and what is left', () => {
    const store = memoryStore();
    store.markChapterDone('backpressure');
    store.recordAnswer('q-backpressure', true);
    const html = renderToStaticMarkup(createElement(ExitCriteriaView, { progressStore: store, onOpenChapter: () => undefined }));
    for (const criterion of EXIT_CRITERIA) expect(text(html)).toContain(criterion.title);
    expect(text(html)).toMatch(new RegExp(`1 of ${EXIT_CRITERIA.length} abilities shown`));
    expect(EXIT_CRITERIA).toHaveLength(7);
    expect(html).toContain('href="#lesson/chapter/race"');
  });

  it('renders the concept table with a row per concept and real source links', () => {
    const html = renderToStaticMarkup(createElement(ConceptTable, {}));
    expect(html.match(/<th scope="row">/g)).toHaveLength(CONCEPTS.length);
    expect(html).toContain('src/strategies/skip-locked/claim-skip-locked.sql');
    expect(html).toContain('href="https://github.com/graphile/worker/blob/abfb4cf/src/sql/getJobs.ts"');
    expect(html).toContain('tabindex="0"');
  });

  it('asks before erasing progress (the first render only offers the button)', () => {
    const html = renderToStaticMarkup(createElement(ResetProgress, { progressStore: memoryStore() }));
    expect(text(html).trim()).toBe('Reset my progress');
    expect(renderToStaticMarkup(createElement(ProgressNotice, { progressStore: memoryStore() }))).toBe('');
  });
});

describe('lesson links', () => {
  it('round-trip through the URL hash', () => {
    for (const target of [
      { kind: 'chapter', id: 'race' },
      { kind: 'question', id: 'q-cte' },
      { kind: 'challenge', id: 'double-run' },
    ] as const) {
      expect(parseLessonHash(lessonHref(target))).toEqual(target);
    }
    expect(parseLessonHash('#something-else')).toBeNull();
    // A chapter link names a ChapterId or nothing: the views never get an id no chapter has.
    expect(parseLessonHash('#lesson/chapter/no-such-chapter')).toBeNull();
    expect(parseLessonHash('#lesson/chapter/%E0%A4%A')).toBeNull();
  });
});
