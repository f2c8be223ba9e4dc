/**
 * What a spec's run found, the verdict first: which orders broke a check, which PGlite refused (one line
 * each, with the command that runs it on a server), then each order in the isolation tester's own text.
 */
import { useLab, useLabStore } from '../../store/react';
import { openedPermutation, orderOf, shortestBroken } from '../../store/spec-lanes';
import type { SpecPermutationResult, SpecResult } from '../../store/spec-slice';
import { SpecLanes } from './SpecLanes';

const serverCommand = (steps: readonly string[]) => `npm run sim -- spec FILE.spec --permutation "${steps.join(' ')}" --db postgres://…`;

function Verdict({ result, opened }: { result: Extract<SpecResult, { kind: 'ran' }>; opened: SpecPermutationResult | null }) {
  const all = result.permutations.length;
  const broken = result.permutations.filter((p) => p.brokenChecks.length > 0);
  const refused = result.permutations.filter((p) => p.refused !== null).length;
  const followed = all - refused;
  const names = [...new Set(broken.flatMap((p) => p.brokenChecks))];
  const shortest = shortestBroken(result.permutations);
  const exit = `exit ${result.exitCode}, as the command line exits`;
  if (shortest) {
    return (
      <p className="your-spec-verdict your-spec-broken">
        <strong>
          Broken: {names.map((name) => `“${name}”`).join(', ')} in {broken.length} of {followed} orders.
        </strong>{' '}
        The shortest{shortest === opened ? ', opened below' : ''}: <code>{shortest.steps.join(' ')}</code> ({exit}).
      </p>
    );
  }
  if (result.checks.length === 0)
    return (
      <p className="your-spec-verdict">
        The spec has no check: {followed} of {all} orders ran ({exit}).
      </p>
    );
  if (refused > 0) {
    return (
      <p className="your-spec-verdict">
        <strong>
          No check broke in the {followed} orders PGlite followed; {refused} refused, so the answer is open
        </strong>{' '}
        ({exit}).
      </p>
    );
  }
  return (
    <p className="your-spec-verdict your-spec-held">
      <strong>Every check held in all {all} orders</strong> ({exit}).
    </p>
  );
}

function OrderLabel({ p, checked }: { p: SpecPermutationResult; checked: boolean }) {
  if (p.refused !== null) return <span className="your-spec-tag">refused on PGlite</span>;
  if (p.invalid !== null) return <span className="your-spec-tag">cannot happen</span>;
  if (p.brokenChecks.length > 0) return <span className="your-spec-tag your-spec-broken">broke {p.brokenChecks.map((name) => `“${name}”`).join(', ')}</span>;
  return <span className="your-spec-tag">{checked ? 'checks held' : 'ran'}</span>;
}

/** The tester's text in a box that scrolls, reachable from the keyboard (WCAG 2.1.1) and named for a screen reader. */
function TesterText({ label, text }: { label: string; text: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard
    <section className="your-spec-output" tabIndex={0} aria-label={label}>
      <pre>{text}</pre>
    </section>
  );
}

/** The refusal as the command line prints it in place of the permutation's text. */
const refusedText = (p: SpecPermutationResult) => `starting permutation: ${p.steps.join(' ')}\nrefused on PGlite: ${p.refused}\n`;

export function SpecResults({ result }: { result: SpecResult }) {
  const store = useLabStore();
  const showOrder = useLab((s) => s.showSpecOrder);
  const shownOrder = useLab((s) => s.specRunner.shownOrder);
  // The order a link or the learner opened, else the shortest broken one, else the first PGlite followed: its lanes are drawn.
  const opened = openedPermutation(result, shownOrder);
  if (result.kind === 'bad-input') {
    return (
      <div className="your-sql-problem" role="alert">
        <p>
          <strong>Your spec:</strong> <span className="your-sql-message">{result.message}</span>
        </p>
      </div>
    );
  }
  const refused = result.permutations.filter((p) => p.refused !== null);
  const whole = `${result.header}${result.permutations.map((p) => (p.refused === null ? p.output : `\n${refusedText(p)}`)).join('')}${result.summary}`;
  return (
    <div className="your-spec-results" data-testid="spec-results">
      <Verdict result={result} opened={opened} />
      {refused.length > 0 ? (
        <div className="your-spec-refused">
          <h4>Refused: PGlite cannot follow these orders honestly, so the lab does not guess</h4>
          <ul>
            {refused.map((p) => (
              <li key={p.steps.join(' ')}>
                <code>{p.steps.join(' ')}</code>: {p.refused}. On a server: <code>{serverCommand(p.steps)}</code>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {opened ? <SpecLanes key={orderOf(opened)} permutation={opened} sessions={result.sessions} /> : null}
      <h4>Each order, as PostgreSQL's isolation tester prints it</h4>
      <ol className="your-spec-orders">
        {result.permutations.map((p) => (
          <li key={p.steps.join(' ')}>
            <details
              open={p === opened}
              onToggle={(event) => {
                // Opening the order already shown (as it mounts open) keeps its lanes' step.
                if (event.currentTarget.open) {
                  if (p !== opened) showOrder(orderOf(p));
                } else if (store.getState().specRunner.shownOrder === orderOf(p)) showOrder(null);
              }}
            >
              <summary>
                <code>{p.steps.join(' ')}</code> <OrderLabel p={p} checked={result.checks.length > 0} />
              </summary>
              <TesterText label={`The output of ${p.steps.join(' ')}`} text={p.refused === null ? p.output.replace(/^\n/, '') : refusedText(p)} />
            </details>
          </li>
        ))}
      </ol>
      <details className="your-spec-whole">
        <summary>The whole output, to diff with an expected file</summary>
        <TesterText label="The whole output" text={whole} />
      </details>
    </div>
  );
}
