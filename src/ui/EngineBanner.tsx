import { useLab } from '../store/react';
import { RecordingBanner } from './RecordingBanner';
import { useBridgeHealth } from './useBridgeHealth';

/** Which database the lab runs on, when it is not the usual PGlite: a live server, or why live mode is off. */
function DatabaseBanner() {
  const database = useLab((s) => s.engineDatabase);
  const health = useBridgeHealth(database?.kind === 'live');
  const recorded = useLab((s) => s.recorded !== null);
  if (database?.kind === 'live') {
    return (
      <div className="banner banner-live">
        <strong>
          Live: PostgreSQL {database.version} at {database.where}
        </strong>
        {health.state === 'reconnecting' ? (
          <output className="banner-reconnecting">
            Reconnecting… the bridge lost its connection to the server and is trying again (attempt {health.attempts}
            {health.problem ? `: ${health.problem}` : ''}). If the server is not back within a few seconds, your next step runs on PGlite in this tab, from
            where you are.
          </output>
        ) : (
          <span>
            {recorded
              ? 'The trace below is a recording (the live bridge runs every claim at READ COMMITTED); every other trace runs on this server.'
              : 'Every step runs on this server, one connection per worker, in the schema lease_lab. Lock waits are real waits.'}
          </span>
        )}
      </div>
    );
  }
  if (database?.kind === 'pglite' && database.liveProblem) {
    return (
      <div className="banner banner-warning">
        <strong>Not live: running on PGlite in this tab.</strong>
        <span>{database.liveProblem[0]?.toUpperCase() + database.liveProblem.slice(1)}.</span>
      </div>
    );
  }
  return null;
}

/**
 * Postgres could not start: say so, and offer a way out. A start in progress is said in the outcome box
 * (Outcome.tsx), in room the page keeps: a banner here pushed the lab down while it started and pulled it
 * back up once ready (a layout shift on every first visit).
 */
function PhaseBanner() {
  const phase = useLab((s) => s.enginePhase);
  const message = useLab((s) => s.engineMessage);
  const retryEngine = useLab((s) => s.retryEngine);
  if (phase === 'failed') {
    return (
      <div className="banner banner-error" role="alert">
        <span>{message ?? 'Postgres could not start.'}</span>
        <button type="button" onClick={retryEngine}>
          Try again
        </button>
      </div>
    );
  }
  return null;
}

export function EngineBanner() {
  return (
    <>
      <DatabaseBanner />
      <RecordingBanner />
      <PhaseBanner />
    </>
  );
}
