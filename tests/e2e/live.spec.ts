/**
 * Live mode: the same lab on a real PostgreSQL server through the bridge (npm run live). A throwaway
 * PostgreSQL is started, the bridge is started against it as the learner would start it (serving this
 * run's build on a free port), and the app is driven through it: real double execution, a fenced stale
 * write, a real lock wait proven by pg_locks, Back and links, and the fall back to PGlite when the bridge
 * goes away.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import type { Page } from '@playwright/test';
import pg from 'pg';
import { freePort, type PostgresServer, startPostgresServer } from '../support/postgres-server';
import { expect, notices, outcome, slider, stepTimes, stepToEnd, test, waitReady } from './fixtures';

const DIST = process.env.E2E_DIST ?? 'dist';

let server: PostgresServer;
let bridge: ChildProcess;
let bridgeUrl: string;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(90_000);
  server = await startPostgresServer('lease_lab_live');
  const port = await freePort();
  bridge = spawn('node', ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', 'scripts/live.ts', '--port', String(port), '--dist', DIST, server.url], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  bridgeUrl = await new Promise<string>((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`the bridge did not start:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /Open (http:\/\/\S+)/.exec(output)?.[1];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    bridge.stdout?.on('data', read);
    bridge.stderr?.on('data', read);
    bridge.once('exit', (code) => reject(new Error(`the bridge exited with ${code}:\n${output}`)));
  });
});

test.afterAll(async () => {
  await stopBridge();
  await server?.stop();
});

async function stopBridge(): Promise<void> {
  if (!bridge || bridge.exitCode !== null) return;
  const exited = new Promise((resolve) => bridge.once('exit', resolve));
  bridge.kill('SIGTERM');
  await exited;
}

async function openLive(page: Page, fragment: string): Promise<void> {
  await page.goto(`${bridgeUrl}#${fragment}`);
  await waitReady(page);
  await expect(page.locator('.banner-live')).toContainText(/Live: PostgreSQL 1\d\.\d+ at 127\.0\.0\.1:\d+\/lease_lab_live/);
}

const details = (page: Page) => page.getByRole('complementary', { name: 'Selected step' });

/** A link opened in the same tab: the app replays its schedule (here, on the live server). */
async function followLink(page: Page, fragment: string): Promise<void> {
  await page.evaluate((hash) => {
    window.location.hash = hash;
  }, fragment);
  await expect(page).toHaveURL(new RegExp(`scenario=${/scenario=([a-z-]+)/.exec(fragment)?.[1]}`));
}

test('the naive race and the paused worker with fencing run on the real server', async ({ page }) => {
  await openLive(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
  await stepTimes(page, 6);
  await expect(outcome(page)).toContainText('Run 123 was executed by both A and B');
  await expect(details(page)).not.toContainText('How PGlite did this');
  // The explorer says that its counts come from PGlite, not from the live server.
  await expect(page.locator('.explorer-live-note')).toContainText('exploring runs on PGlite in this tab');

  // A link: its schedule is replayed on the server, and the stale write meets the fence there.
  await followLink(page, 'scenario=paused-worker&strategy=skip-locked&fencing=on&schedule=A,A,A,+10,+51,B,B,B,+40,A,B');
  await stepToEnd(page);
  await expect(outcome(page)).toContainText("A's write was rejected: it holds generation 18, the run is at 19");
});

test('a server restart: the page says the bridge is reconnecting and what happens if it cannot, then clears it, and the lab goes on live', async ({ page }) => {
  test.setTimeout(120_000);
  await openLive(page, 'scenario=race&strategy=naive&fencing=off&schedule=&step=0');
  await stepTimes(page, 2);
  const banner = page.locator('.banner-live');
  await expect(banner).toContainText('Every step runs on this server');
  server.pause();
  try {
    await expect(banner.locator('.banner-reconnecting')).toContainText('Reconnecting…', { timeout: 30_000 });
    await expect(banner).toContainText('your next step runs on PGlite in this tab');
  } finally {
    server.resume();
  }
  await expect(banner.locator('.banner-reconnecting')).toHaveCount(0, { timeout: 30_000 });
  await expect(banner).toContainText('Every step runs on this server');
  // Still live: the next step runs on the restarted server, and nothing fell back to PGlite.
  await stepTimes(page, 1);
  await expect(slider(page)).toHaveValue('3');
  await expect(page.locator('.banner-warning')).toHaveCount(0);
  await expect(notices(page)).not.toContainText('went back to PGlite');
});

test('plain FOR UPDATE really waits, pg_locks proves it, a link replays it, and a lost bridge falls back to PGlite', async ({ page, allowedProblems }) => {
  await openLive(page, 'scenario=lock-wait&strategy=for-update&fencing=on&schedule=&step=0');
  await stepTimes(page, 2);
  await expect(details(page)).toContainText('Blocked, waiting for A');
  const waiting = page.getByRole('region', { name: 'pg_locks evidence' }).locator('tr.waiting');
  await expect(waiting).toContainText(/B\s*\d+\s*transactionid \d+\s*ShareLock\s*false/);
  await expect(page.getByRole('region', { name: 'pg_locks evidence' })).toContainText('ExclusiveLock');

  // The waiting statement is really in flight: any other session sees it in pg_locks.
  const waiters = () =>
    withClient(server.url, (client) =>
      client.query<{ application_name: string }>(
        'SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a USING (pid) WHERE NOT l.granted AND a.datname = current_database()',
      ),
    );
  expect((await waiters()).rows.map((r) => r.application_name)).toEqual(['lease_lab_B']);

  // Back, then the same view from a link: the schedule is replayed on the server and the wait is real again.
  await page.getByRole('button', { name: 'Back', exact: true }).click();
  await expect(slider(page)).toHaveValue('1');
  await followLink(page, 'scenario=lock-wait&strategy=for-update&fencing=off&schedule=A,B&step=1');
  await expect(slider(page)).toHaveValue('1');
  await stepTimes(page, 1);
  await expect(waiting).toContainText('false');
  expect((await waiters()).rows.map((r) => r.application_name)).toEqual(['lease_lab_B']);

  // The bridge goes away: the next step runs on PGlite, from the same place. Requests to the vanished
  // origin (the worker's, the service worker's update check, retries) fail in the browser's own log from
  // now until the page closes, as expected here.
  allowedProblems.push(/ERR_CONNECTION_REFUSED|Failed to load resource|error occurred when fetching the script/);
  await stopBridge();
  await stepTimes(page, 1);
  await expect(notices(page)).toContainText('went back to PGlite');
  await expect(notices(page)).toContainText('you are where you were');
  await expect(page.locator('.banner-warning')).toContainText('Not live: running on PGlite');
  await expect(details(page)).toContainText('A committed its claim of run 123');
  await stepTimes(page, 1);
  await expect(details(page)).toContainText('B now owns run 124');

  // The bridge dropped its schema when it stopped.
  const left = await withClient(server.url, (client) => client.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'lease_lab'`));
  expect(left.rowCount).toBe(0);
});

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
