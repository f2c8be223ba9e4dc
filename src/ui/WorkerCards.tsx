import { memo } from 'react';
import { FINISHED_PHASES } from '../sim/types';
import { formatCents, type WorkerCard, workerCard } from '../store/derive';
import { useShownStep } from './hooks';
import { sameFields } from './same';

function leaseText(card: WorkerCard): string {
  if (card.leaseLeftSeconds === null) return '—';
  if (card.leaseLeftSeconds < 0) return `expired ${-card.leaseLeftSeconds} s ago`;
  return `${card.leaseLeftSeconds} s left`;
}

/** Redrawn only when something on it changed: a step usually moves one worker of several. */
const Card = memo(function Card({ card }: { card: WorkerCard }) {
  const finished = (FINISHED_PHASES as readonly string[]).includes(card.phase);
  return (
    <article className={`worker-card worker-${card.id}${finished ? ' finished' : ''}`} aria-label={`Worker ${card.id}`}>
      <header>
        <span className="worker-badge" aria-hidden="true">
          {card.id}
        </span>
        <span className="phase">{card.phase}</span>
        {card.paused ? <span className="tag">paused</span> : null}
      </header>
      <dl>
        <div>
          <dt>Run</dt>
          <dd>{card.runId ?? '—'}</dd>
        </div>
        <div>
          <dt>Generation</dt>
          <dd>{card.generation ?? '—'}</dd>
        </div>
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
    </article>
  );
}, (a, b) => sameFields(a.card, b.card));

/** One card per worker: what it believes, after the selected step. */
export function WorkerCards() {
  const { after } = useShownStep();
  return (
    <section className="workers" aria-label="Workers">
      <h2 className="visually-hidden">Workers</h2>
      {after.workers.map((w) => (
        <Card key={w.id} card={workerCard(w, after.clockSeconds)} />
      ))}
    </section>
  );
}
