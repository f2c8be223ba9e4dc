/**
 * Predict, then run: the learner commits to an answer, the engine plays the schedule, and the reveal
 * reads what happened from the trace. "Try another" draws new parameters.
 */
import { type ReactNode, useId, useRef, useState } from 'react';
import { freshInstance, randomSeed } from '../../lessons/predict';
import type { OpenScenario, PredictGenerator, PredictInstance, RunTrace } from '../../lessons/types';
import type { Trace } from '../../sim/types';

type Phase =
  | { kind: 'ask' }
  | { kind: 'running' }
  | { kind: 'revealed'; trace: Trace; answer: string | null; correct: boolean }
  | { kind: 'error'; message: string };

export interface PredictCardProps {
  generator: PredictGenerator;
  runTrace: RunTrace;
  onOpenScenario?: OpenScenario;
  /** Called once per reveal. */
  onAnswered?: (correct: boolean, instance: PredictInstance) => void;
  /** Fixes the first question's parameters (tests, permalinks); later attempts are random. */
  seed?: number;
  /** Shown under the reveal (the quiz adds its explanation and chapter link here). */
  footer?: ReactNode;
  heading?: string;
  headingLevel?: 3 | 4;
}

export function PredictCard({ generator, runTrace, onOpenScenario, onAnswered, seed, footer, heading, headingLevel = 4 }: PredictCardProps) {
  const [instance, setInstance] = useState<PredictInstance>(() => freshInstance(generator, seed ?? randomSeed(), null));
  const [choice, setChoice] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>({ kind: 'ask' });
  const attempt = useRef(0);
  const id = useId();
  const Heading = headingLevel === 3 ? 'h3' : 'h4';

  async function reveal() {
    if (choice === null) return;
    const mine = ++attempt.current;
    setPhase({ kind: 'running' });
    try {
      const trace = await runTrace(instance.scenario, instance.settings, instance.schedule);
      if (mine !== attempt.current) return;
      const answer = instance.answerFrom(trace);
      const correct = answer !== null && answer === choice;
      setPhase({ kind: 'revealed', trace, answer, correct });
      onAnswered?.(correct, instance);
    } catch (error) {
      if (mine !== attempt.current) return;
      setPhase({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  }

  function another() {
    attempt.current++;
    setInstance(freshInstance(generator, randomSeed(), instance.key));
    setChoice(null);
    setPhase({ kind: 'ask' });
  }

  const answered = phase.kind === 'revealed';
  // A level above READ COMMITTED is never run here: the answer is read from the trace recorded on a server.
  const recorded = instance.settings.isolation !== undefined;
  const answerLabel = answered ? (instance.choices.find((c) => c.id === phase.answer)?.label ?? null) : null;

  return (
    <section className="ll-predict" aria-labelledby={`${id}-title`}>
      <Heading id={`${id}-title`} className="ll-predict-title">
        {heading ?? `Predict: ${generator.title}`}
      </Heading>
      {instance.facts.length > 0 ? (
        <ul className="ll-facts" aria-label="This time">
          {instance.facts.map((fact) => (
            <li key={fact}>{fact}</li>
          ))}
        </ul>
      ) : null}
      <fieldset className="ll-choices" disabled={phase.kind === 'running' || answered}>
        <legend>{instance.prompt}</legend>
        {instance.choices.map((option) => {
          const isAnswer = answered && option.id === phase.answer;
          const isMine = option.id === choice;
          return (
            <label key={option.id} className={['ll-choice', isAnswer ? 'is-answer' : '', answered && isMine && !isAnswer ? 'is-wrong' : ''].join(' ').trim()}>
              <input type="radio" name={`${id}-choice`} value={option.id} checked={isMine} onChange={() => setChoice(option.id)} />
              <span>{option.label}</span>
              {isAnswer ? <span className="ll-tag">what happened</span> : null}
              {answered && isMine && !isAnswer ? <span className="ll-tag">your prediction</span> : null}
            </label>
          );
        })}
      </fieldset>
      <p className="ll-schedule">
        Schedule: <code>{instance.schedule.join(', ')}</code>
      </p>
      <div className="ll-actions">
        {answered ? null : (
          <button type="button" className="ll-primary" onClick={reveal} disabled={choice === null || phase.kind === 'running'}>
            {phase.kind === 'running' ? (recorded ? 'Reading the recording…' : 'Running on Postgres…') : recorded ? 'Show the recorded answer' : 'Run it'}
          </button>
        )}
        <button type="button" onClick={another} disabled={phase.kind === 'running'}>
          Try another
        </button>
        {answered && onOpenScenario ? (
          <button
            type="button"
            onClick={() =>
              onOpenScenario({
                scenarioId: instance.baseScenarioId,
                scenario: instance.scenario,
                settings: instance.settings,
                schedule: instance.schedule,
                position: instance.focusTokenIndex,
              })
            }
          >
            Open this run in the lab
          </button>
        ) : null}
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: <output> may only hold phrasing content, and the feedback has paragraphs and lists */}
      <div role="status" aria-live="polite" className="ll-status">
        {phase.kind === 'running' ? <p>{recorded ? 'Reading the trace recorded on PostgreSQL…' : "Running the schedule on the lab's Postgres…"}</p> : null}
        {phase.kind === 'error' ? (
          <p className="ll-feedback is-wrong">
            The lab could not run this: {phase.message}{' '}
            <button type="button" onClick={reveal}>
              Retry
            </button>
          </p>
        ) : null}
        {phase.kind === 'revealed' ? (
          <div className={phase.correct ? 'll-feedback is-right' : 'll-feedback is-wrong'}>
            <p className="ll-verdict">
              {phase.correct ? 'Right.' : answerLabel ? 'Not this time.' : 'The run did something none of the choices describe.'}{' '}
              {answerLabel ? (
                <>
                  {recorded ? 'PostgreSQL answered (recorded): ' : 'The engine says: '}
                  <strong>{answerLabel}</strong>
                </>
              ) : null}
            </p>
            <details open>
              <summary>Why, from the run</summary>
              <ul className="ll-explain">
                {instance
                  .explain(phase.trace)
                  .map((line, position) => ({ line, position }))
                  .map((item) => (
                    <li key={item.position}>{item.line}</li>
                  ))}
              </ul>
            </details>
            {footer}
          </div>
        ) : null}
      </div>
    </section>
  );
}
