/**
 * The SQL console's body: the learner's own read-only statements against the database the workers use,
 * as it stands at the cursor. What is allowed, and why, is said in the panel; the rules are in
 * sql/console.ts. SqlConsole loads it when the panel is first opened and keeps it mounted after.
 */
import { useCallback, useEffect, useId, useRef, useState } from 'react';
import { tokensRevealed } from '../../store/script';
import { CONSOLE_ROWS_SHOWN } from '../../sql/console';
import { STATEMENT_LIMIT_MS } from '../../store/session-slice';
import { useLab, usePanelLab } from '../../store/react';
import { useReady } from '../hooks';
import { ConsoleResultView, type ConsoleRun, placeLabel } from './ConsoleResultView';
import { useConsoleHistory } from './context';
import { CONSOLE_PRESETS } from './presets';
import { SqlEditor } from './SqlEditor';

export function ConsoleBody() {
  const ready = useReady();
  const runConsole = useLab((s) => s.runConsole);
  // Where the console stands, as the panels show it (store/trailing.ts).
  const steps = usePanelLab((s) => s.steps);
  const position = usePanelLab((s) => s.position);
  const enginePhase = useLab((s) => s.enginePhase);
  const [text, setText] = useState(CONSOLE_PRESETS[0]!.sql);
  const history = useConsoleHistory((s) => s.entries);
  const rememberStatement = useConsoleHistory((s) => s.remember);
  /** Where ↑/↓ is in the history: -1 is the statement being written (kept in `draft`). */
  const [browsing, setBrowsing] = useState(-1);
  const draft = useRef('');
  const [running, setRunning] = useState(false);
  const [last, setLast] = useState<ConsoleRun | null>(null);
  const noteId = useId();
  const resultRef = useRef<HTMLElement>(null);

  // A new answer is brought into view (the panel scrolls by itself on a wide window).
  useEffect(() => {
    if (last) resultRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [last]);

  /** Trace steps whose database the console sees after `tokens` schedule tokens (a whole move at a time). */
  const stepsAt = useCallback((tokens: number) => steps.filter((step) => step.tokenIndex < tokens).length, [steps]);
  const tokensNow = tokensRevealed(steps, position);
  const stepsNow = stepsAt(tokensNow);
  const clockNow = stepsNow > 0 ? (steps[stepsNow - 1]?.clockSeconds ?? 0) : 0;

  const run = useCallback(
    async (sql: string) => {
      if (running) return;
      rememberStatement(sql);
      setBrowsing(-1);
      setRunning(true);
      try {
        const outcome = await runConsole(sql);
        setLast({ sql, outcome });
      } finally {
        setRunning(false);
      }
    },
    [running, rememberStatement, runConsole],
  );

  const onHistory = (direction: -1 | 1): boolean => {
    const target = browsing - direction;
    if (target < -1 || target >= history.length) return false;
    if (browsing === -1) draft.current = text;
    setBrowsing(target);
    setText(target === -1 ? draft.current : history[target]!);
    return true;
  };

  const onChange = (value: string) => {
    setText(value);
    setBrowsing(-1);
  };

  const stale = last && 'at' in last.outcome && last.outcome.at.tokens !== tokensNow;
  const canRun = ready && enginePhase === 'ready' && !running;

  return (
    <div className="console-body">
      <p id={noteId} className="console-note">
        Read-only queries on the lab’s Postgres as it stands {placeLabel(stepsNow, clockNow)}
        {stepsNow > position ? ` (step ${position} is part of a move that ends at step ${stepsNow}; the database is shown after the whole move)` : ''}: each
        statement runs alone in <code>BEGIN READ ONLY … ROLLBACK</code>.
      </p>
      <details className="console-rules">
        <summary>What runs here, and why</summary>
        <ul>
          <li>
            <code>SELECT</code>, <code>WITH</code>, <code>VALUES</code>, <code>TABLE</code>, <code>EXPLAIN</code> and <code>SHOW</code> run, one statement at a
            time. The first {CONSOLE_ROWS_SHOWN} rows are shown and the rest counted. <code>now()</code> reads the lab’s clock at this step.
          </li>
          <li>
            Writes (<code>INSERT</code>, <code>UPDATE</code>, <code>DELETE</code>) and row locks (<code>FOR UPDATE</code>, <code>FOR SHARE</code>) are sent, and
            Postgres refuses them itself (SQLSTATE 25006): they would change what the workers see, or wait for a parked worker’s lock, and inside PGlite a lock
            wait never returns.
          </li>
          <li>
            <code>BEGIN</code>, <code>COMMIT</code>, <code>ROLLBACK</code>, <code>PREPARE</code>, <code>LOCK</code>, <code>SET</code>, <code>LISTEN</code>,{' '}
            <code>DO</code> and schema changes are not sent. PGlite has one session, shared with the workers: a transaction you opened there would take in their
            statements too.
          </li>
          <li>
            A statement gets {STATEMENT_LIMIT_MS / 1000} s. Nothing can interrupt one inside PGlite, so after that the lab ends the Web Worker running Postgres,
            carries on with a spare one it started when you opened this console, and replays your steps: you stay where you were.
          </li>
          <li>
            The workers send each of their <code>.sql</code> files once as a prepared statement and then only its parameters, so{' '}
            <code>pg_prepared_statements</code> lists them as <code>lease_lab_…</code>; the text in each is the file's text, the SQL the steps show. On a real
            server each worker has a session of its own, and the lab's tests send every statement unprepared there.
          </li>
        </ul>
      </details>
      <fieldset className="console-presets">
        <legend>Examples</legend>
        {CONSOLE_PRESETS.map((preset) => (
          <button
            key={preset.label}
            type="button"
            className="quiet"
            title={preset.title}
            disabled={!canRun}
            onClick={() => {
              setText(preset.sql);
              void run(preset.sql);
            }}
          >
            {preset.label}
          </button>
        ))}
      </fieldset>
      <SqlEditor
        value={text}
        onChange={onChange}
        onRun={() => {
          if (canRun) void run(text);
        }}
        onHistory={onHistory}
        describedBy={noteId}
      />
      <div className="console-actions">
        <button type="button" className="primary" disabled={!canRun} onClick={() => void run(text)}>
          {running ? 'Running…' : 'Run'}
        </button>
        <span className="muted console-keys">
          {!ready || enginePhase !== 'ready' ? (
            'Waiting for Postgres…'
          ) : (
            <>
              <kbd>Ctrl</kbd>+<kbd>Enter</kbd> runs · <kbd>↑</kbd> <kbd>↓</kbd> earlier statements
            </>
          )}
        </span>
      </div>
      <section ref={resultRef} className="console-result" aria-label="Console result" aria-live="polite" aria-busy={running}>
        {last ? (
          <>
            {stale ? <p className="console-stale">This answer is from another step than the one you are on now: run it again to see this step.</p> : null}
            <ConsoleResultView run={last} stepsAt={stepsAt} />
          </>
        ) : null}
      </section>
      {history.length > 0 ? (
        <details className="console-history">
          <summary>History ({history.length})</summary>
          <ol>
            {history.map((entry) => (
              <li key={entry}>
                <button
                  type="button"
                  className="quiet"
                  onClick={() => {
                    setText(entry);
                    setBrowsing(-1);
                  }}
                >
                  <code>{entry.length > 120 ? `${entry.slice(0, 120)}…` : entry}</code>
                </button>
              </li>
            ))}
          </ol>
        </details>
      ) : null}
    </div>
  );
}
