import { SCENARIO_LIMITS } from '../../scenarios/define';
import { strategyDefinition } from '../../strategies';
import { Field, NumberInput } from './Field';
import type { PartProps } from './types';

/**
 * The queue's rescuer as a process of its own, stepped by `rescue` in the schedule, and the moment it
 * stalls (procrastinate #1408). Offered under a queue that has one, or while the spec has one.
 */
export function RescuerFields({ spec, problems, change }: PartProps) {
  const rescuer = spec.rescuer;
  if (!rescuer && !strategyDefinition(spec.strategy).rescuer) return null;
  return (
    <>
      <div className="editor-field checkbox-field">
        <label>
          <input
            type="checkbox"
            checked={rescuer !== undefined}
            onChange={(e) =>
              change((s) => {
                const { rescuer: _old, ...rest } = s;
                return e.target.checked ? { ...rest, rescuer: {} } : rest;
              })
            }
          />{' '}
          Rescuer runs on its own (step it with rescue)
        </label>
      </div>
      {rescuer ? (
        <Field id="editor-rescuer-stalls" label="Rescuer stalls at (s; empty: never)" problem={problems.get('rescuer.stallsAtSeconds')}>
          {(describedBy, invalid) => (
            <NumberInput
              id="editor-rescuer-stalls"
              value={rescuer.stallsAtSeconds ?? Number.NaN}
              min={0}
              max={SCENARIO_LIMITS.maxSeconds}
              onChange={(value) => change((s) => ({ ...s, rescuer: Number.isNaN(value) ? {} : { stallsAtSeconds: value } }))}
              describedBy={describedBy}
              invalid={invalid}
            />
          )}
        </Field>
      ) : null}
    </>
  );
}
