/**
 * Whether the lab can run without a network, for the header's indicator: is a copy of this build kept
 * by the service worker, and is the browser online. A tiny external store (subscribe / snapshot) so
 * React reads it with useSyncExternalStore and the registration code stays outside React.
 */
/** 'none': no copy (dev server, no service worker support, or it failed). 'saving': being fetched. 'saved': the lab works offline. */
type OfflineCopy = 'none' | 'saving' | 'saved';

interface OfflineState {
  copy: OfflineCopy;
  online: boolean;
}

/** Next to the page (SERVICE_WORKER_FILE in src/offline/vite-plugin.mjs), so its scope is the page's directory. */
const SERVICE_WORKER_URL = './sw.js';

type Listener = () => void;

export interface OfflineStatus {
  snapshot(): OfflineState;
  subscribe(listener: Listener): () => void;
  setCopy(copy: OfflineCopy): void;
  setOnline(online: boolean): void;
}

export function createOfflineStatus(online: boolean): OfflineStatus {
  let state: OfflineState = { copy: 'none', online };
  const listeners = new Set<Listener>();
  const update = (next: OfflineState) => {
    if (next.copy === state.copy && next.online === state.online) return;
    state = next;
    for (const listener of listeners) listener();
  };
  return {
    snapshot: () => state,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setCopy: (copy) => update({ ...state, copy }),
    setOnline: (online) => update({ ...state, online }),
  };
}

/** The page's one status, read by the header. */
export const offlineStatus = createOfflineStatus(typeof navigator === 'undefined' ? true : navigator.onLine);

/** Follows the browser's online / offline events. */
export function followConnection(target: Pick<Window, 'addEventListener'>, status: OfflineStatus = offlineStatus): void {
  target.addEventListener('online', () => status.setOnline(true));
  target.addEventListener('offline', () => status.setOnline(false));
}

/**
 * Registers the service worker (sw.js next to the page, so its scope is the page's directory, wherever
 * the app is deployed) and reports when a copy is kept. `ready` means an active worker, and a worker
 * only becomes active once it has saved every file. A failed install leaves the status at 'none': the
 * lab still works online, and the browser retries on the next visit.
 */
export async function saveOfflineCopy(container: ServiceWorkerContainer, status: OfflineStatus = offlineStatus): Promise<void> {
  status.setCopy('saving');
  try {
    const registration = await container.register(SERVICE_WORKER_URL);
    const installing = registration.installing;
    if (!registration.active && installing) {
      installing.addEventListener('statechange', () => {
        if (installing.state === 'redundant' && !registration.active) status.setCopy('none');
      });
    }
    await container.ready;
    status.setCopy('saved');
  } catch {
    // No service worker here (an insecure origin, a browser setting): online only, as before.
    status.setCopy('none');
  }
}
