import { WORKER_LETTERS } from '../../scenarios/authored';
import { SCENARIO_LIMITS } from '../../scenarios/define';
import type { Fault } from '../../sim/types';
import { Field, NumberInput } from './Field';
import type { PartProps } from './types';

/** Timed faults: pause a worker at a time for a while, or crash it at a time (seconds on the lab's clock). */
export function FaultsFields({ spec, problems, change }: PartProps) {
  const update = (index: number, fault: Fault) => change((s) => ({ ...s, faults: s.faults.map((old, at) => (at === index ? fault : old)) }));
  const add = (kind: Fault['kind']) =>
    change((s) => ({
      ...s,
      faults: [...s.faults, kind === 'pause' ? { kind, worker: 'A', atSeconds: 10, forSeconds: s.leaseSeconds + 30 } : { kind, worker: 'A', atSeconds: 10 }],
    }));
  const workers = WORKER_LETTERS.slice(0, Math.max(1, Math.min(WORKER_LETTERS.length, spec.workers)));
  const full = spec.faults.length >= SCENARIO_LIMITS.maxFaults;
  return (
    <fieldset className="editor-part">
      <legend>Timed faults</legend>
      {spec.faults.length === 0 ? <p className="muted">None: every worker runs as scheduled.</p> : null}
      <ol className="editor-list">
        {spec.faults.map((fault, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fault has no identity but its place in the list
          <li key={index} className="editor-row">
            <span className="fault-kind">{fault.kind === 'pause' ? 'Pause' : 'Crash'}</span>
            <Field id={`editor-fault-${index}-worker`} label="Worker" problem={problems.get(`faults.${index}.worker`)}>
              {(describedBy) => (
                <select
                  id={`editor-fault-${index}-worker`}
                  value={fault.worker}
                  onChange={(e) => update(index, { ...fault, worker: e.target.value })}
                  aria-describedby={describedBy}
                >
                  {[...new Set([...workers, fault.worker])].map((id) => (
                    <option key={id} value={id}>
                      {id}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field id={`editor-fault-${index}-at`} label="At (s)" problem={problems.get(`faults.${index}.atSeconds`)}>
              {(describedBy, invalid) => (
                <NumberInput
                  id={`editor-fault-${index}-at`}
                  value={fault.atSeconds}
                  min={0}
                  onChange={(atSeconds) => update(index, { ...fault, atSeconds })}
                  describedBy={describedBy}
                  invalid={invalid}
                />
              )}
            </Field>
            {fault.kind === 'pause' ? (
              <Field id={`editor-fault-${index}-for`} label="For (s)" problem={problems.get(`faults.${index}.forSeconds`)}>
                {(describedBy, invalid) => (
                  <NumberInput
                    id={`editor-fault-${index}-for`}
                    value={fault.forSeconds}
                    min={1}
                    onChange={(forSeconds) => update(index, { ...fault, forSeconds })}
                    describedBy={describedBy}
                    invalid={invalid}
                  />
                )}
              </Field>
            ) : null}
            <div className="row-buttons">
              <button
                type="button"
                onClick={() => change((s) => ({ ...s, faults: s.faults.filter((_, at) => at !== index) }))}
                aria-label={`Remove fault ${index + 1}`}
              >
                ✕
              </button>
            </div>
          </li>
        ))}
      </ol>
      {problems.get('faults') ? (
        <p className="field-problem" role="alert">
          {problems.get('faults')}
        </p>
      ) : null}
      <div className="row-buttons">
        <button type="button" onClick={() => add('pause')} disabled={full}>
          Add a pause
        </button>
        <button type="button" onClick={() => add('crash')} disabled={full}>
          Add a crash
        </button>
      </div>
    </fieldset>
  );
}
