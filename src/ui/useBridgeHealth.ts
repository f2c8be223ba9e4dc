import { useEffect, useState } from 'react';

/** What the live bridge says of its own connection to the server (src/live/server.ts, /live/health). */
export type BridgeHealth = { state: 'up' } | { state: 'reconnecting'; attempts: number; problem: string | null };

const POLL_MS = 1000;

/**
 * Asks the live bridge, once a second while live mode is on, whether its connection to the server is up.
 * The engine's worker learns of a lost server only at the learner's next step; the bridge knows at once,
 * and this is how the banner can say "reconnecting…" in between. An unreachable bridge counts as up here:
 * the next step finds out and falls back to PGlite, saying so.
 */
export function useBridgeHealth(live: boolean): BridgeHealth {
  const [health, setHealth] = useState<BridgeHealth>({ state: 'up' });
  useEffect(() => {
    if (!live) return;
    let stopped = false;
    const ask = async () => {
      try {
        const response = await fetch(new URL('/live/health', window.location.href), {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: '{}',
          signal: AbortSignal.timeout(POLL_MS * 3),
        });
        const answer = (await response.json()) as { value?: BridgeHealth };
        if (!stopped) setHealth(answer.value?.state === 'reconnecting' ? answer.value : { state: 'up' });
      } catch {
        if (!stopped) setHealth({ state: 'up' });
      }
    };
    void ask();
    const timer = window.setInterval(() => void ask(), POLL_MS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [live]);
  return health;
}
