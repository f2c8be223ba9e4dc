import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { defineConfig, devices } from '@playwright/test';
// Specs import the lab's own modules (scenario lists, strategy labels), some of which import `file.sql?raw`
// as Vite does: the loader lets Playwright's Node read them too, in the runner and in every worker.
import './scripts/raw-loader.mjs';

/**
 * Browser tests in Debian's Chromium (no browser download) against the built app served by
 * `vite preview`. `npm test` builds first (scripts/test.sh).
 *
 * In its headless shell (Debian's chromium-headless-shell: the same Blink and V8 as its chromium, and
 * what Playwright itself runs headless). The full browser's headless mode opens a whole browser window
 * for each new context (toolbar, tab strip, address bar) and keeps a spare renderer process ready for
 * its next tab, none of which a test looks at. Measured with a process-tree CPU sampler on six lab
 * starts, each in a fresh context: Chromium's processes took ~20 s of CPU in the full browser (with
 * the features below off), ~16.6 s in the shell; the lab's worker and page the same.
 */
/**
 * Where the servers listen during the tests. E2E_PORT / E2E_DEV_PORT / E2E_DIST let several people (or
 * agents) run the browser tests side by side, each on its own build and ports.
 */
export const PREVIEW_PORT = Number(process.env.E2E_PORT ?? 4173);
export const DEV_PORT = Number(process.env.E2E_DEV_PORT ?? 5175);
export const BASE_URL = `http://127.0.0.1:${PREVIEW_PORT}`;
const DIST = process.env.E2E_DIST ?? 'dist';

/**
 * Chromium features the tests turn off on top of Playwright's own list, for a run in the full browser
 * (CHROMIUM_PATH=/usr/bin/chromium; the shell has no address bar). Each new browser context opens a
 * window of the full browser (Chromium's new headless mode), and the window builds its address bar's
 * drop-down in advance as a page of its own (chrome://omnibox-popup.top-chrome) in one more renderer
 * process: measured in a Chromium trace here, ~1–1.8 s of CPU per context beside the ~2.5 s the lab's own
 * page and its Postgres take, for a drop-down no test ever opens. The lab's page, its worker and V8
 * are untouched.
 */
const DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxFullPopup', 'WebUIOmniboxAimPopup'];

/**
 * Playwright's own `--disable-features` list. Chromium keeps only the last `--disable-features` on its
 * command line, so ours must carry Playwright's too (PaintHolding, HttpsUpgrades, …), read from the
 * installed Playwright rather than copied; a Playwright that no longer holds it where we look stops the
 * run here instead of silently dropping its list.
 */
function playwrightDisabledFeatures(): string[] {
  const bundle = readFileSync(createRequire(import.meta.url).resolve('playwright-core/lib/coreBundle'), 'utf8');
  const list = /\bdisabledFeatures = \[([^\]]*)\]/.exec(bundle)?.[1];
  const features = [...(list ?? '').matchAll(/^\s*"([A-Za-z0-9]+)",?\s*$/gm)].map((match) => match[1] ?? '');
  if (features.length === 0) throw new Error("playwright.config.ts: Playwright's --disable-features list was not found in playwright-core/lib/coreBundle.js");
  return features;
}

export default defineConfig({
  testDir: 'tests/e2e',
  // The README's screenshots are retaken by `npm run screenshots`, not by every test run (a CI clone is
  // thrown away with them).
  testIgnore: process.env.SCREENSHOTS ? [] : ['**/screenshots.spec.ts'],
  // Generous: Postgres starts in ~1–3 s, but a busy 2-core machine can take far longer.
  timeout: 180_000,
  expect: { timeout: 20_000 },
  // Tests, not files, are handed to the workers: whole files of different lengths (from 5 s to 4 min)
  // left one worker idle while the other finished the last long file. A file whose tests share costly
  // setup (analyze-parser's build, live's server) keeps them together with test.describe.configure.
  fullyParallel: true,
  // Each test is mostly one page starting Postgres: two at a time keep both cores busy.
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: BASE_URL,
    viewport: { width: 1280, height: 720 },
    // No trace unless asked for (E2E_TRACE=on keeps a failed test's DOM snapshots): recording one for every
    // test, passing or not, cost about an eighth of the suite's time on this 2-core machine. A failure
    // still saves its screenshot and the page's accessibility snapshot (error-context.md).
    trace: process.env.E2E_TRACE === 'on' ? { mode: 'retain-on-failure', screenshots: false, snapshots: true, sources: false } : 'off',
    // The offline copy (a service worker fetching the whole build after the first step can run) is
    // tested where it matters (deploy, origin); elsewhere it would only compete for the CPU.
    serviceWorkers: 'block',
    // No motion: the start's spinner (turning once a start takes 1.5 s, as it does on a busy machine) and
    // a busy Step button's stripes made the compositor draw every frame, ~0.3 s of CPU per start. No test
    // checks that they move; a learner who asks for reduced motion gets exactly this page.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 720 },
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium-headless-shell',
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-quic',
            '--no-first-run',
            '--disable-background-networking',
            '--disable-component-update',
            '--disable-sync',
            `--disable-features=${[...playwrightDisabledFeatures(), ...DISABLED_FEATURES].join(',')}`,
            // Compile each Postgres wasm function when first called: every test starts Postgres at least
            // once, and most of its 9 MB of functions never run. V8 does so by default in Chromium 156
            // (`--js-flags=--help`: default --wasm-lazy-compilation; with and without the flag, six starts
            // took the same CPU); it is named here so that a Chromium that turns it off does not quietly
            // compile all of them in every test.
            // Liftoff only: V8's baseline wasm compiler, with the same semantics as its optimising one
            // (TurboFan). By default V8 recompiles Postgres's hot functions with TurboFan in background
            // threads; a test's page lives seconds, too short to earn that back: measured on this 2-core
            // machine, the recompiling took ~1 s of CPU per 3 s of a test's steps, and a backpressure
            // simulation ran 3.5× slower beside it. Lab starts alone, each in a fresh context (six per
            // run, three runs alternating, CPU of Chromium's whole process tree): 21.4–21.9 s with V8's
            // defaults, 18.6–20.0 s with these flags, ~0.4 s less per start. The benchmarks keep V8's
            // default (bench/lib.ts). JavaScript's own tiers stay on: without Sparkplug, Maglev or
            // TurboFan, or with a larger young generation, six starts took no measurably less CPU.
            '--js-flags=--wasm-lazy-compilation --liftoff-only',
          ],
        },
      },
    },
  ],
  webServer: [
    {
      command: `npx vite preview --host 127.0.0.1 --port ${PREVIEW_PORT} --strictPort --outDir ${DIST}`,
      url: BASE_URL,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      // The development server, only for the StrictMode check (React runs effects twice there).
      command: `npx vite --host 127.0.0.1 --port ${DEV_PORT} --strictPort`,
      url: `http://127.0.0.1:${DEV_PORT}`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
  ],
});
