import { useMemo } from 'react';
import { describeOutcome } from '../store/derive';
import { useLab } from '../store/react';

/** What happened, in plain words: a live region, so a screen reader hears each step's result. */
export function Outcome() {
  const steps = useLab((s) => s.steps);
  const position = useLab((s) => s.position);
  const end = useLab((s) => (s.status?.isOver ? 'over' : s.stalled ? 'stalled' : null));
  const loaded = useLab((s) => s.loaded);
  const enginePhase = useLab((s) => s.enginePhase);
  const engineMessage = useLab((s) => s.engineMessage);
  const outcome = useMemo(() => describeOutcome(steps, position, end), [steps, position, end]);
  const waiting = enginePhase === 'starting' ? (engineMessage ?? 'Starting Postgres in your browser…') : !loaded && enginePhase === 'ready' ? 'Loading the scenario…' : null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: the live region holds a list and paragraphs, which <output> may not contain
    <div className={`outcome${outcome.findings.length > 0 ? ' has-findings' : ''}`} role="status" aria-live="polite">
      {waiting !== null ? (
        <p className="outcome-now">{waiting}</p>
      ) : (
        <>
          {outcome.findings.length > 0 ? (
            <ul className="findings">
              {outcome.findings.map((text) => (
                <li key={text}>{text}</li>
              ))}
            </ul>
          ) : null}
          <p className="outcome-now">
            {position > 0 ? <span className="step-tag">Step {position}: </span> : null}
            {outcome.now}
          </p>
        </>
      )}
    </div>
  );
}
