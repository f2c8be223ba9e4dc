import { WORKER_LETTERS, type WorkerLetter } from '../../scenarios/authored';
import type { PartProps } from './types';

/** The spec with `letter` stuck or not; no list at all when none is (a spec without stuck workers reads as before). */
function withStuck(spec: PartProps['spec'], letter: WorkerLetter, stuck: boolean) {
  const { stuckWorkers, ...rest } = spec;
  const next = WORKER_LETTERS.filter((each) => (each === letter ? stuck : stuckWorkers?.includes(each)));
  return next.length === 0 ? rest : { ...rest, stuckWorkers: next };
}

/**
 * Workers that heartbeat but never finish a model call (the built-in "Alive but stuck"). Shown while
 * workers heartbeat, or while one is marked stuck, so its problem has a place to be said.
 */
export function StuckWorkersFields({ spec, problems, change }: PartProps) {
  const stuck = spec.stuckWorkers ?? [];
  if (spec.heartbeatSeconds === null && stuck.length === 0) return null;
  const letters = WORKER_LETTERS.slice(0, spec.workers);
  const problem = letters.map((letter) => problems.get(`workers.${letter}.stuck`)).find((message) => message !== undefined);
  return (
    <fieldset className="editor-field stuck-workers" aria-describedby={problem ? 'editor-stuck-problem' : undefined}>
      <legend>Stuck workers (heartbeat, never progress)</legend>
      <div className="editor-row">
        {letters.map((letter) => (
          <label key={letter} className="editor-field checkbox-field">
            <input type="checkbox" checked={stuck.includes(letter)} onChange={(e) => change((s) => withStuck(s, letter, e.target.checked))} /> {letter}
          </label>
        ))}
      </div>
      {problem ? (
        <p id="editor-stuck-problem" className="field-problem" role="alert">
          {problem}
        </p>
      ) : null}
    </fieldset>
  );
}
