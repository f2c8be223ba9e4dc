/**
 * The lab's service worker. After the first visit it keeps a copy of the whole built app (the page,
 * its scripts and styles, PGlite's wasm and file bundle, the pre-built data directory) so the lab
 * starts without a network.
 *
 * The build writes it to sw.js as a plain script, with `LEASE_LAB_OFFLINE_BUILD` (the file list and a
 * version) defined in front (src/offline/vite-plugin.ts). A new deploy is therefore a new sw.js: the
 * browser installs it, it fetches that build's files into a cache of its own, takes over, and deletes
 * the old build's cache.
 *
 * It answers only for its own origin and directory, only with files it listed, and never stores
 * anything else. A navigation is answered only for the lab's own page (its directory or index.html):
 * deployed at `/`, its scope is the whole origin, and other apps' pages there are theirs, not the lab's. The page itself is fetched from the network first, so when online a new deploy shows
 * at once; the copy is used when the network fails. Other files come from the copy (PGlite's wasm from
 * the browser's HTTP cache when it has it: see fileFromCopyOrNetwork).
 */
import type { OfflineBuild } from './manifest';

declare const LEASE_LAB_OFFLINE_BUILD: OfflineBuild;

const worker = self as unknown as ServiceWorkerGlobalScope;
const build = LEASE_LAB_OFFLINE_BUILD;
/** Ends in '/': the directory index.html is in. */
const scope = worker.registration.scope;
/**
 * Cache storage is shared by the whole origin, so the name carries the directory: two deploys of the
 * lab under different paths of one host keep their own copies.
 */
const cachePrefix = `lease-lab ${scope} `;
const cacheName = `${cachePrefix}${build.version}`;
const pageUrl = new URL('index.html', scope).href;
const listed = new Set(build.files.map((file) => new URL(file, scope).href));
const unpacked = new Set(build.unpack.map((file) => new URL(file, scope).href));
/** The paths that open the lab's page (with any query, such as ?embed); any other navigation goes to the network. */
const pagePaths = new Set([new URL(scope).pathname, new URL(pageUrl).pathname]);
/**
 * Written last into a copy this worker's install saved whole; no file of the build has this URL, so it is
 * never an answer. A cache of this build's name without it is not this worker's copy: `caches.open` made
 * it anew after a newer build's worker dropped the copy (see keepInCopy).
 */
const wholeCopyMark = new URL('?lease-lab-copy=whole', scope).href;

worker.addEventListener('install', (event) => {
  event.waitUntil(saveCopy().then(() => worker.skipWaiting()));
});

worker.addEventListener('activate', (event) => {
  // Take over first: until then the old build's worker still answers the page, and a file it found
  // missing from a copy already dropped would be fetched and kept, bringing that copy back.
  event.waitUntil(worker.clients.claim().then(dropOldCopies));
});

worker.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  const url = new URL(request.url);
  // Never another origin's request, nor one outside this deploy's directory: the browser handles those.
  if (url.origin !== worker.location.origin || !url.href.startsWith(scope)) return;
  if (request.mode === 'navigate') {
    if (pagePaths.has(url.pathname)) event.respondWith(pageFromNetworkOrCopy(request));
    return;
  }
  const key = url.origin + url.pathname;
  if (listed.has(key)) event.respondWith(fileFromCopyOrNetwork(request, key, (work) => event.waitUntil(work.catch(() => undefined))));
});

/**
 * Fetches every listed file into this build's cache. Hashed assets may come from the HTTP cache (the
 * page has usually just loaded them); the page itself is revalidated. Any failure fails the install,
 * and the browser tries again on a later visit. So does a copy dropped while it was saved: a worker
 * activating meanwhile (an older build's, its activation waiting for the build before it) drops every
 * copy but its own, and what was put through this handle afterwards went into no cache of any name.
 */
async function saveCopy(): Promise<void> {
  const cache = await caches.open(cacheName);
  await Promise.all(
    [...listed].map(async (url) => {
      const response = await fetch(new Request(url, { cache: url === pageUrl ? 'no-cache' : 'default' }));
      if (!response.ok) throw new Error(`${response.status} for ${url}`);
      await cache.put(url, await forCopy(url, response.redirected ? await unredirected(response) : response));
    }),
  );
  await cache.put(wholeCopyMark, new Response(build.version));
  // Read by name, not through the handle: the handle still reaches a copy whose name was dropped.
  if (!(await caches.match(wholeCopyMark, { cacheName }))) throw new Error('the copy was dropped while it was saved');
}

/**
 * A response that followed a redirect (some servers send index.html on to './') may not answer a
 * navigation; the same body and headers without the redirect may.
 */
async function unredirected(response: Response): Promise<Response> {
  return new Response(await response.blob(), { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * What the copy keeps of a file: the file itself, but a gzip archive of the build's own (the data directory,
 * 1 MB) unpacked (8 MB). The page unpacked it on every start: in traces of a returning learner's start that
 * was ~85 ms of the engine worker's CPU, which reading the unpacked tar from the copy does not cost
 * (src/db/pglite-boot.ts takes either, by its first bytes). Unpacked here, when the copy is saved, off the
 * start. The tar carries no check of its own as gzip does: the boot refuses one whose headers are damaged or
 * that is cut short (tarEntries), and reads it again from the network. A body that is not gzip (a server that
 * sent it with Content-Encoding, already unpacked) is kept as it came.
 */
async function forCopy(key: string, response: Response): Promise<Response> {
  if (!unpacked.has(key)) return response;
  const bytes = new Uint8Array(await response.clone().arrayBuffer());
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return response;
  const tar = await new Response(new Response(bytes).body!.pipeThrough(new DecompressionStream('gzip'))).arrayBuffer();
  return new Response(tar, { status: response.status, statusText: response.statusText, headers: { 'Content-Type': 'application/x-tar' } });
}

async function dropOldCopies(): Promise<void> {
  const names = await caches.keys();
  await Promise.all(names.filter((name) => name.startsWith(cachePrefix) && name !== cacheName).map((name) => caches.delete(name)));
}

async function pageFromNetworkOrCopy(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const copy = await caches.match(pageUrl, { cacheName });
    if (copy) return copy;
    throw error;
  }
}

/**
 * A listed file: from the copy, else from the network (and then kept in the copy again: a file missing
 * from it comes back whole). The wasm is the exception: the browser's own HTTP cache
 * first, without asking the network. A response passed through from there keeps the browser's compiled
 * code for it (V8's code cache, made while the first visit ran Postgres), so a returning learner's start
 * skips compiling Postgres; a response made from the copy has a code cache of its own, which only a later
 * visit fills, if any: with the wasm answered from the copy, none of 5 second visits and 1 of 5 third visits
 * started from a code cache in Chromium 156 here; the others compiled ~2,100 functions lazily as Postgres
 * started, and were ready 1.5–1.9× later than through the HTTP cache. Hashed files never change under one
 * name, so whatever the HTTP cache holds for it is this build's.
 *
 * Passing it through still costs a returning learner's start: the 9 MB stream comes through this worker to
 * the engine worker. The Static Routing API (the install event's `addRoutes`, source 'network' or
 * 'race-network-and-fetch-handler') would let the browser read its HTTP cache without this worker, but in
 * Chromium 156 a rule for the wasm held for the page's own request and not for the engine worker's, which is
 * where the wasm is asked for: with either source, the engine worker's request still waited for this handler.
 */
async function fileFromCopyOrNetwork(request: Request, key: string, keep: (work: Promise<unknown>) => void): Promise<Response> {
  // A page that asks past the caches (its copy was damaged: see src/db/pglite-boot.ts) gets the network's,
  // and the copy gets it in place of the damaged one.
  if (request.cache === 'no-store' || request.cache === 'reload') return fetchAndKeep(request, key, keep);
  if (key.endsWith('.wasm')) {
    const compiledBefore = await fetch(request.url, { cache: 'only-if-cached', mode: 'same-origin' }).catch(() => null);
    if (compiledBefore?.ok) return compiledBefore;
  }
  return (await caches.match(key, { cacheName })) ?? fetchAndKeep(request, key, keep);
}

async function fetchAndKeep(request: Request, key: string, keep: (work: Promise<unknown>) => void): Promise<Response> {
  const response = await fetch(request);
  if (response.ok && !response.redirected) {
    const copy = response.clone();
    keep(forCopy(key, copy).then((kept) => keepInCopy(key, kept)));
  }
  return response;
}

/**
 * Puts a file into this build's copy, and never into one a newer build's worker dropped as it took over.
 * That worker waits for this one's requests to end before it activates, but in Chromium for five minutes
 * at most (`kMaxLameDuckTime`): a slow download can still be here when the copy is dropped. `caches.open`
 * makes a cache of a name that is not there, and a check before it (`caches.has`) can be answered just
 * before the drop; so the cache is opened once, and the mark of a whole copy looked for through that
 * handle: a cache the open made anew has none, and is dropped again. Once the mark is seen, the put goes
 * through the same handle: if the copy is dropped in between, the file goes with it, under no name.
 */
async function keepInCopy(key: string, response: Response): Promise<void> {
  const cache = await caches.open(cacheName);
  if (await cache.match(wholeCopyMark)) await cache.put(key, response);
  else await caches.delete(cacheName);
}
