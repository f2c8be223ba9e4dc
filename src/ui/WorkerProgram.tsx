/**
 * A worker's program beside its card, with its instruction pointer: the line it runs next highlighted
 * (a button that steps the worker, when it may step), the line waiting for a lock marked, and a worker
 * that runs nothing more said to be done, stopped or crashed. Program and pointer come from
 * store/worker-program.ts, which reads the engine's own rules.
 */
import type { Pointer, ProgramLine, StatementLine } from '../store/worker-program';

interface WorkerProgramProps {
  worker: string;
  program: readonly ProgramLine[];
  pointer: Pointer;
  /** Steps the worker; null when it cannot step from here (not ready, paused, waiting, or an earlier step shown). */
  onStep: (() => void) | null;
}

function Statement({ line, current }: { line: StatementLine; current: boolean }) {
  return (
    <>
      {line.lead ? <span className="program-lead">{line.lead} </span> : null}
      {line.yours ? <span className="program-file program-yours">{line.file}</span> : <code className="program-file">{line.file}</code>}
      {current ? (
        <>
          {' '}
          <code className="program-first">{line.firstLine}</code>
        </>
      ) : null}
      {line.then ? <span className="program-then"> → {line.then}</span> : null}
    </>
  );
}

function pointerWords(worker: string, pointer: Pointer): string {
  switch (pointer.kind) {
    case 'next':
      return pointer.paused ? `${worker} is paused: it runs the marked line once resumed.` : '';
    case 'waiting':
      return `${worker} waits in the marked line for the lock held by ${pointer.holders.join(', ') || 'another transaction'}.`;
    case 'ended':
      return `${worker}: ${pointer.words}.`;
  }
}

export function WorkerProgram({ worker, program, pointer, onStep }: WorkerProgramProps) {
  const at = pointer.kind === 'ended' ? -1 : pointer.line;
  const words = pointerWords(worker, pointer);
  return (
    <div className={`program program-${pointer.kind}`}>
      <ol className="program-lines" aria-label={`${worker}'s program`}>
        {program.map((line, index) => {
          const current = index === at;
          const mark = current ? (pointer.kind === 'waiting' ? 'waits' : 'next') : null;
          const body = line.kind === 'code' ? <span className="program-code">{line.text}</span> : <Statement line={line} current={current} />;
          return (
            <li
              // biome-ignore lint/suspicious/noArrayIndexKey: the program is fixed for its scenario and settings; a line is its position
              key={index}
              className={`depth-${line.depth}${mark ? ` is-${mark}` : ''}`}
              aria-current={current ? 'step' : undefined}
              title={line.kind === 'statement' ? line.firstLine : undefined}
            >
              <span className="program-mark" aria-hidden="true">
                {mark === 'next' ? '▶' : mark === 'waits' ? '‖' : ''}
              </span>
              <span className="program-body">
                {mark ? <span className="visually-hidden">{mark === 'next' ? 'Next: ' : 'Waiting: '}</span> : null}
                {current && onStep && line.kind === 'statement' ? (
                  <button type="button" className="program-step" onClick={onStep} aria-label={`Step ${worker}: run ${line.file}`}>
                    <Statement line={line} current />
                  </button>
                ) : (
                  body
                )}
              </span>
            </li>
          );
        })}
      </ol>
      {words ? <p className="program-state">{words}</p> : null}
    </div>
  );
}
