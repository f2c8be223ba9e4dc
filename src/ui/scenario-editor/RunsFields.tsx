import type { SpecRun } from '../../scenarios/authored';
import { SCENARIO_LIMITS } from '../../scenarios/define';
import { Field, NumberInput } from './Field';
import type { PartProps } from './types';

/** Moves one item of a list by `by` places (the list's order is the runs' created_at order). */
function moved<T>(items: readonly T[], index: number, by: number): T[] {
  const out = [...items];
  const [item] = out.splice(index, 1);
  out.splice(index + by, 0, item as T);
  return out;
}

/** The seeded runs, oldest first: the order in which a claim finds them. */
export function RunsFields({ spec, problems, change }: PartProps) {
  const update = (index: number, patch: Partial<SpecRun>) =>
    change((s) => ({ ...s, runs: s.runs.map((run, at) => (at === index ? { ...run, ...patch } : run)) }));
  const add = () =>
    change((s) => ({
      ...s,
      runs: [...s.runs, { runId: Math.max(0, ...s.runs.map((run) => (Number.isFinite(run.runId) ? run.runId : 0))) + 1, tenant: 'acme', costCents: 0 }],
    }));
  return (
    <fieldset className="editor-part">
      <legend>Seeded runs (oldest first)</legend>
      {problems.get('runs') ? (
        <p className="field-problem" role="alert">
          {problems.get('runs')}
        </p>
      ) : null}
      <ol className="editor-list">
        {spec.runs.map((run, index) => (
          // The position is the run's identity here: ids are being typed and may repeat for a moment.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index} className="editor-row">
            <Field id={`editor-run-${index}-id`} label={`Run ${index + 1} id`} problem={problems.get(`runs.${index}.runId`)}>
              {(describedBy, invalid) => (
                <NumberInput
                  id={`editor-run-${index}-id`}
                  value={run.runId}
                  min={1}
                  onChange={(runId) => update(index, { runId })}
                  describedBy={describedBy}
                  invalid={invalid}
                />
              )}
            </Field>
            <Field id={`editor-run-${index}-tenant`} label="Tenant" problem={problems.get(`runs.${index}.tenant`)}>
              {(describedBy, invalid) => (
                <input
                  id={`editor-run-${index}-tenant`}
                  value={run.tenant}
                  onChange={(e) => update(index, { tenant: e.target.value })}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                />
              )}
            </Field>
            <Field id={`editor-run-${index}-cost`} label="Cost so far (cents)" problem={problems.get(`runs.${index}.costCents`)}>
              {(describedBy, invalid) => (
                <NumberInput
                  id={`editor-run-${index}-cost`}
                  value={run.costCents}
                  min={0}
                  onChange={(costCents) => update(index, { costCents })}
                  describedBy={describedBy}
                  invalid={invalid}
                />
              )}
            </Field>
            <div className="row-buttons">
              <button
                type="button"
                onClick={() => change((s) => ({ ...s, runs: moved(s.runs, index, -1) }))}
                disabled={index === 0}
                aria-label={`Move run ${index + 1} up`}
              >
                ↑
              </button>
              <button
                type="button"
                onClick={() => change((s) => ({ ...s, runs: moved(s.runs, index, 1) }))}
                disabled={index === spec.runs.length - 1}
                aria-label={`Move run ${index + 1} down`}
              >
                ↓
              </button>
              <button
                type="button"
                onClick={() => change((s) => ({ ...s, runs: s.runs.filter((_, at) => at !== index) }))}
                disabled={spec.runs.length === 1}
                aria-label={`Remove run ${index + 1}`}
              >
                ✕
              </button>
            </div>
          </li>
        ))}
      </ol>
      <button type="button" onClick={add} disabled={spec.runs.length >= SCENARIO_LIMITS.maxRuns}>
        Add a run
      </button>
    </fieldset>
  );
}
