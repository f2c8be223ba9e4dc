import { memo, useMemo } from 'react';
import { durationLabel } from '../sim/clock';
import { initialWorker } from '../sim/simulated-worker';
import { FINISHED_PHASES } from '../sim/types';
import { formatCents, type WorkerCard, workerCard, workerMoves } from '../store/derive';
import { useLab, usePanelLab } from '../store/react';
import { type Belief, beliefOf } from '../store/worker-belief';
import { type Pointer, type ProgramLine, pointerOf, workerProgram } from '../store/worker-program';
import { useReady, useRecordedMove, useScenario, useShownStep } from './hooks';
import { sameFields } from './same';
import { WorkerProgram } from './WorkerProgram';

function leaseText(card: WorkerCard): string {
  if (card.leaseLeftSeconds === null) return '—';
  if (card.leaseLeftSeconds < 0) return `expired ${durationLabel(-card.leaseLeftSeconds)} ago`;
  return `${durationLabel(card.leaseLeftSeconds)} left`;
}

/** The worker's belief beside the row, each disagreement marked with ≠ and said in words, not by colour alone. */
function BeliefTable({ worker, belief }: { worker: string; belief: Belief }) {
  const differs = belief.lines.filter((line) => !line.agrees);
  return (
    <div className="belief">
      <table>
        <caption>
          Run {belief.runId}: what {worker} believes, what the row says
        </caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Field</span>
            </th>
            <th scope="col">{worker} believes</th>
            <th scope="col">Row says</th>
          </tr>
        </thead>
        <tbody>
          {belief.lines.map((line) => (
            <tr key={line.field} className={line.agrees ? undefined : 'disagrees'} data-field={line.field}>
              <th scope="row">{line.label}</th>
              <td>{line.believes}</td>
              <td>
                <span className="mark" aria-hidden="true">
                  {line.agrees ? '=' : '≠'}
                </span>{' '}
                {line.row}
                {line.agrees ? null : <span className="visually-hidden"> (differs)</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {differs.length > 0 ? (
        <p className="belief-verdict">
          ≠ The row disagrees on {differs.map((line) => line.label.toLowerCase()).join(', ')}.{belief.note ? ` ${belief.note}` : ''}
        </p>
      ) : null}
      {belief.sharedName ? <p className="belief-shared-name">{belief.sharedName}</p> : null}
    </div>
  );
}

interface CardProps {
  card: WorkerCard;
  belief: Belief | null;
  program: readonly ProgramLine[];
  pointer: Pointer;
  /** Steps this worker from its highlighted line; null when it cannot step from the state shown. */
  onStep: (() => void) | null;
}

function sameCard(a: CardProps, b: CardProps): boolean {
  return (
    sameFields(a.card, b.card) &&
    JSON.stringify(a.belief) === JSON.stringify(b.belief) &&
    a.program === b.program &&
    JSON.stringify(a.pointer) === JSON.stringify(b.pointer) &&
    (a.onStep === null) === (b.onStep === null)
  );
}

/** Redrawn only when something on it changed: a step usually moves one worker of several. */
const Card = memo(function Card({ card, belief, program, pointer, onStep }: CardProps) {
  const finished = (FINISHED_PHASES as readonly string[]).includes(card.phase);
  return (
    <article className={`worker-card worker-${card.id}${finished ? ' finished' : ''}`} aria-label={`Worker ${card.id}`}>
      <header>
        <span className="worker-badge" aria-hidden="true">
          {card.id}
        </span>
        <span className="phase">{card.phase}</span>
        {card.paused ? <span className="tag">paused</span> : null}
        {card.life > 1 ? (
          <span className="tag restarted" title={`${card.id} crashed and started again under the same name; this life remembers nothing of the last one`}>
            restarted · life {card.life}
          </span>
        ) : null}
        {card.name ? (
          <span className="tag worker-name" title={`${card.id} claims under this name: it is what its claims write to lease_owner`}>
            {card.name}
          </span>
        ) : null}
      </header>
      <dl>
        <div>
          <dt>Run</dt>
          <dd>{card.runId ?? '—'}</dd>
        </div>
        {belief ? null : (
          <div>
            <dt>Generation</dt>
            <dd>{card.generation ?? '—'}</dd>
          </div>
        )}
        <div>
          <dt>Lease</dt>
          <dd className={card.leaseLeftSeconds !== null && card.leaseLeftSeconds < 0 ? 'warn' : undefined}>{leaseText(card)}</dd>
        </div>
        <div>
          <dt>Work done</dt>
          <dd>{card.workDone}</dd>
        </div>
        <div>
          <dt>Calls paid</dt>
          <dd>
            {card.callsPaid} ({formatCents(card.costCents)})
          </dd>
        </div>
      </dl>
      {belief ? <BeliefTable worker={card.id} belief={belief} /> : null}
      <WorkerProgram worker={card.id} program={program} pointer={pointer} onStep={onStep} />
    </article>
  );
}, sameCard);

/** One card per worker: what it believes beside what its run's row says, after the selected step, and its program with what it runs next. */
export function WorkerCards() {
  const { after, index } = useShownStep();
  const scenario = useScenario();
  // The settings these steps were played with: right after another strategy is picked the steps are still the old one's.
  const settings = usePanelLab((s) => s.traceSettings);
  const position = usePanelLab((s) => s.position);
  const applyToken = useLab((s) => s.applyToken);
  const ready = useReady();
  const programs = useMemo(() => new Map(scenario.workers.map((w) => [w.id, workerProgram(w.id, scenario, settings)])), [scenario, settings]);
  // A line steps the worker only while the cards show the latest state: stepping acts at the cursor.
  const live = ready && (index === null ? position === 0 : index === position - 1);
  // On a recording only the worker of its next token may step: any other move would need a new run.
  const recorded = useRecordedMove();
  // Before the first trace has loaded, the scenario's workers as they start (the state its trace will
  // begin with): the cards are in their place at first paint, not pushed in under the timeline later.
  const workers = after.workers.length > 0 ? after.workers : scenario.workers.map(initialWorker);
  return (
    <section className="workers" aria-label="Workers">
      <h2 className="visually-hidden">Workers</h2>
      {workers.map((w) => (
        <Card
          key={w.id}
          card={workerCard(w, after.clockSeconds)}
          belief={beliefOf(
            w,
            after.runs.find((run) => run.run_id === w.runId),
            workers,
          )}
          program={programs.get(w.id) ?? []}
          pointer={pointerOf(programs.get(w.id) ?? [], w, scenario, settings, after.clockSeconds, workers)}
          onStep={live && workerMoves(w).step && (recorded === null || recorded.next === w.id) ? () => void applyToken(w.id) : null}
        />
      ))}
    </section>
  );
}
