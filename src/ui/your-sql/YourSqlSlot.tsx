/**
 * Where "Your SQL" opens, in the page's first chunk; the editor itself (its fields, its CSS) is a chunk of
 * its own, fetched the first time it opens: on a click, or at once when the page was opened at a link that
 * plays the learner's SQL (`strategy=your-sql&claim=…`).
 */
import { Suspense } from 'react';
import { useLab } from '../../store/react';
import { lazyPanel } from '../lazyPanel';

const { Panel: YourSqlEditor } = lazyPanel('The Your SQL editor', () => import('./YourSqlPanel').then((module) => module.YourSqlPanel));

export function YourSqlSlot() {
  const open = useLab((s) => s.yourSql.open);
  if (!open) return null;
  return (
    <Suspense fallback={<p className="lazy-loading">Loading the Your SQL editor…</p>}>
      <YourSqlEditor />
    </Suspense>
  );
}
