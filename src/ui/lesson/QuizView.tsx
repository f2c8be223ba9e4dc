/** Check your understanding: every question, one at a time, with a score (first answers) that lasts. */
import './lesson.css';
import { useEffect, useState } from 'react';
import { quizScore } from '../../lessons/progress';
import type { ProgressStore } from '../../store/progress-store';
import { countByKind, QUIZ } from '../../lessons/quiz';
import type { ChapterId, QuizQuestion, RunTrace } from '../../lessons/types';
import { QuestionCard } from './QuestionCard';
import { useLessonProgress } from './useLessonProgress';

export interface QuizViewProps {
  /** Plays a schedule on the engine: predict questions are graded by running it. */
  runTrace: RunTrace;
  /** Opens a chapter from an answer's "Taught in" link. */
  onOpenChapter?: (chapterId: ChapterId) => void;
  progressStore?: ProgressStore;
  /** Show this question first. */
  questionId?: string;
  questions?: readonly QuizQuestion[];
}

interface AnswerLook {
  status: string;
  className?: string;
  /** Shown instead of the question's number. */
  mark?: string;
}

const NOT_ANSWERED: AnswerLook = { status: 'not answered' };

/** How the navigation shows a question by its first answer (the scored one). */
const FIRST_ANSWER: Record<'right' | 'wrong' | 'unknown', AnswerLook> = {
  right: { status: 'answered correctly', className: 'is-right', mark: '✓' },
  wrong: { status: 'answered wrongly', className: 'is-wrong', mark: '✗' },
  unknown: { status: 'answered before first answers were kept', mark: '•' },
};

export function QuizView({ runTrace, onOpenChapter, progressStore, questionId, questions = QUIZ }: QuizViewProps) {
  const { state, store } = useLessonProgress(progressStore);
  const progress = state.progress;
  // The choices' order is seeded by the learner's seed: save it before the learner can see an order.
  useEffect(() => store.keepSeed(), [store]);
  const [current, setCurrent] = useState(() => {
    const asked = questions.findIndex((q) => q.id === questionId);
    // Otherwise carry on where the learner left off: the first question not answered yet.
    return asked >= 0
      ? asked
      : Math.max(
          0,
          questions.findIndex((q) => progress.quiz[q.id] === undefined),
        );
  });
  const [tries, setTries] = useState<Record<string, number>>({});
  const [requested, setRequested] = useState(questionId);
  if (questionId !== requested) {
    setRequested(questionId);
    const found = questions.findIndex((q) => q.id === questionId);
    if (found >= 0) setCurrent(found);
  }
  const question = questions[current] ?? questions[0]!;
  const score = quizScore(progress);
  const counts = countByKind(questions);
  const retries = tries[question.id] ?? 0;
  // Seeds a fresh shuffle on each retry; read once, when the card mounts.
  const attempt = (progress.quiz[question.id]?.attempts ?? 0) + retries;

  return (
    <section className="ll-lesson ll-quiz" aria-labelledby="ll-quiz-title">
      <header>
        <h2 id="ll-quiz-title">Check your understanding</h2>
        <p>
          {questions.length} questions: {counts.single} with one answer, {counts.multiple} with several, {counts.order} to put in order, {counts.bug}{' '}
          spot-the-bug, {counts.predict} predicted and then run on the engine with fresh parameters every time.
        </p>
        <p className="ll-score">
          Score: <strong>{score.correct}</strong> of {score.total} correct ({score.answered} answered). Your first answer to each question counts.
        </p>
      </header>
      <nav aria-label="Questions">
        <ol className="ll-question-nav">
          {questions.map((q, index) => {
            const first = progress.quiz[q.id]?.first;
            const look = first === undefined ? NOT_ANSWERED : FIRST_ANSWER[first];
            return (
              <li key={q.id}>
                <button
                  type="button"
                  className={look.className}
                  aria-current={index === current ? 'step' : undefined}
                  aria-label={`Question ${index + 1}, ${look.status}`}
                  onClick={() => setCurrent(index)}
                >
                  <span aria-hidden="true">{look.mark ?? index + 1}</span>
                </button>
              </li>
            );
          })}
        </ol>
      </nav>
      <QuestionCard
        key={`${question.id}/${retries}`}
        question={question}
        number={current + 1}
        total={questions.length}
        attempt={attempt}
        learnerSeed={state.seed}
        runTrace={runTrace}
        onAnswered={(correct) => store.recordAnswer(question.id, correct, question.kind === 'predict' ? question.generatorId : undefined)}
        onOpenChapter={onOpenChapter}
        onRetry={() => setTries({ ...tries, [question.id]: retries + 1 })}
        onNext={current < questions.length - 1 ? () => setCurrent(current + 1) : undefined}
      />
    </section>
  );
}
