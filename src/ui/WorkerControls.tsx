import { workerMoves } from '../store/derive';
import { useLab } from '../store/react';
import { useCursorSnapshot, useReady, useRecordedMove, useScenario, useShownControls } from './hooks';

function WorkerGroup({ id, index }: { id: string; index: number }) {
  const ready = useReady();
  const snapshot = useCursorSnapshot();
  const applyToken = useLab((s) => s.applyToken);
  const worker = workerMoves(snapshot.workers.find((w) => w.id === id));
  // A recording has one move at each point, the server's: every other one needs a new run, and says so.
  const recorded = useRecordedMove();
  const moves = recorded
    ? {
        step: worker.step && recorded.next === id,
        pause: false,
        resume: false,
        crash: false,
        restart: false,
        why: recorded.next === id ? worker.why : recorded.why,
      }
    : worker;
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
            title={recorded?.why ?? `Freeze ${id} (a long GC pause)`}
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
          title={recorded?.why ?? `${id}'s process dies; its open transaction rolls back`}
        >
          Crash
        </button>
      ) : null}
      {shown.restart ? (
        <button
          type="button"
          onClick={() => void applyToken(`restart:${id}`)}
          disabled={!ready || !moves.restart}
          aria-label={`Restart worker ${id}`}
          title={recorded?.why ?? `${id} starts again under the same name, remembering nothing of its last life`}
        >
          Restart
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
