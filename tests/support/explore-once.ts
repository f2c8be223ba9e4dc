/**
 * The fast explorer with its answers kept, for a test file that runs `check` on the same scenario, claim and
 * settings several times, once per flag that changes only the verdict or the wording (--fail-on, --json):
 * the exploration behind them is done once. Exact: the key is the whole question (the scenario, the
 * settings with the claim's own text, the options), the explorer is deterministic, and the one thing `check`
 * reads off the database after exploring, how its claim answered (stopOnYourStatementFailure's tally), is
 * handed to each later call as the first exploration left it. A question with a function in it (a progress
 * callback, a cancel) is never kept.
 */
import type * as Explore from '../../src/engine/explore';

type ExploreModule = typeof Explore;

function keyOf(question: unknown): string | null {
  try {
    return JSON.stringify(question, (_, value) => {
      if (typeof value === 'function') throw new Error('not kept');
      return value;
    });
  } catch {
    return null;
  }
}

export function exploringOnce(real: ExploreModule): ExploreModule {
  const kept = new Map<string, { answer: Promise<Explore.Exploration>; tally: Promise<object | null> }>();
  const exploreFast: ExploreModule['exploreFast'] = (db, scenario, settings, options = {}) => {
    const key = keyOf([scenario, settings, options]);
    if (key === null) return real.exploreFast(db, scenario, settings, options);
    const tallied = db as { yourClaim?: object };
    const known = kept.get(key);
    if (known) {
      return known.tally.then((tally) => {
        if (tally && tallied.yourClaim) Object.assign(tallied.yourClaim, tally);
        return known.answer;
      });
    }
    const answer = real.exploreFast(db, scenario, settings, options);
    const tally = answer.then(
      () => (tallied.yourClaim ? { ...tallied.yourClaim } : null),
      () => (tallied.yourClaim ? { ...tallied.yourClaim } : null),
    );
    kept.set(key, { answer, tally });
    return answer;
  };
  return { ...real, exploreFast };
}
