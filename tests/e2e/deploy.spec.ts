/**
 * Ship it anywhere: the built app, served from a sub-path by the project's plain static server, saves
 * itself for offline use on the first visit, and after the network is gone (the browser offline and
 * the server stopped) a reload still starts Postgres and runs the naive race.
 */
import { startStaticServer, type StaticServer } from '../../scripts/serve-static';
import { expect, offlineCopySaved, outcome, stepTimes, test, waitReady } from './fixtures';
import { showAllControls } from './disclosure';

const DIST = process.env.E2E_DIST ?? 'dist';
let served: StaticServer | null = null;
// This is the one walk the offline copy is for (the config blocks service workers elsewhere).
test.use({ serviceWorkers: 'allow' });

test.afterEach(async () => {
  await served?.close();
  served = null;
});

test('from a sub-path of a plain static server, then offline, the naive race runs', async ({ page, context }) => {
  served = await startStaticServer({ root: DIST, mount: '/some/sub/path/' });
  expect(served.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/some\/sub\/path\/$/);
  const labUrl = served.url;
  const indicator = page.locator('.offline-indicator');

  await page.goto(`${served.url}#scenario=race&strategy=naive&fencing=off&schedule=&step=0`);
  await waitReady(page);
  // The service worker saves the app once Postgres is up; the header says so when it is done.
  await offlineCopySaved(page);

  // No network at all: the browser is offline, and the server is gone too.
  await served.close();
  served = null;
  await context.setOffline(true);
  await expect(indicator).toHaveText('Working offline');

  await page.reload();
  await waitReady(page);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  // The header says what the browser says. Chromium 150 under Playwright's offline emulation reports
  // navigator.onLine true in the reloaded page (no network is there: the server is gone), so the test
  // holds the indicator to the browser's own answer rather than to the emulation.
  const browserOnline = await page.evaluate(() => navigator.onLine);
  await expect(indicator).toHaveText(browserOnline ? /Works offline/ : 'Working offline');
  await stepTimes(page, 2);
  await expect(outcome(page)).toContainText('B read run 123 as pending');
  await stepTimes(page, 4);
  await expect(outcome(page)).toContainText('Run 123 was executed by both A and B');
  // What the page links to besides its code is in the offline copy too.
  const offline = await page.evaluate(async () =>
    Promise.all(['./manifest.webmanifest', './favicon.svg', './icon-192.png'].map(async (url) => (await fetch(url)).status)),
  );
  expect(offline).toEqual([200, 200, 200]);
  // So are the chunks the page loads only when they are wanted: the timeline's zoom, the scenario editor, Your SQL.
  await showAllControls(page);
  await page.getByRole('button', { name: 'Zoom in' }).click();
  await expect(page.getByRole('button', { name: 'Reset zoom' })).toBeEnabled();
  await page.getByRole('button', { name: 'Write a scenario…' }).click();
  const editor = page.getByRole('dialog', { name: 'Your scenario' });
  await expect(editor).toBeVisible();
  await editor.getByRole('button', { name: 'Cancel' }).click();
  await page.getByLabel('Strategy', { exact: true }).selectOption('your-sql');
  await expect(page.getByRole('region', { name: 'Your SQL' })).toBeVisible();

  // The copy answers for the lab's own page only: another app's page in the same directory tree (as on a
  // lab deployed at "/") is left to the network, which is gone, so the browser says it is offline.
  const elsewhere = await page.goto(`${labUrl}other-app/`).then(
    () => 'answered',
    (error: Error) => error.message,
  );
  expect(elsewhere).toMatch(/ERR_INTERNET_DISCONNECTED|ERR_CONNECTION_REFUSED|ERR_FAILED/);
});

/** What index.html links to besides its code: icons, the web app manifest, the link preview, robots.txt. */
test('the icons, the manifest, the preview image and robots.txt are served with their types and load under the CSP', async ({ page }) => {
  served = await startStaticServer({ root: DIST, mount: '/some/sub/path/' });
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  await page.goto(served.url);
  await waitReady(page);
  const linked = await page.evaluate(() => ({
    icons: [...document.querySelectorAll<HTMLLinkElement>('link[rel~="icon"], link[rel="apple-touch-icon"]')].map(
      (link) => [link.href, link.type || 'image/png'] as const,
    ),
    manifest: document.querySelector<HTMLLinkElement>('link[rel="manifest"]')?.href ?? null,
    preview: document.querySelector<HTMLMetaElement>('meta[property="og:image"]')?.content ?? null,
  }));
  expect(linked.icons.map(([href]) => new URL(href).pathname)).toEqual([
    '/some/sub/path/favicon.svg',
    '/some/sub/path/icon-32.png',
    '/some/sub/path/icon-180.png',
  ]);
  expect(linked.manifest).toBe(`${served.url}manifest.webmanifest`);
  expect(linked.preview).toBe('./og-image.png');

  // Each one fetched as the browser would, and each image decoded: a wrong type or a broken file fails here.
  const fetched = await page.evaluate(
    async ({ icons, manifest, preview, robots }) => {
      const get = async (url: string) => {
        const response = await fetch(url);
        return { url, status: response.status, type: response.headers.get('content-type'), body: await response.blob() };
      };
      const decodes = async (blob: Blob) => {
        try {
          await createImageBitmap(blob);
          return true;
        } catch {
          return false;
        }
      };
      const manifestResponse = await get(manifest);
      const parsed = JSON.parse(await manifestResponse.body.text()) as { name: string; start_url: string; icons: { src: string; type: string }[] };
      const images = [
        ...icons.map(([href]) => href),
        new URL(preview, location.href).href,
        ...parsed.icons.filter((i) => i.type === 'image/png').map((i) => new URL(i.src, manifest).href),
      ];
      const results = [];
      for (const url of images) {
        const { body, ...rest } = await get(url);
        results.push({ ...rest, decodes: url.endsWith('.svg') ? body.size > 0 : await decodes(body) });
      }
      const robotsResponse = await get(robots);
      return {
        images: results,
        manifest: { status: manifestResponse.status, type: manifestResponse.type, name: parsed.name, startUrl: parsed.start_url },
        robots: { status: robotsResponse.status, type: robotsResponse.type, text: await robotsResponse.body.text() },
      };
    },
    { ...linked, manifest: linked.manifest!, preview: linked.preview!, robots: `${served.url}robots.txt` },
  );
  expect(fetched.manifest).toEqual({
    status: 200,
    type: 'application/manifest+json',
    name: 'Lease Lab — claims, leases and fencing on real Postgres',
    startUrl: './',
  });
  for (const image of fetched.images) {
    expect(image, image.url).toMatchObject({ status: 200, type: image.url.endsWith('.svg') ? 'image/svg+xml' : 'image/png', decodes: true });
  }
  expect(fetched.images.map((i) => new URL(i.url).pathname.split('/').pop())).toEqual(expect.arrayContaining(['og-image.png', 'icon-192.png', 'icon-512.png']));
  expect(fetched.robots).toMatchObject({ status: 200, type: 'text/plain; charset=utf-8' });
  expect(fetched.robots.text).toContain('User-agent: *');
  expect(violations).toEqual([]);
});
