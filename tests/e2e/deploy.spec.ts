/**
 * Ship it anywhere: the built app, served from a sub-path by the project's plain static server, saves
 * itself for offline use on the first visit, and after the network is gone (the browser offline and
 * the server stopped) a reload still starts Postgres and runs the naive race.
 */
import { startStaticServer, type StaticServer } from '../../scripts/serve-static';
import { expect, outcome, stepTimes, test, waitReady } from './fixtures';

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
  const indicator = page.locator('.offline-indicator');

  await page.goto(`${served.url}#scenario=race&strategy=naive&fencing=off&schedule=&step=0`);
  await waitReady(page);
  // The service worker saves the app once Postgres is up; the header says so when it is done.
  await expect(indicator).toHaveText(/Works offline/);

  // No network at all: the browser is offline, and the server is gone too.
  await served.close();
  served = null;
  await context.setOffline(true);
  await expect(indicator).toHaveText('Working offline');

  await page.reload();
  await waitReady(page);
  expect(await page.evaluate(() => navigator.serviceWorker.controller !== null)).toBe(true);
  await expect(indicator).toHaveText('Working offline');
  await stepTimes(page, 2);
  await expect(outcome(page)).toContainText('B read run 123 as pending');
  await stepTimes(page, 4);
  await expect(outcome(page)).toContainText('Run 123 was executed by both A and B');
});
