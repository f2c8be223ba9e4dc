/** One quiz question: the answer widget for its kind, checking, feedback and the chapter link. */
import { type ReactNode, useId, useState } from 'react';
import { findChapter } from '../../lessons/chapters';
import { findGenerator } from '../../lessons/predict';
import { correctChoiceIds, displayedChoices, faultyLine, initialOrder, isCorrect } from '../../lessons/quiz';
import { sqlLines } from '../../lessons/sql-lines';
import type {
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
  onOpenChapter?: (chapterId: string) => void;
  onRetry: () => void;
  onNext?: () => void;
}

export function QuestionCard(props: QuestionCardProps) {
  const { question, number, total, runTrace, onAnswered, onOpenChapter, onRetry, onNext } = props;
  const id = useId();
  const [checked, setChecked] = useState<boolean | null>(null);

  const after = <Explanation question={question} correct={checked} onOpenChapter={onOpenChapter} onRetry={onRetry} onNext={onNext} />;

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

function Explanation({
  question,
  correct,
  onOpenChapter,
  onRetry,
  onNext,
}: {
  question: QuizQuestion;
  correct: boolean | null;
  onOpenChapter?: ((chapterId: string) => void) | undefined;
  onRetry: () => void;
  onNext?: (() => void) | undefined;
}) {
  const chapter = findChapter(question.chapterId);
  return (
    <div className={correct ? 'll-feedback is-right' : 'll-feedback is-wrong'}>
      {question.kind !== 'predict' ? <p className="ll-verdict">{correct ? 'Correct.' : 'Not quite.'}</p> : null}
      <p>{question.explanation}</p>
      {chapter ? (
        <p>
          Taught in:{' '}
          <LessonLink target={{ kind: 'chapter', id: chapter.id }} onOpen={onOpenChapter}>
            {chapter.title}
          </LessonLink>
        </p>
      ) : null}
      <SourceLinks ids={question.sources} />
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

function choiceClass(choice: Choice & { correct?: boolean }, chosen: boolean, revealed: boolean): string {
  if (!revealed) return 'll-choice';
  if (choice.correct) return 'll-choice is-answer';
  return chosen ? 'll-choice is-wrong' : 'll-choice';
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
          <label key={option.id} className={choiceClass(option, option.id === choice, revealed)}>
            <input type="radio" name={name} value={option.id} checked={option.id === choice} onChange={() => setChoice(option.id)} />
            <span>{option.label}</span>
            {revealed && option.correct ? <span className="ll-tag">correct answer</span> : null}
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
  const right = correctChoiceIds(question);
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
            <label key={option.id} className={choiceClass(option, on, revealed)}>
              <input
                type="checkbox"
                value={option.id}
                checked={on}
                onChange={() => setChosen(on ? chosen.filter((x) => x !== option.id) : [...chosen, option.id])}
              />
              <span>{option.label}</span>
              {revealed ? <span className="ll-tag">{right.includes(option.id) ? 'true' : 'false'}</span> : null}
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
          const rightHere = revealed && question.items[position]?.id === item.id;
          return (
            <li key={item.id} className={revealed ? (rightHere ? 'is-answer' : 'is-wrong') : undefined}>
              <span className="ll-order-label">{item.label}</span>
              {revealed ? (
                <span className="ll-tag">{rightHere ? 'right place' : `belongs at ${question.items.findIndex((i) => i.id === item.id) + 1}`}</span>
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
  const faulty = faultyLine(question);
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
            const cls = revealed ? (l.number === faulty ? ' is-answer' : l.number === line ? ' is-wrong' : '') : '';
            return (
              <label key={l.number} className={`ll-bug-line${cls}`}>
                <input type="radio" name={name} value={l.number} checked={line === l.number} onChange={() => setLine(l.number)} />
                <span className="ll-sql-number">{l.number}</span>
                <code>{l.text || ' '}</code>
                {revealed && l.number === faulty ? <span className="ll-tag">the bug</span> : null}
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
