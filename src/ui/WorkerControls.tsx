import { workerMoves } from '../store/derive';
import { useLab } from '../store/react';
import { useCursorSnapshot, useReady, useScenario, useShownControls } from './hooks';

function WorkerGroup({ id, index }: { id: string; index: number }) {
  const ready = useReady();
  const snapshot = useCursorSnapshot();
  const applyToken = useLab((s) => s.applyToken);
  const moves = workerMoves(snapshot.workers.find((w) => w.id === id));
  const shown = useShownControls();
  return (
    <fieldset className={`group worker-group worker-${id}`}>
      <legend className="visually-hidden">Worker {id}</legend>
      <span className="worker-badge" aria-hidden="true">
        {id}
      </span>
      <button
        type="button"
        onClick={() => void applyToken(id)}
        disabled={!ready || !moves.step}
        aria-label={`Step worker ${id}`}
        title={moves.why ?? `Step worker ${id} (${index + 1})`}
      >
        Step {id}
      </button>
      {shown.pause ? (
        <>
          <button
            type="button"
            onClick={() => void applyToken(`pause:${id}`)}
            disabled={!ready || !moves.pause}
            aria-label={`Pause worker ${id}`}
            title={`Freeze ${id} (a long GC pause)`}
          >
            Pause
          </button>
          <button type="button" onClick={() => void applyToken(`resume:${id}`)} disabled={!ready || !moves.resume} aria-label={`Resume worker ${id}`}>
            Resume
          </button>
        </>
      ) : null}
      {shown.crash ? (
        <button
          type="button"
          onClick={() => void applyToken(`crash:${id}`)}
          disabled={!ready || !moves.crash}
          aria-label={`Crash worker ${id}`}
          title={`${id}'s process dies; its open transaction rolls back`}
        >
          Crash
        </button>
      ) : null}
    </fieldset>
  );
}

export function WorkerControls() {
  const scenario = useScenario();
  return (
    <>
      {scenario.workers.map((w, i) => (
        <WorkerGroup key={w.id} id={w.id} index={i} />
      ))}
    </>
  );
}
