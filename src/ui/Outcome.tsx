import { useMemo } from 'react';
import { describeOutcome } from '../store/derive';
import { usePanelLab } from '../store/react';

/** What happened, in plain words: a live region, so a screen reader hears each step's result. Follows the timeline by a task (store/trailing.ts). */
export function Outcome() {
  const steps = usePanelLab((s) => s.steps);
  const position = usePanelLab((s) => s.position);
  const end = usePanelLab((s) => (s.status?.isOver ? 'over' : s.stalled ? 'stalled' : null));
  const loaded = usePanelLab((s) => s.loaded);
  const enginePhase = usePanelLab((s) => s.enginePhase);
  const engineMessage = usePanelLab((s) => s.engineMessage);
  const outcome = useMemo(() => describeOutcome(steps, position, end), [steps, position, end]);
  const waiting =
    enginePhase === 'starting' ? (engineMessage ?? 'Starting Postgres in your browser…') : !loaded && enginePhase === 'ready' ? 'Loading the scenario…' : null;
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
