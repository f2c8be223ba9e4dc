import { type ScenarioSpec, WORKER_LETTERS } from '../../scenarios/authored';
import { SCENARIO_DEFAULTS, SCENARIO_LIMITS } from '../../scenarios/define';
import { STRATEGIES, STRATEGY_LABELS, type Strategy } from '../../sim/types';
import { Field, NumberInput } from './Field';
import type { PartProps } from './types';
import { RescuerFields } from './RescuerFields';
import { StuckWorkersFields } from './StuckWorkersFields';
import { WorkerNamesFields } from './WorkerNamesFields';

/** The spec with `count` workers; the names and stuck marks of workers it no longer has go with them. */
function withWorkers(spec: ScenarioSpec, count: number): ScenarioSpec {
  const { workerNames, stuckWorkers, ...rest } = spec;
  const isKept = (letter: string) => (WORKER_LETTERS as readonly string[]).indexOf(letter) < count;
  const kept = Object.entries(workerNames ?? {}).filter(([letter]) => isKept(letter));
  const stuck = (stuckWorkers ?? []).filter(isKept);
  return {
    ...rest,
    workers: count,
    ...(kept.length === 0 ? {} : { workerNames: Object.fromEntries(kept) }),
    ...(stuck.length === 0 ? {} : { stuckWorkers: stuck }),
  };
}

const WORKER_COUNTS = Array.from({ length: SCENARIO_LIMITS.maxWorkers - SCENARIO_LIMITS.minWorkers + 1 }, (_, index) => SCENARIO_LIMITS.minWorkers + index);

/** Workers, lease and heartbeat, and the strategy and fencing the scenario opens with. */
export function SetupFields({ spec, problems, change }: PartProps) {
  const heartbeats = spec.heartbeatSeconds !== null;
  return (
    <fieldset className="editor-part">
      <legend>Workers and leases</legend>
      <Field id="editor-workers" label="Workers" problem={problems.get('workers')}>
        {(describedBy) => (
          <select
            id="editor-workers"
            value={spec.workers}
            onChange={(e) => change((s) => withWorkers(s, Number(e.target.value)))}
            aria-describedby={describedBy}
          >
            {WORKER_COUNTS.map((count) => (
              <option key={count} value={count}>
                {count}: {WORKER_LETTERS.slice(0, count).join(', ')}
              </option>
            ))}
          </select>
        )}
      </Field>
      <WorkerNamesFields spec={spec} problems={problems} change={change} />
      <StuckWorkersFields spec={spec} problems={problems} change={change} />
      <Field id="editor-lease" label="Lease (seconds)" problem={problems.get('leaseSeconds')}>
        {(describedBy, invalid) => (
          <NumberInput
            id="editor-lease"
            value={spec.leaseSeconds}
            min={1}
            max={SCENARIO_LIMITS.maxLeaseSeconds}
            onChange={(value) => change((s) => ({ ...s, leaseSeconds: value }))}
            describedBy={describedBy}
            invalid={invalid}
          />
        )}
      </Field>
      <Field id="editor-work-steps" label="Model calls per run" problem={problems.get('workSteps')}>
        {(describedBy, invalid) => (
          <NumberInput
            id="editor-work-steps"
            value={spec.workSteps ?? SCENARIO_DEFAULTS.workSteps}
            min={1}
            max={SCENARIO_LIMITS.maxWorkSteps}
            onChange={(value) => change((s) => ({ ...s, workSteps: value }))}
            describedBy={describedBy}
            invalid={invalid}
          />
        )}
      </Field>
      <div className="editor-field checkbox-field">
        <label>
          <input
            type="checkbox"
            checked={heartbeats}
            onChange={(e) => change((s) => ({ ...s, heartbeatSeconds: e.target.checked ? Math.max(1, Math.floor(s.leaseSeconds / 3)) : null }))}
          />{' '}
          Workers heartbeat
        </label>
      </div>
      {heartbeats ? (
        <Field id="editor-heartbeat" label="Heartbeat every (seconds)" problem={problems.get('heartbeatSeconds')}>
          {(describedBy, invalid) => (
            <NumberInput
              id="editor-heartbeat"
              value={spec.heartbeatSeconds ?? Number.NaN}
              min={1}
              onChange={(value) => change((s) => ({ ...s, heartbeatSeconds: value }))}
              describedBy={describedBy}
              invalid={invalid}
            />
          )}
        </Field>
      ) : null}
      <Field id="editor-strategy" label="Claim strategy" problem={problems.get('strategy')}>
        {() => (
          <select id="editor-strategy" value={spec.strategy} onChange={(e) => change((s) => ({ ...s, strategy: e.target.value as Strategy }))}>
            {STRATEGIES.map((strategy) => (
              <option key={strategy} value={strategy}>
                {STRATEGY_LABELS[strategy]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <RescuerFields spec={spec} problems={problems} change={change} />
      <div className="editor-field checkbox-field">
        <label>
          <input type="checkbox" checked={spec.fencing} onChange={(e) => change((s) => ({ ...s, fencing: e.target.checked }))} /> Fencing on
        </label>
      </div>
    </fieldset>
  );
}
