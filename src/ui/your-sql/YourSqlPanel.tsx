/**
 * "Your SQL": the learner's own claim (and, if they want, heartbeat, work write and completion), checked
 * by PostgreSQL's parser on Apply and then played by the lab like a built-in strategy. A chunk of its own,
 * loaded when the editor is first opened (YourSqlSlot.tsx).
 */
import { useLab } from '../../store/react';
import { sameTexts, WRITE_ROLES, yourSqlTextsOf } from '../../store/your-sql';
import { ProblemView } from './ProblemView';
import { ReaperEditor } from './ReaperEditor';
import { RoleEditor } from './RoleEditor';
import { SpecRunner } from './SpecRunner';
import { WriteEditor } from './WriteEditor';
import './your-sql.css';

export function YourSqlPanel() {
  const editor = useLab((s) => s.yourSql);
  const definition = useLab((s) => s.settings.definition);
  const playing = yourSqlTextsOf(definition);
  const edit = useLab((s) => s.editYourSql);
  const apply = useLab((s) => s.applyYourSql);
  const close = useLab((s) => s.closeYourSql);
  const draft = editor.draft;
  if (!draft) return null;
  const applied = playing !== null && sameTexts(playing, draft);
  return (
    <section className="your-sql" aria-labelledby="your-sql-title">
      <div className="your-sql-head">
        <h2 id="your-sql-title">Your SQL</h2>
        <button type="button" className="your-sql-close" onClick={close}>
          Hide editor
        </button>
      </div>
      <p className="your-sql-intro">
        Write the claim your workers run; the lab sends it exactly as written, with the parameters beside it. Apply reads it with PostgreSQL's own parser, and
        if the lab can replay it exactly on PGlite, every step, Play, the link and <em>Explore all schedules</em> use it.
      </p>
      {editor.note ? <p className="your-sql-note">{editor.note}</p> : null}
      <RoleEditor of="claim" text={draft.claim} onChange={(text) => edit('claim', text)} />
      {WRITE_ROLES.map((role) => (
        <WriteEditor key={role} role={role} />
      ))}
      <p className="your-sql-type">A write you write here runs the same with fencing on or off: it checks the generation if its WHERE says so.</p>
      <ReaperEditor />
      <div className="your-sql-actions">
        <button type="button" className="primary" disabled={editor.checking} onClick={() => void apply()}>
          {editor.checking ? 'Checking…' : 'Apply'}
        </button>
        {/* Not an <output> (role status): the lab's outcome is the one status region of the lab. */}
        <p className="your-sql-status" aria-live="polite">
          {editor.checking
            ? "Reading it with PostgreSQL's parser…"
            : applied
              ? 'Playing your SQL.'
              : playing
                ? 'Playing your last applied SQL; apply to play these edits.'
                : 'Not applied yet: the lab plays the strategy chosen before.'}
        </p>
      </div>
      {editor.problem ? <ProblemView problem={editor.problem} /> : null}
      <SpecRunner />
    </section>
  );
}
