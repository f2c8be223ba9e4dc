/**
 * The offline copy's service worker, run as the build writes it (sw.js) against a Cache Storage kept in
 * memory, so the order of cache operations between two workers can be chosen step by step.
 *
 * A new deploy's worker drops the old build's copy as it activates. Chromium lets the old worker finish
 * its requests first (and the spec terminates it before the new one's activate event), but only for five
 * minutes: after that it activates the new worker while the old one still runs (`kMaxLameDuckTime` in
 * content/browser/service_worker/service_worker_registration.cc). A file the old worker is still keeping
 * then meets the drop at any point of its cache calls; `caches.open` makes a cache of a name that is not
 * there, so at the wrong point it made the dropped copy again.
 */
import { runInNewContext } from 'node:vm';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { OfflineBuild } from '../../src/offline/manifest';
import { serviceWorkerScript } from '../../src/offline/vite-plugin.mjs';

const ORIGIN = 'https://lab.test';
const SCOPE = `${ORIGIN}/course/lab/`;
const FILES = ['index.html', 'assets/app-1.js', 'assets/lab-datadir.tar-1.gz'];
const DATA_DIR = `${SCOPE}assets/lab-datadir.tar-1.gz`;
const cacheName = (version: string) => `lease-lab ${SCOPE} ${version}`;

/** One cache: the entries a handle reaches, which outlive a delete of its name (as in the Cache API). */
type Entries = Map<string, Response>;

/** The origin's Cache Storage: names to caches. */
class Storage {
  readonly byName = new Map<string, Entries>();

  names(): string[] {
    return [...this.byName.keys()];
  }
}

/**
 * What one worker sees as `caches`, over the shared storage; `before` runs ahead of each of its calls
 * (on the storage or on a cache it opened), so a test can let another worker act in between.
 */
function cacheStorage(storage: Storage, before: () => Promise<void>) {
  const handle = (entries: Entries) => ({
    async put(request: string, response: Response) {
      await before();
      entries.set(request, response);
    },
    async match(request: string) {
      await before();
      return entries.get(request)?.clone();
    },
    async delete(request: string) {
      await before();
      return entries.delete(request);
    },
  });
  return {
    async keys() {
      await before();
      return storage.names();
    },
    async has(name: string) {
      await before();
      return storage.byName.has(name);
    },
    async open(name: string) {
      await before();
      const entries = storage.byName.get(name) ?? new Map<string, Response>();
      storage.byName.set(name, entries);
      return handle(entries);
    },
    async delete(name: string) {
      await before();
      return storage.byName.delete(name);
    },
    async match(request: string, options?: { cacheName?: string }) {
      await before();
      const named = options?.cacheName === undefined ? [...storage.byName.values()] : [storage.byName.get(options.cacheName)];
      for (const entries of named) {
        const found = entries?.get(request);
        if (found) return found.clone();
      }
      return undefined;
    },
  };
}

/** The network: every listed file, its body naming the build that served it (gzipped for the data directory, as the build's file is, when asked). */
function network(version: string, gzipDataDir: boolean) {
  return async (input: string | { url: string }, init?: { cache?: string }) => {
    if (init?.cache === 'only-if-cached') throw new TypeError('not in the HTTP cache');
    const url = typeof input === 'string' ? input : input.url;
    const body = `${version}: ${url}`;
    return new Response(gzipDataDir && url === DATA_DIR ? gzipSync(body) : body);
  };
}

interface Dispatched {
  /** Resolves once the event's response and every promise it was kept alive for have settled. */
  settled: Promise<void>;
  response: Promise<Response> | undefined;
}

const scripts = new Map<string, Promise<string>>();

/** A worker of one build: sw.js run in a context of its own, with events dispatched by hand. */
async function startWorker(version: string, storage: Storage, before: () => Promise<void> = async () => {}, gzipDataDir = false) {
  const build: OfflineBuild = { version, files: FILES, unpack: [FILES[2]!] };
  if (!scripts.has(version)) scripts.set(version, serviceWorkerScript(build));
  const handlers = new Map<string, (event: object) => void>();
  const self = {
    registration: { scope: SCOPE },
    location: { origin: ORIGIN },
    addEventListener: (type: string, handler: (event: object) => void) => handlers.set(type, handler),
    skipWaiting: async () => undefined,
    clients: { claim: async () => undefined },
  };
  runInNewContext(await scripts.get(version)!, {
    self,
    caches: cacheStorage(storage, before),
    fetch: network(version, gzipDataDir),
    URL,
    Request,
    Response,
    DecompressionStream,
  });
  const dispatch = (type: string, fields: object = {}): Dispatched => {
    const kept: Promise<unknown>[] = [];
    let response: Promise<Response> | undefined;
    handlers.get(type)?.({
      ...fields,
      waitUntil: (work: Promise<unknown>) => kept.push(work),
      respondWith: (answer: Promise<Response>) => {
        response = answer;
      },
    });
    const settled = (async () => {
      await response?.catch(() => undefined);
      // A fetch keeps its worker alive for the copy's write only once the network has answered.
      for (let seen = 0; seen < kept.length; ) {
        seen = kept.length;
        await Promise.allSettled(kept);
      }
      for (const work of kept) await work;
    })();
    return { settled, response };
  };
  return {
    install: () => dispatch('install').settled,
    activate: () => dispatch('activate').settled,
    /** The page asks for a file (not a navigation), as its scripts and the engine do. */
    get: (url: string, cache: RequestCache = 'default') => dispatch('fetch', { request: { method: 'GET', url, mode: 'cors', cache } }),
  };
}

describe("the offline copy's service worker", () => {
  it('keeps again a file missing from the copy', async () => {
    const storage = new Storage();
    const worker = await startWorker('v1', storage);
    await worker.install();
    await worker.activate();
    storage.byName.get(cacheName('v1'))!.delete(DATA_DIR);

    const fetched = worker.get(DATA_DIR);
    expect(await (await fetched.response!).text()).toBe(`v1: ${DATA_DIR}`);
    await fetched.settled;
    expect(await storage.byName.get(cacheName('v1'))!.get(DATA_DIR)!.text()).toBe(`v1: ${DATA_DIR}`);
    expect(storage.names()).toEqual([cacheName('v1')]);
  });

  it('answers a file asked for past the caches (the page found its saved copy damaged) from the network, and keeps that in place of the damaged one', async () => {
    const storage = new Storage();
    const worker = await startWorker('v1', storage);
    await worker.install();
    await worker.activate();
    storage.byName.get(cacheName('v1'))!.set(DATA_DIR, new Response('damaged'));

    const fetched = worker.get(DATA_DIR, 'no-store');
    expect(await (await fetched.response!).text()).toBe(`v1: ${DATA_DIR}`);
    await fetched.settled;
    expect(await storage.byName.get(cacheName('v1'))!.get(DATA_DIR)!.text()).toBe(`v1: ${DATA_DIR}`);
  });

  it('keeps the data directory unpacked (the page then reads the tar as is), whether saved at install or kept again after damage', async () => {
    const storage = new Storage();
    const worker = await startWorker('v1', storage, async () => {}, true);
    await worker.install();
    await worker.activate();
    const saved = () => storage.byName.get(cacheName('v1'))!.get(DATA_DIR)!.clone().text();
    expect(await saved()).toBe(`v1: ${DATA_DIR}`);
    // The page itself gets the file as the network sent it.
    storage.byName.get(cacheName('v1'))!.set(DATA_DIR, new Response('damaged'));
    const fetched = worker.get(DATA_DIR, 'no-store');
    expect([...new Uint8Array(await (await fetched.response!).arrayBuffer()).subarray(0, 2)]).toEqual([0x1f, 0x8b]);
    await fetched.settled;
    expect(await saved()).toBe(`v1: ${DATA_DIR}`);
  });

  it('never makes a dropped copy again: a new deploy activating between any two cache calls of the old worker leaves the new copy alone', async () => {
    let runs = 0;
    for (let point = 1; ; point += 1) {
      const storage = new Storage();
      let calls = 0;
      let armed = false;
      let newer: Awaited<ReturnType<typeof startWorker>> | null = null;
      // Before the old worker's `point`th cache call for the file, the new deploy's worker activates (and drops the old copy).
      const old = await startWorker('v1', storage, async () => {
        if (!armed) return;
        calls += 1;
        if (calls === point) await newer!.activate();
      });
      await old.install();
      await old.activate();
      newer = await startWorker('v2', storage);
      await newer.install();
      // The page found the saved data directory damaged and discarded it; the old worker answers its next read.
      storage.byName.get(cacheName('v1'))!.delete(DATA_DIR);
      armed = true;

      const fetched = old.get(DATA_DIR);
      expect(await (await fetched.response!).text()).toBe(`v1: ${DATA_DIR}`);
      await fetched.settled;
      if (calls < point) break;
      runs += 1;
      expect(storage.names(), `the new worker activating before the old one's cache call ${point}`).toEqual([cacheName('v2')]);
    }
    expect(runs, 'the old worker kept the file through the cache').toBeGreaterThan(0);
  });

  it('an install whose copy is dropped while it is saved fails (the browser tries it again later); one that succeeds leaves its copy whole', async () => {
    let failed = 0;
    for (let point = 1; ; point += 1) {
      const storage = new Storage();
      let calls = 0;
      let middle: Awaited<ReturnType<typeof startWorker>> | null = null;
      const first = await startWorker('v1', storage);
      await first.install();
      await first.activate();
      // v2 installed, its activation waiting for v1's requests; v3 is deployed and installs meanwhile.
      middle = await startWorker('v2', storage);
      await middle.install();
      const last = await startWorker('v3', storage, async () => {
        calls += 1;
        if (calls === point) await middle!.activate();
      });
      const installed = await last.install().then(
        () => true,
        () => false,
      );
      if (calls < point) break;
      if (!installed) {
        failed += 1;
        continue;
      }
      const copy = storage.byName.get(cacheName('v3'));
      expect(copy && [...copy.keys()].filter((url) => !url.includes('?')).sort(), `v2 activating before v3's cache call ${point}`).toEqual(
        FILES.map((file) => SCOPE + file).sort(),
      );
    }
    expect(failed, 'some drop came in the middle of the install').toBeGreaterThan(0);
  });
});
