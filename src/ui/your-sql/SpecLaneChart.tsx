/**
 * The lanes themselves, in plain SVG: a column per step of the order, a row per session. Steps after the
 * cursor are drawn faint, their answers not yet shown; a wait the cursor stands inside runs up to it.
 */
import { useEffect, useRef } from 'react';
import type { SpecPermutationResult, StepReply, StepTrace } from '../../store/spec-slice';

const COLUMN = 100;
const LANE = 74;
const HEAD = 22;

/** A step's name as a column holds it (the whole name is in the words below the lanes). */
const FITS = 12;
const short = (name: string) => (name.length > FITS ? `${name.slice(0, FITS - 1)}…` : name);

/** What a step gave back, in two words under its mark. */
function answerWords(replies: readonly StepReply[]): string {
  const error = replies.find((reply) => reply.kind === 'error');
  if (error) return 'error';
  const rows = replies.filter((reply) => reply.kind === 'rows');
  if (rows.length === 0) return 'done';
  const count = rows.reduce((sum, reply) => sum + reply.result.rows.length, 0);
  return `${count} row${count === 1 ? '' : 's'}`;
}

interface MarkProps {
  trace: StepTrace;
  row: number;
  stop: number;
  /** The last column a wait may run to: at the end, the step the order could not send, else the cursor's. */
  reach: number;
  atEnd: boolean;
  x: (column: number) => number;
}

function StepMark({ trace, row, stop, reach, atEnd, x }: MarkProps) {
  const top = HEAD + row * LANE;
  const sent = trace.sentAt < stop;
  const returned = trace.returnedAt !== null && trace.returnedAt < stop;
  const start = x(trace.sentAt);
  // A wait runs to where it ended, or, while the cursor stands inside it, to the cursor.
  const end = returned ? x(trace.returnedAt!) : trace.waited && sent ? x(reach) : start;
  const y = top + 32;
  const answer = answerWords(trace.replies);
  return (
    <g className={sent ? 'spec-lane-step' : 'spec-lane-step is-future'}>
      <text x={start} y={top + 16} textAnchor="middle" className="spec-lane-name">
        {short(trace.step)}
      </text>
      {trace.waited && sent && end > start ? <line x1={start} x2={end} y1={y} y2={y} className="spec-lane-wait" /> : null}
      <circle cx={start} cy={y} r={6} className={trace.waited || !returned ? 'spec-lane-mark is-open' : 'spec-lane-mark'} />
      {trace.waited && returned ? <circle cx={end} cy={y} r={6} className="spec-lane-mark" /> : null}
      {returned ? (
        <text x={end} y={top + 54} textAnchor="middle" className={answer === 'error' ? 'spec-lane-answer is-error' : 'spec-lane-answer'}>
          {answer}
        </text>
      ) : sent && trace.waited ? (
        <text x={end} y={top + 54} textAnchor="middle" className="spec-lane-answer">
          {atEnd ? 'still waits' : 'waits…'}
        </text>
      ) : null}
      {trace.waited && returned && trace.releasedBy ? (
        <text x={end} y={top + 68} textAnchor="middle" className="spec-lane-answer">
          after {short(trace.releasedBy)}
        </text>
      ) : null}
    </g>
  );
}

export function SpecLaneChart({ permutation, sessions, stop }: { permutation: SpecPermutationResult; sessions: readonly string[]; stop: number }) {
  const columns = permutation.steps.length;
  const sent = permutation.trace.length;
  const atEnd = stop > sent;
  const x = (column: number) => column * COLUMN + COLUMN / 2;
  const width = columns * COLUMN;
  const height = HEAD + sessions.length * LANE;
  const box = useRef<HTMLElement>(null);
  // The cursor's column is kept in view on a narrow screen.
  useEffect(() => {
    const element = box.current;
    if (!element || stop === 0 || atEnd) return;
    const left = x(stop - 1) - COLUMN;
    const right = x(stop - 1) + COLUMN;
    if (left < element.scrollLeft || right > element.scrollLeft + element.clientWidth) element.scrollLeft = Math.max(0, left);
  });
  const reach = Math.min(atEnd ? sent : stop - 1, columns - 1);
  const names = permutation.trace.map((trace) => `${trace.step} (${trace.session})`).join(', ');
  return (
    <div className="spec-lanes-figure">
      {/* The sessions' names stay in view while the lanes scroll sideways (the lanes' own label names them too). */}
      <div className="spec-lanes-names" aria-hidden="true" style={{ paddingTop: HEAD }}>
        {sessions.map((name, row) => (
          <div key={name} className={row % 2 === 0 ? 'spec-lanes-name' : 'spec-lanes-name is-odd'} style={{ height: LANE }}>
            {name}
          </div>
        ))}
      </div>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard */}
      <section className="spec-lanes-scroll" ref={box} tabIndex={0} aria-label="The lanes (the stop is described below them)">
        <svg
          width={width}
          height={height}
          viewBox={`0 0 ${width} ${height}`}
          role="img"
          aria-label={`Lanes of sessions ${sessions.join(', ')}; steps in order: ${names}`}
        >
          {sessions.map((name, row) => (
            <rect key={name} x={0} y={HEAD + row * LANE} width={width} height={LANE} className={row % 2 === 0 ? 'spec-lane-band' : 'spec-lane-band is-odd'} />
          ))}
          {stop >= 1 && !atEnd ? <rect x={x(stop - 1) - COLUMN / 2 + 2} y={0} width={COLUMN - 4} height={height} rx={4} className="spec-lane-now" /> : null}
          {permutation.steps.map((name, column) => (
            <text key={`${column}-${name}`} x={x(column)} y={15} textAnchor="middle" className="spec-lane-number">
              {column + 1}
            </text>
          ))}
          {permutation.trace.map((trace) => (
            <StepMark key={trace.sentAt} trace={trace} row={sessions.indexOf(trace.session)} stop={stop} reach={reach} atEnd={atEnd} x={x} />
          ))}
        </svg>
      </section>
    </div>
  );
}
