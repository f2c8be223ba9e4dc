// PostgreSQL's parser in Chromium: the analyzer's chunk and its wasm are fetched only when a statement is
// first analyzed (never by the page's first load), and they parse and analyze under the app's CSP. The
// page is tests/e2e/analyze-page, built here with Vite the way the app is (the app itself does not use
// the analyzer yet).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { build } from 'vite';
import { type StaticServer, startStaticServer } from '../../scripts/serve-static';

let outDir: string;
let site: StaticServer;

// Both tests read the one page built in beforeAll: one worker builds it, once.
test.describe.configure({ mode: 'default' });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  outDir = mkdtempSync(join(tmpdir(), 'analyze-page-'));
  await build({ configFile: resolve(import.meta.dirname, 'analyze-page/vite.config.ts'), build: { outDir } });
  site = await startStaticServer({ root: outDir, port: 0, precompressed: false });
});

test.afterAll(async () => {
  await site?.close();
  if (outDir) rmSync(outDir, { recursive: true, force: true });
});

test('the build puts the parser in chunks of its own, and the entry does not import them', () => {
  const assets = readdirSync(join(outDir, 'assets'));
  const wasm = assets.filter((name) => /^libpg-query.*\.wasm$/.test(name));
  expect(wasm).toHaveLength(1);
  const html = readFileSync(join(outDir, 'index.html'), 'utf8');
  const entry = /src="\.\/assets\/([^"]+\.js)"/.exec(html)?.[1];
  expect(entry).toBeTruthy();
  const entryCode = readFileSync(join(outDir, 'assets', entry!), 'utf8');
  expect(entryCode).not.toContain(wasm[0]);
  expect(entryCode).not.toContain('wasm_parse_query_raw');
  expect(html).not.toMatch(/modulepreload[^>]*(analyze|libpg)/);
});

test('the first load fetches no parser; analyzing fetches it once and gives shapes, syntax errors and refusals', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(site.url);
  await expect(page.locator('#analyze')).toBeVisible();
  await page.waitForLoadState('networkidle');
  expect(requested.filter((path) => /\.wasm$/.test(path))).toEqual([]);
  const beforeClick = requested.length;

  await page.locator('#analyze').click();
  await expect(page.locator('#out')).not.toBeEmpty({ timeout: 60_000 });
  const result = JSON.parse((await page.locator('#out').textContent()) ?? '{}');
  expect(result.failed).toBeUndefined();
  expect(result.good.ok).toBe(true);
  expect(result.good.shape.locks[0]).toMatchObject({ strength: 'update', wait: 'skip locked', where: { kind: 'cte', name: 'candidate' } });
  expect(result.good.shape.probe.text).toMatch(/FOR NO KEY UPDATE OF runs NOWAIT$/);
  expect(result.broken).toMatchObject({ ok: false, error: { kind: 'syntax', message: 'syntax error at or near "WERE"', line: 3, column: 1 } });
  expect(result.refused).toMatchObject({ ok: false, error: { kind: 'refused', refusal: { id: 'isolation' } } });
  const afterClick = requested.slice(beforeClick);
  expect(afterClick.filter((path) => /libpg-query.*\.wasm$/.test(path))).toHaveLength(1);
  expect(errors).toEqual([]);
});
