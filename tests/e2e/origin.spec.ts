/**
 * The app talks to no one but its own origin, and its Content-Security-Policy holds: a learner's walk
 * (load, the naive race, the SQL console, the lesson, a PNG export) on the built app, served the way
 * a production host would (scripts/serve-static.ts: the page's policy also as a header, so the engine's
 * Web Worker and the service worker run under it too). Every request of the page, its workers and the
 * service worker is recorded; any other origin fails the test, and so does any policy violation the
 * page reports. (A worker's violations do not reach the page; under this policy they would stop
 * Postgres or the service worker, which the walk and its "Works offline" check would notice.)
 */
import type { BrowserContext, Page } from '@playwright/test';
import { startStaticServer, type StaticServer } from '../../scripts/serve-static';
import { expect, offlineCopySaved, outcome, stepTimes, test, waitReady } from './fixtures';
import { showAllControls } from './disclosure';

const DIST = process.env.E2E_DIST ?? 'dist';
let served: StaticServer;

// The offline copy's requests are part of what this walk checks.
test.use({ serviceWorkers: 'allow' });

test.beforeAll(async () => {
  served = await startStaticServer({ root: DIST, mount: '/lease-lab/' });
});
test.afterAll(async () => {
  await served?.close();
});

/** Every URL the browser asked for, from any page, worker or service worker of the context. */
function recordRequests(context: BrowserContext): string[] {
  const urls: string[] = [];
  context.on('request', (request) => urls.push(request.url()));
  return urls;
}

/** Records the page's securitypolicyviolation events. */
async function recordViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.effectiveDirective} refused ${event.blockedURI || 'inline'}`));
  });
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations);
}

/** Requests that left the page's origin: anything but http(s) on this host and port, or a local data: / blob: URL. */
function foreign(urls: string[], origin: string): string[] {
  return urls.filter((url) => {
    if (url.startsWith('data:')) return false;
    return new URL(url).origin !== origin;
  });
}

test('a learner walk requests nothing outside its own origin and breaks no Content-Security-Policy rule', async ({ page, context }) => {
  const requests = recordRequests(context);
  const violations = await recordViolations(page);
  const consoleText: string[] = [];
  page.on('console', (message) => consoleText.push(message.text()));

  await page.goto(`${served.url}#scenario=race&strategy=naive&fencing=off&schedule=&step=0`);
  await waitReady(page);
  await stepTimes(page, 6);
  await expect(outcome(page)).toContainText('executed by both A and B');

  await page.getByText('SQL console', { exact: true }).click();
  await page.getByRole('textbox', { name: 'SQL console' }).fill('SELECT * FROM runs ORDER BY run_id');
  await page.getByRole('textbox', { name: 'SQL console' }).press('Control+Enter');
  await expect(page.getByRole('region', { name: 'Console result', exact: true }).getByRole('table')).toContainText('123');

  await page.getByRole('button', { name: 'Lesson ↓' }).click();
  const lesson = page.getByRole('region', { name: 'Lesson', exact: true });
  await lesson.getByRole('tab', { name: 'Quiz', exact: true }).click();
  await expect(lesson.getByRole('tabpanel').locator('section.ll-question h3')).toContainText('Question 1 of');

  // The PNG export draws the timeline's SVG through a blob: image: the policy's img-src must allow it.
  await showAllControls(page);
  await page.locator('summary', { hasText: 'Export' }).click();
  const [png] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Timeline as PNG' }).click()]);
  expect(png.suggestedFilename()).toMatch(/\.png$/);

  // The service worker fetches its copy of the app in the walk's first pause: all of it, before the requests are read.
  await offlineCopySaved(page);

  const origin = new URL(served.url).origin;
  // The recording sees what the workers fetch: PGlite's wasm (the engine's worker), sw.js and the
  // files the service worker saves (it fetches index.html itself; the page never does by that name).
  expect(requests.some((url) => /\/assets\/pglite-[\w-]+\.wasm$/.test(url))).toBe(true);
  expect(requests.filter((url) => /\/(sw\.js|index\.html)$/.test(url)).length).toBeGreaterThanOrEqual(2);
  expect(foreign(requests, origin), 'requests outside the page origin').toEqual([]);
  expect(await violations(), 'securitypolicyviolation events').toEqual([]);
  expect(consoleText.filter((text) => /Content Security Policy|Refused to/i.test(text))).toEqual([]);
});
