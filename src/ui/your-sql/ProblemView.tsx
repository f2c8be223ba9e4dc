import { ROLE_NAMES, type YourSqlProblem } from '../../store/your-sql';

/** PostgreSQL's syntax error with its line, column and a caret under the text, or the lab's reason for refusing. */
export function ProblemView({ problem }: { problem: YourSqlProblem }) {
  const whose = problem.role === null ? 'Your SQL' : `Your ${ROLE_NAMES[problem.role]}`;
  if (problem.kind === 'syntax') {
    return (
      <div className="your-sql-problem" role="alert">
        <p>
          <strong>{whose}: PostgreSQL says</strong> <span className="your-sql-message">{problem.message}</span> at line {problem.line}, column {problem.column}.
        </p>
        <pre className="your-sql-caret" data-testid="your-sql-caret">
          {problem.lineText}
          {'\n'}
          {`${' '.repeat(Math.max(0, problem.column - 1))}^`}
        </pre>
      </div>
    );
  }
  if (problem.kind === 'refused') {
    return (
      <div className="your-sql-problem" role="alert">
        <p>
          <strong>{whose} is refused here:</strong> <span className="your-sql-message">{problem.reason}</span>
        </p>
        {problem.onServer === 'plays' ? (
          <p className="your-sql-hint">
            A real PostgreSQL server runs it as written; the lab cannot replay it on PGlite yet. Check it on a server of your own, one connection per worker,
            over every schedule: <code>npm run sim -- check &lt;scenario&gt; --claim FILE --db URL</code>.
          </p>
        ) : problem.onServer === 'refuses' ? (
          <p className="your-sql-hint">
            This is a limit of the lab's model, not of PGlite: on a server of your own, <code>npm run sim -- check … --db URL</code> refuses it too.
          </p>
        ) : null}
      </div>
    );
  }
  return (
    <div className="your-sql-problem" role="alert">
      <p>
        <strong>{whose}:</strong> <span className="your-sql-message">{problem.message}</span>
      </p>
    </div>
  );
}
