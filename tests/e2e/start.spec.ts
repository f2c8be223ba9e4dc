/**
 * `npm start` serves what we ship: the built app from dist/, by the project's own static server, with
 * the Content-Security-Policy header and pre-compressed files, and says where in one line.
 */
import { readdirSync } from 'node:fs';
import { freePort, type StartedApp, startApp } from '../../scripts/start-process';
import { expect, outcome, stepTimes, test, waitReady } from './fixtures';

let app: StartedApp | null = null;
test.afterEach(() => {
  app?.stop();
  app = null;
});

test('npm start serves the built app with its security headers, and the race runs there', async ({ page }) => {
  const port = await freePort();
  app = await startApp({ port, timeoutMs: 170_000 });
  const { url } = app;
  const output = app.output();
  expect(url).toBe(`http://127.0.0.1:${port}/`);
  // Nothing but the build's one progress line (when it had to build) and the URL: no warnings.
  expect(
    output
      .trim()
      .split('\n')
      .filter((line) => !/^lease-lab: (building the app|installing npm)/.test(line)),
  ).toEqual([expect.stringMatching(/^Lease Lab is at /)]);

  const response = await page.goto(url);
  // Any page may frame the static lab (?embed); live mode never (tests/unit/live-bridge.test.ts).
  expect(response?.headers()['content-security-policy']).toContain('frame-ancestors *');
  // The built page, not the dev server: no Vite client, hashed assets, Postgres served pre-compressed.
  const html = await response!.text();
  expect(html).not.toContain('/@vite/client');
  expect(html).toMatch(/assets\/index-[\w-]+\.js/);
  await waitReady(page);
  const wasm = readdirSync('dist/assets').find((name) => /^pglite-[\w-]+\.wasm$/.test(name));
  expect(wasm).toBeDefined();
  const compressed = await page.request.get(`${url}assets/${wasm}`, { headers: { 'Accept-Encoding': 'br, gzip' } });
  expect(compressed.headers()['content-encoding']).toBe('br');
  expect(compressed.headers()['content-type']).toBe('application/wasm');
  await stepTimes(page, 2);
  await expect(outcome(page)).toContainText('B read run 123 as pending');
});
