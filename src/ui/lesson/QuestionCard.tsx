/**
 * One quiz question: the answer widget for its kind, checking, feedback and the chapter link. A right
 * answer gets the explanation; a wrong one is told why the answer given is wrong and nothing that marks a
 * right choice, so trying again still asks the learner to think (and only the first answer is scored).
 */
import { type ReactNode, useId, useState } from 'react';
import { chapterById } from '../../lessons/chapters';
import { findGenerator } from '../../lessons/predict';
import { displayedChoices, initialOrder, isCorrect, tooEarly, whyWrong } from '../../lessons/quiz';
import { sqlLines } from '../../lessons/sql-lines';
import type {
  AnswerChoice,
  ChapterId,
  Choice,
  MultipleChoiceQuestion,
  OrderQuestion,
  QuizAnswer,
  QuizQuestion,
  RunTrace,
  SingleChoiceQuestion,
  SpotTheBugQuestion,
} from '../../lessons/types';
import { LessonLink, SourceLinks } from './links';
import { PredictCard } from './PredictCard';

export interface QuestionCardProps {
  question: QuizQuestion;
  number: number;
  total: number;
  /** How many times it was answered before (drives a fresh shuffle / new parameters). */
  attempt: number;
  /** The learner's seed: with the attempt, it orders the choices (stable on reload). */
  learnerSeed: number;
  runTrace: RunTrace;
  onAnswered: (correct: boolean) => void;
  onOpenChapter?: (chapterId: ChapterId) => void;
  onRetry: () => void;
  onNext?: () => void;
}

export function QuestionCard(props: QuestionCardProps) {
  const { question, number, total, runTrace, onAnswered, onOpenChapter, onRetry, onNext } = props;
  const id = useId();
  const [checked, setChecked] = useState<boolean | null>(null);
  const [given, setGiven] = useState<QuizAnswer | null>(null);

  const after = (
    <Feedback
      question={question}
      correct={checked}
      why={given ? whyWrong(question, given) : []}
      onOpenChapter={onOpenChapter}
      onRetry={onRetry}
      onNext={onNext}
    />
  );

  return (
    <section className="ll-question" aria-labelledby={`${id}-title`}>
      <h3 id={`${id}-title`}>
        Question {number} of {total} <span className="ll-kind">{KIND_LABEL[question.kind]}</span>
      </h3>
      {question.kind === 'predict' ? (
        <PredictQuestionView
          generatorId={question.generatorId}
          runTrace={runTrace}
          onAnswered={(correct) => {
            setChecked(correct);
            onAnswered(correct);
          }}
          footer={after}
        />
      ) : (
        <StaticQuestion
          question={question}
          attempt={props.attempt}
          learnerSeed={props.learnerSeed}
          checked={checked}
          onCheck={(answer) => {
            const correct = isCorrect(question, answer);
            setGiven(answer);
            setChecked(correct);
            onAnswered(correct);
          }}
        />
      )}
      {/* biome-ignore lint/a11y/useSemanticElements: <output> may only hold phrasing content, and the feedback has paragraphs and lists */}
      <div role="status" aria-live="polite" className="ll-status">
        {question.kind !== 'predict' && checked !== null ? after : null}
      </div>
    </section>
  );
}

const KIND_LABEL: Record<QuizQuestion['kind'], string> = {
  single: 'One answer',
  multiple: 'Pick all that apply',
  order: 'Put in order',
  bug: 'Spot the bug',
  predict: 'Predict, then run',
};

function Feedback({
  question,
  correct,
  why,
  onOpenChapter,
  onRetry,
  onNext,
}: {
  question: QuizQuestion;
  correct: boolean | null;
  /** Why the answer given is wrong (empty when right). */
  why: string[];
  onOpenChapter?: ((chapterId: ChapterId) => void) | undefined;
  onRetry: () => void;
  onNext?: (() => void) | undefined;
}) {
  const chapter = chapterById(question.chapterId);
  // A predict question's explanation is general: its card has already shown what this instance did.
  const explain = correct || question.kind === 'predict';
  return (
    <div className={correct ? 'll-feedback is-right' : 'll-feedback is-wrong'}>
      {question.kind !== 'predict' ? <p className="ll-verdict">{correct ? 'Correct.' : 'Not quite.'}</p> : null}
      {explain ? <p>{question.explanation}</p> : why.map((line) => <p key={line}>{line}</p>)}
      <p>
        Taught in:{' '}
        <LessonLink target={{ kind: 'chapter', id: chapter.id }} onOpen={onOpenChapter}>
          {chapter.title}
        </LessonLink>
      </p>
      <SourceLinks ids={question.sources} />
      <p className="ll-retry-note">
        {question.kind === 'predict'
          ? 'Your score keeps your first prediction; new parameters are practice, and count towards predicting this right more often than wrong.'
          : 'Your score keeps your first answer; trying again is practice.'}
      </p>
      <div className="ll-actions">
        <button type="button" onClick={onRetry}>
          {question.kind === 'predict' ? 'Try again with new parameters' : 'Try again'}
        </button>
        {onNext ? (
          <button type="button" className="ll-primary" onClick={onNext}>
            Next question →
          </button>
        ) : null}
      </div>
    </div>
  );
}

function PredictQuestionView({
  generatorId,
  runTrace,
  onAnswered,
  footer,
}: {
  generatorId: string;
  runTrace: RunTrace;
  onAnswered: (correct: boolean) => void;
  footer: ReactNode;
}) {
  const generator = findGenerator(generatorId);
  if (!generator) return <p>This question is not available.</p>;
  return <PredictCard generator={generator} runTrace={runTrace} onAnswered={onAnswered} footer={footer} heading={generator.title} headingLevel={4} />;
}

function StaticQuestion({
  question,
  attempt,
  learnerSeed,
  checked,
  onCheck,
}: {
  question: SingleChoiceQuestion | MultipleChoiceQuestion | OrderQuestion | SpotTheBugQuestion;
  attempt: number;
  learnerSeed: number;
  checked: boolean | null;
  onCheck: (answer: QuizAnswer) => void;
}) {
  switch (question.kind) {
    case 'single':
      return <SingleChoice question={question} order={displayedChoices(question, learnerSeed, attempt)} checked={checked} onCheck={onCheck} />;
    case 'multiple':
      return <MultipleChoice question={question} order={displayedChoices(question, learnerSeed, attempt)} checked={checked} onCheck={onCheck} />;
    case 'order':
      return <Ordering question={question} attempt={attempt} checked={checked} onCheck={onCheck} />;
    case 'bug':
      return <SpotTheBug question={question} checked={checked} onCheck={onCheck} />;
  }
}

/**
 * How a choice looks once checked: only the learner's own choices are marked, right ones only when the
 * whole answer was right, so a wrong answer marks no right choice.
 */
function choiceClass(choice: AnswerChoice, chosen: boolean, checked: boolean | null): string {
  if (checked === null || !chosen) return 'll-choice';
  if (checked) return 'll-choice is-answer';
  return choice.correct ? 'll-choice' : 'll-choice is-wrong';
}

function ChoiceTag({ choice, chosen, checked }: { choice: AnswerChoice; chosen: boolean; checked: boolean | null }) {
  if (checked === null || !chosen) return null;
  if (checked) return <span className="ll-tag">your answer: right</span>;
  return choice.correct ? <span className="ll-tag">your answer</span> : <span className="ll-tag">your answer: not true</span>;
}

function SingleChoice({
  question,
  order,
  checked,
  onCheck,
}: {
  question: SingleChoiceQuestion;
  order: SingleChoiceQuestion['choices'];
  checked: boolean | null;
  onCheck: (a: QuizAnswer) => void;
}) {
  // The order the card opened with: answering raises the attempt count, which must not reshuffle it.
  const [shown] = useState(order);
  const [choice, setChoice] = useState<string | null>(null);
  const name = useId();
  const revealed = checked !== null;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (choice !== null) onCheck({ kind: 'single', choiceId: choice });
      }}
    >
      <fieldset className="ll-choices" disabled={revealed}>
        <legend>{question.prompt}</legend>
        {shown.map((option) => (
          <label key={option.id} className={choiceClass(option, option.id === choice, checked)}>
            <input type="radio" name={name} value={option.id} checked={option.id === choice} onChange={() => setChoice(option.id)} />
            <span>{option.label}</span>
            <ChoiceTag choice={option} chosen={option.id === choice} checked={checked} />
          </label>
        ))}
      </fieldset>
      {revealed ? null : (
        <button type="submit" className="ll-primary" disabled={choice === null}>
          Check
        </button>
      )}
    </form>
  );
}

function MultipleChoice({
  question,
  order,
  checked,
  onCheck,
}: {
  question: MultipleChoiceQuestion;
  order: MultipleChoiceQuestion['choices'];
  checked: boolean | null;
  onCheck: (a: QuizAnswer) => void;
}) {
  const [shown] = useState(order);
  const [chosen, setChosen] = useState<string[]>([]);
  const revealed = checked !== null;
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onCheck({ kind: 'multiple', choiceIds: chosen });
      }}
    >
      <fieldset className="ll-choices" disabled={revealed}>
        <legend>{question.prompt}</legend>
        {shown.map((option) => {
          const on = chosen.includes(option.id);
          return (
            <label key={option.id} className={choiceClass(option, on, checked)}>
              <input
                type="checkbox"
                value={option.id}
                checked={on}
                onChange={() => setChosen(on ? chosen.filter((x) => x !== option.id) : [...chosen, option.id])}
              />
              <span>{option.label}</span>
              <ChoiceTag choice={option} chosen={on} checked={checked} />
            </label>
          );
        })}
      </fieldset>
      {revealed ? null : (
        <button type="submit" className="ll-primary" disabled={chosen.length === 0}>
          Check
        </button>
      )}
    </form>
  );
}

function Ordering({
  question,
  attempt,
  checked,
  onCheck,
}: {
  question: OrderQuestion;
  attempt: number;
  checked: boolean | null;
  onCheck: (a: QuizAnswer) => void;
}) {
  const [items, setItems] = useState<Choice[]>(() => initialOrder(question, attempt));
  const [announcement, setAnnouncement] = useState('');
  const revealed = checked !== null;
  const labelId = useId();
  // A wrong order marks only the event it names as too early; a right one marks every event right.
  const early =
    checked === false
      ? tooEarly(
          question,
          items.map((i) => i.id),
        )?.early.id
      : undefined;

  function move(from: number, to: number) {
    if (to < 0 || to >= items.length) return;
    const next = [...items];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    setItems(next);
    setAnnouncement(`Moved "${item!.label}" to position ${to + 1} of ${items.length}.`);
  }

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        onCheck({ kind: 'order', itemIds: items.map((i) => i.id) });
      }}
    >
      <p id={labelId} className="ll-legend">
        {question.prompt} Use the buttons to move an event up or down.
      </p>
      <ol className="ll-order" aria-labelledby={labelId}>
        {items.map((item, position) => {
          return (
            <li key={item.id} className={checked ? 'is-answer' : item.id === early ? 'is-wrong' : undefined}>
              <span className="ll-order-label">{item.label}</span>
              {revealed ? (
                item.id === early ? (
                  <span className="ll-tag">too early</span>
                ) : null
              ) : (
                <span className="ll-order-buttons">
                  <button type="button" onClick={() => move(position, position - 1)} disabled={position === 0} aria-label={`Move "${item.label}" up`}>
                    ↑
                  </button>
                  <button
                    type="button"
                    onClick={() => move(position, position + 1)}
                    disabled={position === items.length - 1}
                    aria-label={`Move "${item.label}" down`}
                  >
                    ↓
                  </button>
                </span>
              )}
            </li>
          );
        })}
      </ol>
      <p className="ll-visually-hidden" aria-live="polite">
        {announcement}
      </p>
      {revealed ? null : (
        <button type="submit" className="ll-primary">
          Check
        </button>
      )}
    </form>
  );
}

function SpotTheBug({ question, checked, onCheck }: { question: SpotTheBugQuestion; checked: boolean | null; onCheck: (a: QuizAnswer) => void }) {
  const [line, setLine] = useState<number | null>(null);
  const name = useId();
  const revealed = checked !== null;
  const lines = sqlLines(question.sql).map((text, index) => ({ text, number: index + 1 }));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (line !== null) onCheck({ kind: 'bug', line });
      }}
    >
      <fieldset className="ll-bug" disabled={revealed}>
        <legend>{question.prompt}</legend>
        <div className="ll-bug-lines">
          {lines.map((l) => {
            // Only the learner's own line is marked: the faulty line is named only by a right answer.
            const mine = l.number === line && revealed;
            const cls = mine ? (checked ? ' is-answer' : ' is-wrong') : '';
            return (
              <label key={l.number} className={`ll-bug-line${cls}`}>
                <input type="radio" name={name} value={l.number} checked={line === l.number} onChange={() => setLine(l.number)} />
                <span className="ll-sql-number">{l.number}</span>
                <code>{l.text || ' '}</code>
                {mine ? <span className="ll-tag">{checked ? 'the bug' : 'your answer'}</span> : null}
              </label>
            );
          })}
        </div>
      </fieldset>
      {revealed ? null : (
        <button type="submit" className="ll-primary" disabled={line === null}>
          Check
        </button>
      )}
    </form>
  );
}
