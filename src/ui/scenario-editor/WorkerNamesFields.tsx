import { WORKER_LETTERS, type WorkerLetter, type WorkerNames } from '../../scenarios/authored';
import { Field } from './Field';
import type { PartProps } from './types';

/** The names without `letter`'s, or with it set; an empty box is no name (the worker claims as its letter). */
function renamed(names: WorkerNames | undefined, letter: WorkerLetter, text: string): WorkerNames | undefined {
  const { [letter]: _dropped, ...others } = names ?? {};
  const next: WorkerNames = text === '' ? others : { ...others, [letter]: text };
  return Object.keys(next).length === 0 ? undefined : next;
}

/** The name each worker claims under: its letter unless given one (two letters may share one, as in delayed_job #1045). */
export function WorkerNamesFields({ spec, problems, change }: PartProps) {
  return (
    <div className="editor-row worker-names">
      {WORKER_LETTERS.slice(0, spec.workers).map((letter) => {
        const id = `editor-worker-${letter}-name`;
        return (
          <Field key={letter} id={id} label={`Worker ${letter}'s name`} problem={problems.get(`workers.${letter}.name`)}>
            {(describedBy, invalid) => (
              <input
                id={id}
                type="text"
                value={spec.workerNames?.[letter] ?? ''}
                placeholder={letter}
                onChange={(e) =>
                  change((s) => {
                    const { workerNames: _old, ...rest } = s;
                    const workerNames = renamed(s.workerNames, letter, e.target.value);
                    return workerNames ? { ...rest, workerNames } : rest;
                  })
                }
                aria-describedby={describedBy}
                aria-invalid={invalid}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}
