import { useState } from 'react';
import { strategyDefinition } from '../strategies';
import { operatorTargets } from '../store/derive';
import { useLab } from '../store/react';
import { useCursorSnapshot, useReady, useRecordedMove, useScenario } from './hooks';

/**
 * An operator cancelling a run: durably (a flag in the row) or by killing the process that runs it; and,
 * where the scenario runs a queue's rescuer as its own process, a step of that rescuer.
 * Folded away except in the scenarios about cancelling or rescuing, where it is the point.
 */
export function OperatorControls() {
  // On a recording no operator acted: a cancel or a kill would need a new run on a server.
  const recorded = useRecordedMove();
  const ready = useReady() && recorded === null;
  const scenario = useScenario();
  const snapshot = useCursorSnapshot();
  const applyToken = useLab((s) => s.applyToken);
  const runIds = scenario.runs.map((r) => r.runId);
  const [chosen, setChosen] = useState<number | null>(null);
  const runId = chosen !== null && runIds.includes(chosen) ? chosen : (runIds[0] ?? 0);
  const targets = operatorTargets(snapshot.runs, snapshot.workers);
  const aboutCancelling = scenario.script.some((t) => t.startsWith('cancel:') || t.startsWith('kill:'));
  const rescuer = useLab((s) => (s.settings.definition === undefined ? strategyDefinition(s.settings.strategy).rescuer : undefined));
  const rescues = scenario.rescuer !== undefined && rescuer !== undefined;
  return (
    <details key={scenario.id} className="group operator" open={aboutCancelling || rescues}>
      <summary>Operator</summary>
      <fieldset className="operator-controls">
        <legend className="visually-hidden">Operator</legend>
        <label className="inline-field">
          <span>Run</span>
          <select value={runId} onChange={(e) => setChosen(Number(e.target.value))}>
            {runIds.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          onClick={() => void applyToken(`cancel:${runId}`)}
          disabled={!ready}
          title={recorded?.why ?? 'UPDATE runs SET cancel_requested = true: the request lives in the row'}
        >
          Cancel run
        </button>
        <button
          type="button"
          onClick={() => void applyToken(`kill:${runId}`)}
          disabled={!ready || !targets.kill.includes(runId)}
          title={recorded?.why ?? (targets.kill.includes(runId) ? 'Kill the process that runs it' : 'No live worker runs it')}
        >
          Kill its worker
        </button>
        {rescues ? (
          <button
            type="button"
            onClick={() => void applyToken('rescue')}
            disabled={!ready}
            title={`The queue's rescuer takes its next step. ${rescuer.inWords}`}
          >
            Step the rescuer
          </button>
        ) : null}
      </fieldset>
    </details>
  );
}
