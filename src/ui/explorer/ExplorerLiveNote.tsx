import { useLab } from '../../store/react';

/**
 * In live mode the lab steps on the real server, but the explorer plays its thousands of schedules on
 * PGlite in a worker of its own: every schedule through the bridge would take minutes, and the ground-truth
 * tests hold the two to the same results. Say so, rather than let the counts pass for the server's.
 */
export function ExplorerLiveNote() {
  const live = useLab((s) => (s.engineDatabase?.kind === 'live' ? s.engineDatabase : null));
  if (!live) return null;
  return (
    <p className="explorer-live-note">
      The lab is live on PostgreSQL {live.version} at {live.where}, but exploring runs on PGlite in this tab: thousands of schedules through the bridge would
      take minutes. Open a witness to replay it on the live server.
    </p>
  );
}
