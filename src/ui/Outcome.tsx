import { useMemo } from 'react';
import { describeOutcome } from '../store/derive';
import { usePanelLab } from '../store/react';

/**
 * While Postgres starts: shorter than the first words the box then says (describeOutcome's "Nothing has
 * happened yet…"), so the box, sized to hold both, keeps its height when they come.
 */
const STARTING_WORDS = 'Starting Postgres in your browser… (PGlite: a real PostgreSQL compiled to WebAssembly)';

/** What happened, in plain words: a live region, so a screen reader hears each step's result. Follows the timeline by a task (store/trailing.ts). */
export function Outcome() {
  const steps = usePanelLab((s) => s.steps);
  const position = usePanelLab((s) => s.position);
  const end = usePanelLab((s) => (s.status?.isOver ? 'over' : s.stalled ? 'stalled' : null));
  const loaded = usePanelLab((s) => s.loaded);
  const enginePhase = usePanelLab((s) => s.enginePhase);
  const engineMessage = usePanelLab((s) => s.engineMessage);
  const outcome = useMemo(() => describeOutcome(steps, position, end), [steps, position, end]);
  const waiting = enginePhase === 'starting' ? (engineMessage ?? STARTING_WORDS) : !loaded && enginePhase === 'ready' ? 'Loading the scenario…' : null;
  return (
    // biome-ignore lint/a11y/useSemanticElements: the live region holds a list and paragraphs, which <output> may not contain
    <div className={`outcome${outcome.findings.length > 0 ? ' has-findings' : ''}`} role="status" aria-live="polite">
      {waiting !== null ? (
        // The words the box will hold once loaded keep its room, unseen and out of its text (drawn by CSS from
        // data-words), so the timeline under it does not move when they come.
        <div className="outcome-waiting">
          <p className="outcome-now">
            <span className="spinner" aria-hidden="true" /> {waiting}
          </p>
          <p className="outcome-now outcome-room" aria-hidden="true" data-words={outcome.now} />
        </div>
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
