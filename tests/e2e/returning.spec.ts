/**
 * A returning learner's browser holds the lab's saved copy (the service worker's offline copy). What it
 * holds must never stop the lab: a damaged or stale data directory in it is discarded and read from the
 * network, and the page says so; a new deploy replaces the whole copy; and an embedded lab (?embed)
 * keeps nothing at all until the learner acts in it.
 */
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { Page } from '@playwright/test';
import { startStaticServer, type StaticServer } from '../../scripts/serve-static';
import { LAB_SCHEMA_FILE } from '../../src/db/pglite-boot';
import { expect, notices, offlineCopySaved, outcome, stepTimes, test, waitReady } from './fixtures';

const DIST = process.env.E2E_DIST ?? 'dist';
let served: StaticServer | null = null;
let site: string | null = null;
test.use({ serviceWorkers: 'allow' });

test.afterEach(async () => {
  await served?.close();
  served = null;
  if (site) rmSync(site, { recursive: true, force: true });
  site = null;
});

/**
 * Records, in the page, the order of two moments: the page saying it is ready (data-lab-ready) and its
 * service worker registered (the offline copy's download starts with it).
 */
const READY_THEN_COPY = `(() => {
  const order = (window.__order = []);
  const observer = new MutationObserver(() => {
    if (document.documentElement?.dataset.labReady !== 'true') return;
    order.push('ready');
    observer.disconnect();
  });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-lab-ready'] });
  const container = navigator.serviceWorker;
  const register = container.register.bind(container);
  container.register = (...args) => {
    order.push('copy');
    return register(...args);
  };
})();`;

/** Opens the lab from `root` and waits until its copy is saved (the header says so). */
async function openAndSave(page: Page, root: string): Promise<string> {
  served = await startStaticServer({ root, mount: '/course/lab/' });
  await page.addInitScript(READY_THEN_COPY);
  await page.goto(served.url);
  await waitReady(page);
  await offlineCopySaved(page);
  // Its download never competes with the start: it begins only once the page has said it is ready.
  expect(await page.evaluate(() => (window as unknown as { __order: string[] }).__order)).toEqual(['ready', 'copy']);
  return served.url;
}

/**
 * Waits until the service worker that keeps `cacheName` (a new deploy's) is activated, then answers the
 * cache names the origin holds; or says why it never will (its install failed: the copy stays the old one
 * until the next visit). Event-driven, with no race: the workers are read and watched in the same task, and
 * one already activated is seen at once.
 */
function newWorkerActivated(page: Page, cacheName: string): Promise<string[] | string> {
  return page.evaluate(
    (name) =>
      new Promise<string[] | string>((resolve) => {
        void navigator.serviceWorker.getRegistration().then((registration) => {
          if (!registration) return resolve('no service worker is registered for the page');
          // Workers seen installing or waiting: once there is one, the active worker is the old build's until it is one of them.
          const fresh = new Set<ServiceWorker>();
          const check = () => {
            const active = registration.active;
            if (active?.state !== 'activated' || (fresh.size > 0 && !fresh.has(active))) return;
            void caches.keys().then((keys) => keys.includes(name) && resolve(keys));
          };
          const watch = (worker: ServiceWorker | null, isNew: boolean) => {
            if (!worker) return;
            if (isNew) fresh.add(worker);
            worker.addEventListener('statechange', () => {
              if (isNew && worker.state === 'redundant' && registration.active !== worker) resolve('the new service worker was not installed');
              check();
            });
          };
          registration.addEventListener('updatefound', () => watch(registration.installing, true));
          watch(registration.installing, true);
          watch(registration.waiting, true);
          watch(registration.active, false);
          check();
        });
      }),
    cacheName,
  );
}

/** The URL of the built data directory's file, as the page asks for it. */
function dataDirFile(): string {
  const name = readdirSync(join(DIST, 'assets')).find((file) => /^lab-datadir\.tar-[\w-]+\.gz$/.test(file));
  if (!name) throw new Error(`no data directory in ${DIST}/assets`);
  return name;
}

/** Replaces the saved copy of one file (by its name in assets/) with these bytes, as a damaged disk or an old build would leave it. */
async function replaceSavedFile(page: Page, file: string, bytes: number[]): Promise<void> {
  const replaced = await page.evaluate(
    async ({ file, bytes }) => {
      let count = 0;
      for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        for (const request of await cache.keys()) {
          if (!request.url.endsWith(`/assets/${file}`)) continue;
          await cache.put(request, new Response(new Uint8Array(bytes), { headers: { 'Content-Type': 'application/gzip' } }));
          count += 1;
        }
      }
      return count;
    },
    { file, bytes },
  );
  expect(replaced, 'the saved copy held the file').toBe(1);
}

/** The size of the saved copy of one file (by its name in assets/), or null if none is saved. */
function savedSize(page: Page, file: string): Promise<number | null> {
  return page.evaluate(async (file) => {
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys())
        if (request.url.endsWith(`/assets/${file}`)) return (await (await cache.match(request))!.arrayBuffer()).byteLength;
    }
    return null;
  }, file);
}

/** The built data directory with another schema recorded in it: what an older build of the lab saved. */
function staleDataDir(): number[] {
  const tar = gunzipSync(readFileSync(join(DIST, 'assets', dataDirFile())));
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const name = tar
      .subarray(offset, offset + 100)
      .toString('utf8')
      .replace(/\0.*$/s, '');
    const size = Number.parseInt(tar.subarray(offset + 124, offset + 136).toString('utf8'), 8);
    if (name === LAB_SCHEMA_FILE) {
      tar.write('lease-lab schema 00000000'.slice(0, size), offset + 512, 'utf8');
      return [...gzipSync(tar)];
    }
    if (!name) break;
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${LAB_SCHEMA_FILE} is not in the data directory`);
}

/** The built data directory as the copy keeps it: unpacked (src/offline/service-worker.ts forCopy). */
function unpackedDataDir(): Buffer {
  return gunzipSync(readFileSync(join(DIST, 'assets', dataDirFile())));
}

const damagedCopies: Array<[string, () => number[]]> = [
  ['damaged (not an archive at all)', () => [...new TextEncoder().encode('this is not the data directory')]],
  ['stale (an older build with another schema)', staleDataDir],
];

for (const [what, bytes] of damagedCopies) {
  test(`a saved data directory that is ${what} is discarded: the lab starts from the network and says so`, async ({ page }) => {
    const file = dataDirFile();
    await openAndSave(page, DIST);
    // The copy keeps it unpacked: a returning learner's start does not unpack it again.
    expect(await savedSize(page, file)).toBe(unpackedDataDir().length);
    await replaceSavedFile(page, file, bytes());

    await page.reload();
    await waitReady(page);
    await expect(notices(page)).toContainText("The lab's saved copy in this browser was damaged, so the lab started from the network.");
    await expect(notices(page)).toContainText(/The saved copy of the data directory could not be used \(.+\), so it was discarded and read from the network/);
    await stepTimes(page, 2);
    await expect(outcome(page)).toContainText('B read run 123 as pending');
    // The copy is whole again, and unpacked: the next visit starts from it, with nothing to say.
    await expect.poll(() => savedSize(page, file)).toBe(unpackedDataDir().length);
    await page.reload();
    await waitReady(page);
    await expect(notices(page)).not.toContainText('saved copy');
  });
}

test('a new deploy replaces the saved copy: its files are kept, the old build’s cache is gone', async ({ page }) => {
  // A build of our own to redeploy over: the same files, with a new page and a new service worker.
  site = mkdtempSync(join(tmpdir(), 'lease-lab-deploy-'));
  cpSync(DIST, site, { recursive: true });
  await openAndSave(page, site);
  const before = await page.evaluate(() => caches.keys());
  expect(before).toHaveLength(1);

  // The server sends a pre-compressed sibling when there is one: the edited files go without.
  for (const file of readdirSync(site)) if (/^(sw\.js|index\.html)\.(gz|br)$/.test(file)) rmSync(join(site, file));
  const sw = readFileSync(join(site, 'sw.js'), 'utf8');
  const version = /"version":"([0-9a-f]+)"/.exec(sw)?.[1];
  expect(version, 'sw.js names its build').toBeTruthy();
  writeFileSync(join(site, 'sw.js'), sw.replace(`"version":"${version}"`, '"version":"next-deploy"'));
  const index = readFileSync(join(site, 'index.html'), 'utf8');
  writeFileSync(join(site, 'index.html'), index.replace('</head>', '<meta name="lease-lab-deploy" content="next">\n</head>'));

  await page.reload();
  await waitReady(page);
  // The new page is shown at once (the page comes from the network first) …
  await expect(page.locator('meta[name="lease-lab-deploy"]')).toHaveAttribute('content', 'next');
  // … and once the new service worker is activated, the copy is the new build's alone. A worker is
  // "activated" only after its activate handler (which drops the old copies) has finished, so the test waits
  // for that state change, not for a time: on a busy machine the page checks for an update in its first
  // pause, and the new worker saves its whole copy before it takes over.
  const expected = before[0]!.replace(version!, 'next-deploy');
  expect(await newWorkerActivated(page, expected)).toEqual([expected]);
  const savedPage = await page.evaluate(async () => {
    const [name] = await caches.keys();
    const cache = await caches.open(name!);
    const request = (await cache.keys()).find((r) => r.url.endsWith('/index.html'));
    return request ? (await cache.match(request))!.text() : '';
  });
  expect(savedPage).toContain('lease-lab-deploy');
});

test('an embedded lab keeps nothing in the browser before the learner acts', async ({ page }) => {
  served = await startStaticServer({ root: DIST, mount: '/course/lab/' });
  await page.goto(`${served.url}?embed#scenario=race&strategy=naive&fencing=off&schedule=&step=0`);
  await expect(page.locator('html')).toHaveAttribute('data-lab-ready', 'true', { timeout: 90_000 });
  // Longer than the full page waits before it saves its copy (the first pause after ready).
  await page.waitForTimeout(3000);
  const kept = await page.evaluate(async () => ({
    caches: await caches.keys(),
    workers: (await navigator.serviceWorker.getRegistrations()).length,
    localStorage: localStorage.length,
    databases: (await indexedDB.databases()).map((database) => database.name),
  }));
  expect(kept).toEqual({ caches: [], workers: 0, localStorage: 0, databases: [] });
});
