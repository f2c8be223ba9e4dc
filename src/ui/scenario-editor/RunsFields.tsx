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

/**
 * The runs without their own created times: once runs are added or moved, the list's order is their age
 * (a minute apart), as in any scenario written here.
 */
const spaced = (runs: readonly SpecRun[]): SpecRun[] => runs.map(({ createdAtSeconds: _time, ...run }) => run);

/** "0:30" from the start, or "6:40 before" it. */
function clock(seconds: number): string {
  const at = Math.abs(seconds);
  const text = `${Math.floor(at / 60)}:${String(at % 60).padStart(2, '0')}`;
  return seconds < 0 ? `${text} before the start` : `${text} after the start`;
}

/** The seeded runs, oldest first: the order in which a claim finds them. */
export function RunsFields({ spec, problems, change }: PartProps) {
  const update = (index: number, patch: Partial<SpecRun>) =>
    change((s) => ({ ...s, runs: s.runs.map((run, at) => (at === index ? { ...run, ...patch } : run)) }));
  const add = () =>
    change((s) => ({
      ...s,
      runs: [...spaced(s.runs), { runId: Math.max(0, ...s.runs.map((run) => (Number.isFinite(run.runId) ? run.runId : 0))) + 1, tenant: 'acme', costCents: 0 }],
    }));
  const timed = spec.runs.some((run) => run.createdAtSeconds !== undefined);
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
            <Field id={`editor-run-${index}-generation`} label="Lease generation" problem={problems.get(`runs.${index}.leaseGeneration`)}>
              {(describedBy, invalid) => (
                <NumberInput
                  id={`editor-run-${index}-generation`}
                  value={run.leaseGeneration ?? 0}
                  min={0}
                  onChange={(leaseGeneration) => update(index, { leaseGeneration })}
                  describedBy={describedBy}
                  invalid={invalid}
                />
              )}
            </Field>
            <RunOrigin run={run} index={index} problems={problems} />
            <div className="row-buttons">
              <button
                type="button"
                onClick={() => change((s) => ({ ...s, runs: moved(spaced(s.runs), index, -1) }))}
                disabled={index === 0}
                aria-label={`Move run ${index + 1} up`}
              >
                ↑
              </button>
              <button
                type="button"
                onClick={() => change((s) => ({ ...s, runs: moved(spaced(s.runs), index, 1) }))}
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
      {timed ? <p className="muted">Created at the original's times; adding or moving a run spaces them a minute apart.</p> : null}
      <button type="button" onClick={add} disabled={spec.runs.length >= SCENARIO_LIMITS.maxRuns}>
        Add a run
      </button>
    </fieldset>
  );
}

/** When a copied run was created and whose lease it is already under: carried from the original, shown, not edited here. */
function RunOrigin({ run, index, problems }: { run: SpecRun; index: number; problems: Map<string, string> }) {
  const problem = ['createdAtSeconds', 'heldBy', 'leaseOwner', 'leaseExpiresAtSeconds'].map((field) => problems.get(`runs.${index}.${field}`)).find(Boolean);
  if (run.createdAtSeconds === undefined && run.heldBy === undefined && !problem) return null;
  return (
    <p className="run-origin muted">
      {run.createdAtSeconds === undefined ? null : `Created ${clock(run.createdAtSeconds)}.`}
      {run.heldBy ? ` Already running, leased to ${run.heldBy.owner} until ${clock(run.heldBy.untilSeconds)}.` : null}
      {problem ? (
        <span className="field-problem" role="alert">
          {' '}
          {problem}
        </span>
      ) : null}
    </p>
  );
}
