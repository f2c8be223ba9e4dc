/**
 * The backpressure lab's figures (npm run bench -- backpressure):
 *  - Node: simulated steps per second for 1,000 runs with 8 workers on PGlite (every step real SQL),
 *    the median of a few whole simulations, beside the cost of a bare `SELECT 1` on the same machine at
 *    the same moment (the load moves both).
 *  - Headless Chromium: frame times while panning and zooming the charts with 10,000 seconds per lane
 *    (bench/pages/backpressure.html: two lanes, four charts each, the real chart code), the time to
 *    redraw all eight charts, and the memory of the tab with the backpressure view open on the built app.
 * BENCH_BP_RUNS (default 1000) changes the run count, BENCH_BP_REPEATS (default 3) the simulations
 * timed; BENCH_BP_PARTS=node,browser picks halves.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from '@playwright/test';
import { bootLab } from '../src/db/pglite-boot';
import { PGliteBackpressure } from '../src/db/pglite-backpressure';
import { playBackpressure } from '../src/engine/backpressure';
import { findPreset } from '../src/sim/backpressure/presets';
import type { BackpressureConfig, LaneResult } from '../src/sim/backpressure/types';
import { startStaticServer } from '../scripts/serve-static';
import { CHROMIUM_ARGS, machineLine, median, ms, printTable, quantile, runsFromEnv, type Row } from './lib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SITE = join(tmpdir(), 'lease-lab-bench-backpressure');
const RUNS = runsFromEnv('BENCH_BP_RUNS', 1000);
const REPEATS = runsFromEnv('BENCH_BP_REPEATS', 3);
const PARTS = (process.env.BENCH_BP_PARTS ?? 'node,browser').split(',');

/** 1,000 runs from three tenants, 8 workers, every limit on: the claim, call and answer statements all run. */
export function benchConfig(runs: number): BackpressureConfig {
  const overload = findPreset('overload')!.config;
  return {
    ...overload,
    workers: 8,
    streamRuns: runs,
    arrivalsPerSecond: 2,
    maxActiveRuns: 8,
    maxActivePerTenant: 4,
    maxCallsInFlight: 6,
    maxCostPerRunCents: 40,
  };
}

async function nodeHalf(): Promise<void> {
  const boot = await bootLab();
  const db = await PGliteBackpressure.open(boot.db.pg);
  const selects: number[] = [];
  for (let i = 0; i < 300; i++) {
    const began = performance.now();
    await boot.db.pg.query('SELECT 1');
    selects.push(performance.now() - began);
  }
  const config = benchConfig(RUNS);
  const rates: number[] = [];
  const cpuRates: number[] = [];
  const walls: number[] = [];
  let lane: LaneResult | null = null;
  for (let i = 0; i < REPEATS; i++) {
    const began = performance.now();
    const cpu = process.cpuUsage();
    lane = await playBackpressure(db, config, 'fair');
    const wall = performance.now() - began;
    const used = process.cpuUsage(cpu);
    walls.push(wall);
    rates.push((lane.steps / wall) * 1000);
    cpuRates.push(lane.steps / ((used.user + used.system) / 1e6));
  }
  await db.close();
  const played = lane!;
  const perSecond = median(rates);
  const range = (values: number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
  const rows: Row[] = [
    {
      what: `simulated steps per second (${RUNS} runs, 8 workers, fair claim)`,
      median: perSecond.toFixed(0),
      range: range(rates),
      n: `${REPEATS} × ${played.steps}`,
      target: '≥ 2,000 steps/s',
      ok: perSecond >= 2000,
    },
    { what: "the same per second of this process's CPU", median: median(cpuRates).toFixed(0), range: range(cpuRates) },
    { what: 'simulated runs per second', median: ((played.totalRuns / median(walls)) * 1000).toFixed(1), n: played.totalRuns },
    { what: 'one whole simulation (wall)', median: `${(median(walls) / 1000).toFixed(1)} s`, n: `${played.ticks.length} simulated s` },
    { what: 'one bare SELECT 1 on the same PGlite (for scale)', median: ms(median(selects), 3), p95: ms(quantile(selects, 0.95), 3), n: selects.length },
  ];
  printTable(`Backpressure engine in Node (PGlite) — ${machineLine()}`, rows);
  console.log(
    "A step is one worker's turn, one transaction: a claim (the claim lock, then the claim), starting a model call (the call lock, then the start) or writing a call's answer (one UPDATE). " +
      `Each simulated second goes to PGlite as one batch: the arrivals, every worker's transaction, and one query measuring the table. Finished: ${played.finished}.`,
  );
}

function build(outDir: string, root: string, input?: string): void {
  const script = `
    import { build } from 'vite';
    import react from '@vitejs/plugin-react';
    await build({
      configFile: ${input ? 'false' : JSON.stringify(join(ROOT, 'vite.config.ts'))},
      root: ${JSON.stringify(root)},
      base: './',
      logLevel: 'error',
      ${input ? "plugins: [react()], worker: { format: 'es' }," : ''}
      build: { outDir: ${JSON.stringify(outDir)}, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 20000 ${input ? `, rollupOptions: { input: ${JSON.stringify(input)} }` : ''} },
    });`;
  execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
}

/**
 * Resident memory (from /proc) of the tab's renderer process: the page, its Web Workers and their wasm
 * all live in it. Chromium runs other renderers beside it that are not the tab: its own UI (headless
 * Chromium's top-chrome WebUI) and a spare, idle renderer kept warm for the next site. The tab's is the
 * remaining one that has done the work (the most CPU time); the others are reported apart.
 */
async function tabMemory(browser: Browser): Promise<{ tab: number; others: number }> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: { type: string; id: number; cpuTime: number }[] };
  await cdp.detach();
  const renderers: { rss: number; cpu: number; webui: boolean }[] = [];
  for (const { id, cpuTime } of processInfo.filter((p) => p.type === 'renderer')) {
    try {
      const rss = Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${id}/status`, 'utf8'))?.[1] ?? 0) * 1024;
      renderers.push({ rss, cpu: cpuTime, webui: readFileSync(`/proc/${id}/cmdline`, 'utf8').includes('--top-chrome-webui') });
    } catch {
      // The process ended while we looked.
    }
  }
  const candidates = renderers.filter((r) => !r.webui).sort((a, b) => b.cpu - a.cpu);
  const tab = candidates[0]?.rss ?? Number.NaN;
  return { tab, others: renderers.reduce((sum, r) => sum + r.rss, 0) - (Number.isNaN(tab) ? 0 : tab) };
}

async function pan(page: Page): Promise<{ frames: number[]; longTasks: number }> {
  const box = (await page.locator('canvas').first().boundingBox())!;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width / 2, y);
  // Zoom in (the full range cannot pan), then drag back and forth.
  for (let i = 0; i < 6; i++) await page.mouse.wheel(0, -300);
  await page.evaluate(() => {
    const w = window as unknown as { __stop: () => number[]; benchBackpressure: { recordFrames: () => () => number[] }; __long: number };
    w.__long = 0;
    new PerformanceObserver((list) => {
      w.__long += list.getEntries().length;
    }).observe({ type: 'longtask' });
    w.__stop = w.benchBackpressure.recordFrames();
  });
  for (let pass = 0; pass < 6; pass++) {
    await page.mouse.move(box.x + box.width * 0.8, y);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.2, y, { steps: 40 });
    await page.mouse.up();
    await page.mouse.wheel(0, pass % 2 === 0 ? 200 : -200);
  }
  return page.evaluate(() => {
    const w = window as unknown as { __stop: () => number[]; __long: number };
    return { frames: w.__stop(), longTasks: w.__long };
  });
}

async function browserHalf(): Promise<void> {
  const pagesDir = join(SITE, 'pages');
  const appDir = join(SITE, 'app');
  build(pagesDir, join(ROOT, 'bench/pages'), join(ROOT, 'bench/pages/backpressure.html'));
  build(appDir, ROOT);
  const server = await startStaticServer({ root: SITE, mount: '/' });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${server.url}pages/backpressure.html`);
    await page.waitForFunction(() => document.documentElement.dataset.benchReady === 'true', undefined, { timeout: 120_000 });
    await page.waitForTimeout(500);
    const redraws = await page.evaluate(() =>
      (window as unknown as { benchBackpressure: { timeRedraws: (n: number) => number[] } }).benchBackpressure.timeRedraws(60),
    );
    const { frames, longTasks } = await pan(page);
    await page.close();

    const app = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await app.goto(`${server.url}app/#backpressure&preset=starvation`);
    await app.locator('output.bp-clock').filter({ hasNotText: '…' }).waitFor({ timeout: 300_000 });
    await app.waitForTimeout(1000);
    const cdp = await app.context().newCDPSession(app);
    await cdp.send('Performance.enable');
    const metrics = (await cdp.send('Performance.getMetrics')).metrics;
    const heap = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? Number.NaN;
    // Only the app's tab is open now: the bench page was closed.
    const memory = await tabMemory(browser);
    const rows: Row[] = [
      {
        what: 'frame interval while panning and zooming (10,000 s per lane, 8 charts)',
        median: ms(median(frames), 1),
        p95: ms(quantile(frames, 0.95), 1),
        n: frames.length,
        target: 'p95 ≤ 20 ms',
        ok: quantile(frames, 0.95) <= 20,
      },
      { what: 'long tasks (> 50 ms) while panning', median: String(longTasks) },
      { what: 'redrawing all 8 charts once (off screen, 600 px wide)', median: ms(median(redraws), 2), p95: ms(quantile(redraws, 0.95), 2), n: redraws.length },
      {
        what: "tab memory: its renderer's RSS, backpressure view done (one Postgres, the race lab's)",
        median: `${(memory.tab / 2 ** 20).toFixed(0)} MiB`,
        target: '≤ 400 MB',
        ok: memory.tab <= 400e6,
      },
      { what: "other renderers, not the tab (Chromium's UI, a spare)", median: `${(memory.others / 2 ** 20).toFixed(0)} MiB` },
      { what: 'main thread JS heap of that tab', median: `${(heap / 2 ** 20).toFixed(1)} MiB` },
    ];
    printTable(`Backpressure charts in headless Chromium — ${machineLine()}`, rows);
  } finally {
    await browser.close();
    await server.close();
  }
}

if (PARTS.includes('node')) await nodeHalf();
if (PARTS.includes('browser')) await browserHalf();
