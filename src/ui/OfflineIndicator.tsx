import { useSyncExternalStore } from 'react';
import { offlineStatus } from '../offline/status';

/**
 * A quiet note in the header: "Works offline" once the service worker keeps a copy of the lab;
 * "Working offline" while the browser has no network and the lab runs from that copy ("Offline" if
 * there is none). Nothing while the copy is being saved or when there is none (the dev server), so it
 * never claims what is not true; its room is kept from the first paint (app.css), so the header keeps
 * its layout when the note comes and when the network comes and goes.
 */
export function OfflineIndicator() {
  const { copy, online } = useSyncExternalStore(offlineStatus.subscribe, offlineStatus.snapshot);
  if (!online) {
    const saved = copy === 'saved';
    return (
      <span className="offline-indicator" data-offline="true" title={saved ? 'No network: the lab runs from the copy saved in this browser.' : 'No network.'}>
        {saved ? 'Working offline' : 'Offline'}
      </span>
    );
  }
  // Nothing to say yet: an empty box of the note's size, so the note appears without moving the header.
  if (copy !== 'saved') return <span className="offline-indicator" aria-hidden="true" />;
  return (
    <span className="offline-indicator" title="A copy of the lab, Postgres included, is saved in this browser: it runs without a network.">
      <span aria-hidden="true">✓ </span>Works offline
    </span>
  );
}
