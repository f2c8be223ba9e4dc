/** The concept table: idea → the lab's SQL → Temporal → production Postgres queues. */
import './lesson.css';
import { CONCEPTS } from '../../lessons/concepts';
import { findSource } from '../../lessons/sources';
import { sqlPath } from '../../lessons/sql-lines';
import { LessonLink, SourceLinks } from './links';
import type { ChapterId } from '../../lessons/types';

export interface ConceptTableProps {
  onOpenChapter?: (chapterId: ChapterId) => void;
  /** Opens the queues side by side (the lesson's Compare queues tab). */
  onCompareQueues?: () => void;
}

function Cite({ ids }: { ids: readonly string[] }) {
  const sources = ids.map((id) => findSource(id)).filter((s) => s !== undefined);
  if (sources.length === 0) return null;
  return (
    <span className="ll-cite">
      {sources.map((source, position) => (
        <span key={source.id}>
          {position === 0 ? ' ' : ', '}
          <a href={source.url} target="_blank" rel="noreferrer noopener" title={source.label}>
            [{position + 1}]<span className="ll-visually-hidden"> {source.label} (opens in a new tab)</span>
          </a>
        </span>
      ))}
    </span>
  );
}

export function ConceptTable({ onOpenChapter, onCompareQueues }: ConceptTableProps) {
  return (
    <section className="ll-lesson ll-concepts" aria-labelledby="ll-concepts-title">
      <h2 id="ll-concepts-title">Concepts at a glance</h2>
      <p>Each idea in this module, where it lives in the lab's SQL, what Temporal calls it, and how production Postgres queues handle it.</p>
      {onCompareQueues ? (
        <p>
          <button type="button" onClick={onCompareQueues}>
            Compare the queues side by side
          </button>
          : every answer is a scenario you can open in the lab.
        </p>
      ) : null}
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard */}
      <section className="ll-table-scroll" tabIndex={0} aria-label="Concept table (scrolls sideways)">
        <table>
          <caption className="ll-visually-hidden">Concepts, the lab's SQL, Temporal's equivalent, and production queues</caption>
          <thead>
            <tr>
              <th scope="col">Concept</th>
              <th scope="col">In this lab</th>
              <th scope="col">Temporal</th>
              <th scope="col">Production Postgres queues</th>
            </tr>
          </thead>
          <tbody>
            {CONCEPTS.map((row) => (
              <tr key={row.id}>
                <th scope="row">
                  <LessonLink target={{ kind: 'chapter', id: row.chapterId }} onOpen={onOpenChapter}>
                    {row.name}
                  </LessonLink>
                  <p className="ll-meaning">{row.meaning}</p>
                </th>
                <td>
                  {row.labSql.length > 0 ? (
                    <ul className="ll-files">
                      {row.labSql.map((id) => (
                        <li key={id}>
                          <code>{sqlPath(id)}</code>
                        </li>
                      ))}
                    </ul>
                  ) : null}
                  <p>{row.labNote}</p>
                </td>
                <td>
                  {row.temporal}
                  <Cite ids={row.temporalSources} />
                </td>
                <td>
                  <ul className="ll-queues">
                    {row.queues.map((queue) => (
                      <li key={queue.system}>
                        <strong>{queue.system}</strong>: {queue.how}
                        <Cite ids={queue.sources} />
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
      <p>
        Primary source: Temporal's AI cookbook shows claim, lease, heartbeat and reclaim when a durable workflow engine owns them. Compare each of its recipes
        with the rows above.
      </p>
      <SourceLinks ids={['temporal-ai-cookbook', 'temporal-failures']} title="Read further" />
    </section>
  );
}
