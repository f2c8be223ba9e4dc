/**
 * "Your own schema": a spec in PostgreSQL's isolation-tester format (your tables, one block per session,
 * checks that must return no rows), pasted and run in the engine's Web Worker on a PGlite of its own. It
 * starts from the lab's race written as a spec PGlite follows (docs/examples/claim-naive.spec).
 */
import { useEffect, useRef } from 'react';
import example from '../../../docs/examples/claim-naive.spec?raw';
import { useLab } from '../../store/react';
import { SpecResults } from './SpecResults';

export function SpecRunner() {
  const runner = useLab((s) => s.specRunner);
  const edit = useLab((s) => s.editSpec);
  const run = useLab((s) => s.runSpec);
  const text = runner.text ?? example;
  const section = useRef<HTMLElement>(null);
  // A link that carries a spec is about the spec: it is brought into view once, below the lab, when the link opens it.
  const fromLink = runner.fromLink;
  useEffect(() => {
    if (fromLink) section.current?.scrollIntoView({ block: 'start' });
  }, [fromLink]);
  return (
    <section ref={section} className="your-spec" aria-labelledby="your-spec-title">
      <h3 id="your-spec-title">Your own schema: check a spec</h3>
      <p className="your-sql-intro">
        Your tables, your sessions, your rule. Paste a spec in PostgreSQL's isolation-tester format: a <code>setup</code> with your tables, a{' '}
        <code>session</code> per worker with its <code>step</code>s, and a <code>check</code> query that must return no rows. The lab runs every order of the
        steps on a separate Postgres in this tab (your scenario above is not touched) and shows what each order did.
      </p>
      <label htmlFor="your-spec-text" className="your-sql-label">
        Your spec
      </label>
      <textarea
        id="your-spec-text"
        className="your-sql-text"
        value={text}
        spellCheck={false}
        autoCapitalize="off"
        autoComplete="off"
        rows={14}
        onChange={(e) => edit(e.target.value)}
      />
      <div className="your-sql-actions">
        <button type="button" className="primary" disabled={runner.running} onClick={() => void run(text)}>
          {runner.running ? 'Running…' : 'Run every order'}
        </button>
        <p className="your-spec-status" aria-live="polite">
          {runner.running
            ? 'Starting a Postgres of its own and running each order…'
            : runner.result !== null
              ? ''
              : runner.fromLink
                ? 'Opened from the link; nothing has run yet.'
                : runner.text === null
                  ? "Starts from the lab's race: two workers, the naive claim."
                  : 'Not run yet.'}
        </p>
      </div>
      {runner.failure ? (
        <div className="your-sql-problem" role="alert">
          <p>
            <strong>The spec could not run:</strong> <span className="your-sql-message">{runner.failure}</span>
          </p>
        </div>
      ) : null}
      {runner.result ? <SpecResults result={runner.result} /> : null}
    </section>
  );
}
