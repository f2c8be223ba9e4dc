/** The production queues side by side: a row per queue, a column per question, every cell a place in the lab. */
import '../lesson/lesson.css';
import './comparison.css';
import { COMPARISON_QUESTIONS, QUEUE_COMPARISON } from '../../lessons/queue-comparison';
import { STRATEGY_LABELS, type StrategyId } from '../../strategies';
import { ComparisonAnswer } from './ComparisonAnswer';

const strategyLabel = (id: StrategyId) => STRATEGY_LABELS[id];

export function QueueComparison() {
  return (
    <section className="ll-lesson cmp" aria-labelledby="cmp-title">
      <h2 id="cmp-title">Compare queues</h2>
      <p>
        Each production queue against the module's questions, beside this lab's atomic claim with fencing. Every cell opens a scenario in the lab under that
        queue's claim and its guard today: fencing off, except for Solid Queue, whose claimed-execution guard (v1.5.0) the lab plays with fencing on. Where a
        queue's public incident answers a question, open the incident under the queue's own guard (fencing off), then its fix.
      </p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="ll-table-scroll" tabIndex={0} aria-label="Queue comparison (scrolls sideways)">
        <table>
          <caption className="ll-visually-hidden">Production Postgres queues and this lab's claim, by the question each column asks</caption>
          <thead>
            <tr>
              <th scope="col">Queue</th>
              {COMPARISON_QUESTIONS.map((question) => (
                <th key={question.id} scope="col">
                  {question.heading}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {QUEUE_COMPARISON.map((row) => (
              <tr key={row.strategy}>
                <th scope="row">
                  {row.name}
                  {row.source ? <p className="ll-meaning">{row.source.replace(/@(.{7}).*$/, '@$1')}</p> : null}
                </th>
                {row.cells.map((cell) => (
                  <ComparisonAnswer key={cell.question} row={row} cell={cell} strategyLabel={strategyLabel} />
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <h3>What each column's link plays</h3>
      <ul>
        {COMPARISON_QUESTIONS.map((question) => (
          <li key={question.id}>
            <strong>{question.heading}</strong> {question.plays}.
          </li>
        ))}
      </ul>
    </section>
  );
}
