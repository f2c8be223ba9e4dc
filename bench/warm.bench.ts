/**
 * A returning learner: the built app loaded cold (a fresh browser profile), then again in the same
 * profile once its offline copy is saved (warm), each load's first Step click timed, beside the plain
 * `PGlite.create()` page (bench/pages/plain.html) loaded cold in the same run. Issue 36's targets are
 * ratios within one run, so a busy machine moves both sides alike.
 *   node --import tsx --import ./scripts/raw-loader.mjs bench/warm.bench.ts
 * BENCH_LOADS (default 5) rounds; each round is one plain load and one cold + one warm (+ one third) app load, each
 * in a browser profile of its own on disk (as a learner's is: the browser's compiled-code cache lives
 * there, and a throwaway in-memory context keeps less of it). The first Step is clicked at two moments,
 * each shown apart with the target beside it: at ready (BENCH_FIRST_CLICK_AFTER_MS, default 0: a learner
 * who clicks the moment Step is enabled, before any idle-time warm-up) and after a reading pause
 * (BENCH_READING_PAUSE_MS, default 2000: the idle-time work after ready has had its chance). Every warm
 * load clicks at ready; the cold and the third load take turns, round by round, at ready and after the
 * pause, so each moment has cold and warm loads in it. BENCH_DIR as in browser.bench.ts. BENCH_ENGINE_CPU=1: also
 * trace the engine worker's thread and show, cold → warm, where its own CPU time went until its files were
 * in (a figure a busy machine disturbs far less than wall time; the trace costs the loads a little).
 *
 * "Ready" is the page's `data-lab-ready` (the app's first step can run; the plain page's Postgres answered).
 * The app's engine worker leaves User Timing marks as its start goes (src/db/pglite-boot.ts,
 * src/webworker/engine.worker.ts): the table shows them for cold and warm loads side by side, so a change
 * in where the warm second goes is seen at once.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BrowserContext, type CDPSession, chromium, type Page, type Worker as PlaywrightWorker } from '@playwright/test';
import { precompress } from '../scripts/build-datadir-plugin.mjs';
import { startStaticServer } from '../scripts/serve-static';
import { CHROMIUM_ARGS, machineLine, median, ms, printTable, quantile, range, runsFromEnv, seconds, type Row } from './lib';
import { timeSteps } from './step-timing';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK_DIR = join(process.env.BENCH_DIR ? resolve(process.env.BENCH_DIR) : join(tmpdir(), 'lease-lab-bench'), 'warm');
const SITE = join(WORK_DIR, 'site');
const LOADS = runsFromEnv('BENCH_LOADS', 5);
const FIRST_CLICK_AFTER_MS = Number(process.env.BENCH_FIRST_CLICK_AFTER_MS ?? 0);
const READING_PAUSE_MS = Number(process.env.BENCH_READING_PAUSE_MS ?? 2000);
/** As browser.bench.ts: each profile's window opens on about:blank and settles before the timed navigation. */
const WINDOW_SETTLE_MS = Number(process.env.BENCH_WINDOW_SETTLE_MS ?? 1000);
/** After the copy is saved, the cold page stays open this long: V8 writes its code cache a couple of seconds after Postgres ran. */
const LINGER_MS = 4000;
const LOAD_TIMEOUT_MS = 180_000;
const MOUNT = '/any/sub/path/';

/** The targets. */
const TARGETS = { warmOfCold: 0.35, warmAbsoluteMs: 500, warmAbsoluteWhenColdUnderMs: 1500, coldOfPlain: 0.22, firstClickP95Ms: 100 };

/** The engine worker's marks, in the order a start passes them. */
const ENGINE_MARKS = ['engine-script', 'wasm-compiled', 'pglite-script', 'data-dir-read', 'files-in', 'postgres-started', 'lab-open', 'warmed-up'] as const;
type EngineMark = (typeof ENGINE_MARKS)[number];

interface FirstClick {
  /** Click → the timeline's marks changed. */
  ms: number;
  cold: boolean;
  /** When it was clicked, ms after ready. */
  afterReady: number;
}

interface Load {
  ready: number;
  engine: Partial<Record<EngineMark, number>>;
  /** Click → the timeline's marks changed, for the first click and the ones after it. */
  clicks: number[];
  /** When the first click came, ms after ready (the bench clicks as soon as it can after the moment it asked for). */
  firstClickAfterReady: number | null;
  /** What V8 did with PGlite's wasm during the load (and, for a cold load, the linger after it). */
  wasm: WasmTrace;
}

/**
 * V8's own trace events (category `v8.wasm`, cheap enough to leave on): whether the load started from
 * V8's code cache for PGlite's wasm (`wasm.Deserialize`), whether it wrote one (`wasm.SerializeModule`,
 * after TurboFan has optimized enough of it), and how many functions were compiled lazily, one at a time
 * on the engine worker's thread, as Postgres first ran them (`wasm.CompileLazy`).
 */
interface WasmTrace {
  deserializedMs: number | null;
  serialized: boolean;
  lazyCompiles: number;
  /** With BENCH_ENGINE_CPU=1: the engine worker thread's CPU time by phase, ms (see engineCpu). */
  engineCpu: Record<string, number> | null;
}

interface TraceEvent {
  name: string;
  cat?: string;
  ph?: string;
  ts?: number;
  dur?: number;
  /** The thread's CPU time during the event, µs. */
  tdur?: number;
  tid?: number;
  args?: { data?: { url?: string } };
}

const ENGINE_CPU = process.env.BENCH_ENGINE_CPU === '1';
/** Enough to see a worker thread's tasks and the marks, without the costly disabled-by-default ones. */
const ENGINE_CPU_CATEGORIES = 'v8.wasm,v8,devtools.timeline,loading,blink.user_timing';
const ENGINE_CPU_PHASES = [
  'compile the engine chunk',
  "compile PGlite's chunk",
  'evaluate modules',
  'wasm: bytes in, finish, deserialize',
  'data directory: inflate (+ JS run then)',
  'requests complete (+ JS run then)',
  'other',
  'total on CPU',
  'wall time',
] as const;

/** The phase an event's own CPU time belongs to. */
function enginePhase(event: TraceEvent): (typeof ENGINE_CPU_PHASES)[number] {
  const url = event.args?.data?.url ?? '';
  if (event.name === 'v8.compileModule') return url.includes('engine.worker') ? 'compile the engine chunk' : "compile PGlite's chunk";
  if (event.name === 'v8.evaluateModule') return 'evaluate modules';
  if (event.name.startsWith('wasm.')) return 'wasm: bytes in, finish, deserialize';
  if (event.name === 'DecompressionStream Inflate') return 'data directory: inflate (+ JS run then)';
  if (event.name === 'URLLoader::Context::OnCompletedRequest') return 'requests complete (+ JS run then)';
  return 'other';
}

/**
 * The engine worker thread's own CPU time (trace `tdur`, each event's minus its children's) from its first
 * task until its 'files-in' mark, by phase; and the wall time over the same span. Null if the marks are not
 * in the trace.
 */
function engineCpu(events: readonly TraceEvent[]): Record<string, number> | null {
  const started = events.find((event) => event.name === 'lease-lab:engine-script');
  const tid = started?.tid;
  const filesIn = events.find((event) => event.tid === tid && event.name === 'lease-lab:files-in')?.ts;
  if (tid === undefined || filesIn === undefined) return null;
  const tasks = events
    .filter((event) => event.tid === tid && event.ph === 'X' && event.ts !== undefined && event.ts < filesIn)
    .sort((a, b) => a.ts! - b.ts! || (b.dur ?? 0) - (a.dur ?? 0));
  const totals: Record<string, number> = Object.fromEntries(ENGINE_CPU_PHASES.map((phase) => [phase, 0]));
  const open: Array<{ end: number; phase: string; self: number }> = [];
  const close = (until: number) => {
    while (open.length > 0 && open.at(-1)!.end <= until) {
      const done = open.pop()!;
      totals[done.phase]! += done.self / 1000;
      totals['total on CPU']! += done.self / 1000;
    }
  };
  for (const event of tasks) {
    close(event.ts!);
    const cpu = event.tdur ?? 0;
    if (open.length > 0) open.at(-1)!.self -= cpu;
    // A child event with no phase of its own is counted with its parent's.
    const phase = enginePhase(event);
    open.push({ end: event.ts! + (event.dur ?? 0), phase: phase === 'other' && open.length > 0 ? open.at(-1)!.phase : phase, self: cpu });
  }
  close(Number.POSITIVE_INFINITY);
  totals['wall time'] = (filesIn - tasks[0]!.ts!) / 1000;
  return totals;
}

/** Starts recording V8's wasm events for a page (before it navigates); `stop` ends it and sums them up. */
async function traceWasm(context: BrowserContext, page: Page): Promise<{ stop: () => Promise<WasmTrace> }> {
  const cdp: CDPSession = await context.newCDPSession(page);
  const events: TraceEvent[] = [];
  cdp.on('Tracing.dataCollected', ({ value }) => events.push(...(value as unknown as TraceEvent[])));
  await cdp.send('Tracing.start', { categories: ENGINE_CPU ? ENGINE_CPU_CATEGORIES : 'v8.wasm', transferMode: 'ReportEvents' });
  return {
    stop: async () => {
      const complete = new Promise<void>((done) => cdp.once('Tracing.tracingComplete', () => done()));
      await cdp.send('Tracing.end');
      await complete;
      await cdp.detach().catch(() => undefined);
      const deserialized = events.filter((event) => event.name === 'wasm.Deserialize');
      return {
        deserializedMs: deserialized.length > 0 ? deserialized.reduce((sum, event) => sum + (event.dur ?? 0), 0) / 1000 : null,
        serialized: events.some((event) => event.name === 'wasm.SerializeModule'),
        lazyCompiles: events.filter((event) => event.name === 'wasm.CompileLazy').length,
        engineCpu: ENGINE_CPU ? engineCpu(events) : null,
      };
    },
  };
}

/** Records when the page says it is ready, before any page script runs. */
const INIT_SCRIPT = `(() => {
  globalThis.__name = globalThis.__name || ((fn) => fn);
  let settle;
  const b = (window.__bench = { ready: null, settled: new Promise((resolve) => (settle = resolve)) });
  const check = () => {
    const flag = document.documentElement.dataset.labReady;
    if (b.ready !== null || !flag) return;
    b.ready = flag === 'true' ? performance.now() : -1;
    observer.disconnect();
    settle();
  };
  const observer = new MutationObserver(check);
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['data-lab-ready'] });
})();`;

function build(config: string, outDir: string): void {
  execFileSync('npx', ['vite', 'build', '--config', config, '--outDir', outDir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
  precompress(outDir);
}

/** A browser with a profile of its own on disk: what a learner's browser is. */
async function freshProfile(): Promise<{ context: BrowserContext; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(WORK_DIR, 'profile-'));
  const context = await chromium.launchPersistentContext(dir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 720 },
    serviceWorkers: 'allow',
  });
  await context.addInitScript(INIT_SCRIPT);
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Navigates a settled window to `url` and returns when the page says it is ready (ms since navigation). */
async function load(
  context: BrowserContext,
  url: string,
  clicks: number,
  firstAfterMs = FIRST_CLICK_AFTER_MS,
): Promise<{ page: Page; result: Omit<Load, 'wasm'>; trace: { stop: () => Promise<WasmTrace> } }> {
  const page = await context.newPage();
  const trace = await traceWasm(context, page);
  const workers: PlaywrightWorker[] = [];
  page.on('worker', (worker) => workers.push(worker));
  if (WINDOW_SETTLE_MS > 0) {
    await page.goto('about:blank');
    await new Promise((settle) => setTimeout(settle, WINDOW_SETTLE_MS));
  }
  await page.goto(url, { waitUntil: 'commit' });
  // A function, not a string (the app's CSP forbids evaluating strings), and no waitForFunction (it
  // injects Playwright's selector engine into the page in the middle of the start).
  const ready = await page.evaluate((timeoutMs) => {
    const b = (window as unknown as { __bench: { ready: number | null; settled: Promise<void> } }).__bench;
    return Promise.race([b.settled.then(() => b.ready), new Promise<null>((done) => setTimeout(() => done(null), timeoutMs))]);
  }, LOAD_TIMEOUT_MS);
  if (ready === null || ready < 0) throw new Error(ready === null ? `not ready within ${LOAD_TIMEOUT_MS / 1000} s` : 'the page reported failure');
  // The clicks first, the worker's marks after (they stay in its timeline): nothing the bench does itself
  // comes between ready and a click asked for at ready. The click still comes only once the page's main
  // thread is free (the page's evaluate waits for it), as a learner's would be handled; the table shows when.
  const times = clicks > 0 ? await page.evaluate(timeSteps, { n: clicks, firstAfterMs }) : [];
  const engine = await engineMarks(page, workers);
  return { page, result: { ready, engine, clicks: times.map((time) => time.dom), firstClickAfterReady: times[0]?.afterReady ?? null }, trace };
}

/** The engine worker's start marks, moved to the page's time origin. */
async function engineMarks(page: Page, workers: readonly PlaywrightWorker[]): Promise<Load['engine']> {
  const engine = workers.find((worker) => worker.url().includes('engine.worker'));
  if (!engine) return {};
  const pageOrigin = await page.evaluate(() => performance.timeOrigin);
  // The marks may still be coming (the worker marks 'warmed-up' just before it says ready).
  const { origin, marks } = await engine.evaluate(() => ({
    origin: performance.timeOrigin,
    marks: performance.getEntriesByType('mark').map((mark) => [mark.name, mark.startTime] as const),
  }));
  const found: Load['engine'] = {};
  for (const name of ENGINE_MARKS) {
    const mark = marks.find(([markName]) => markName === `lease-lab:${name}`);
    if (mark) found[name] = origin + mark[1] - pageOrigin;
  }
  return found;
}

/** Waits until the page's offline copy is saved (the header says so), then lets V8 write its code cache. */
async function untilSaved(page: Page): Promise<void> {
  await page.locator('.offline-indicator', { hasText: 'Works offline' }).waitFor({ timeout: LOAD_TIMEOUT_MS });
  await new Promise((settle) => setTimeout(settle, LINGER_MS));
}

function timeRow(what: string, values: number[], target?: { label: string; ok: boolean }): Row {
  return {
    what,
    median: seconds(median(values)),
    range: range(values, (v) => (v / 1000).toFixed(2)),
    n: values.length,
    ...(target ? { target: target.label, ok: target.ok } : {}),
  };
}

function ratioRow(what: string, value: number, n: number, target: { label: string; ok: boolean }): Row {
  return { what, median: Number.isFinite(value) ? value.toFixed(2) : '—', range: '', n, target: target.label, ok: target.ok };
}

async function main(): Promise<void> {
  console.log(`\nLease Lab benchmark — a returning learner (headless Chromium, ${machineLine()})`);
  rmSync(WORK_DIR, { recursive: true, force: true });
  mkdirSync(SITE, { recursive: true });
  build('bench/vite.app.config.ts', join(SITE, 'app'));
  build('bench/vite.pages.config.ts', join(SITE, 'pages'));
  const server = await startStaticServer({ root: SITE, mount: MOUNT });
  const plain: number[] = [];
  const cold: Load[] = [];
  const warm: Load[] = [];
  /**
   * A third visit: Chromium caches a module script's compiled code on its second run, so PGlite's JavaScript
   * chunk (imported by the engine worker) compiles from that cache only from here on; the worker's own entry
   * script was compiled afresh on every visit in the traces.
   */
  const thirds: Omit<Load, 'wasm'>[] = [];
  const failures: string[] = [];
  /** Each load's first click, at ready or after the reading pause, with whether its load was cold. */
  const firstClicks = { atReady: [] as FirstClick[], afterReading: [] as FirstClick[] };
  const clicked = (result: Omit<Load, 'wasm'>, moment: keyof typeof firstClicks, cold: boolean) => {
    if (result.clicks[0] !== undefined) firstClicks[moment].push({ ms: result.clicks[0], cold, afterReady: result.firstClickAfterReady ?? Number.NaN });
  };
  try {
    for (let i = 0; i < LOADS; i++) {
      // Interleaved, so a burst of load on the machine hits every page alike.
      const baseline = await freshProfile();
      try {
        plain.push((await load(baseline.context, `${server.url}pages/plain.html`, 0)).result.ready);
      } catch (error) {
        failures.push(`plain: ${messageOf(error)}`);
      } finally {
        await baseline.close();
      }
      const learner = await freshProfile();
      // Round by round, the cold load or the third one reads first (the other clicks at ready).
      const coldReads = i % 2 === 1;
      try {
        const first = await load(learner.context, `${server.url}app/`, 1, coldReads ? READING_PAUSE_MS : FIRST_CLICK_AFTER_MS);
        await untilSaved(first.page);
        cold.push({ ...first.result, wasm: await first.trace.stop() });
        clicked(first.result, coldReads ? 'afterReading' : 'atReady', true);
        await first.page.close();
        const again = await load(learner.context, `${server.url}app/`, 4);
        warm.push({ ...again.result, wasm: await again.trace.stop() });
        clicked(again.result, 'atReady', false);
        await new Promise((settle) => setTimeout(settle, LINGER_MS));
        await again.page.close();
        const third = await load(learner.context, `${server.url}app/`, 1, coldReads ? FIRST_CLICK_AFTER_MS : READING_PAUSE_MS);
        await third.trace.stop();
        thirds.push(third.result);
        clicked(third.result, coldReads ? 'atReady' : 'afterReading', false);
      } catch (error) {
        failures.push(`app: ${messageOf(error)}`);
      } finally {
        await learner.close();
      }
    }
  } finally {
    await server.close();
  }
  for (const failure of failures) console.log(`!! ${failure}`);

  const coldReady = median(cold.map((l) => l.ready));
  const warmReady = median(warm.map((l) => l.ready));
  const plainReady = median(plain);
  const warmOfCold = warmReady / coldReady;
  const coldOfPlain = coldReady / plainReady;
  const warmTarget =
    coldReady <= TARGETS.warmAbsoluteWhenColdUnderMs ? Math.min(TARGETS.warmAbsoluteMs, TARGETS.warmOfCold * coldReady) : TARGETS.warmOfCold * coldReady;
  printTable(`Start: navigation → ready (${LOADS} rounds; each a fresh browser profile on disk, its window open ${WINDOW_SETTLE_MS} ms before)`, [
    timeRow('plain PGlite.create() page, cold (baseline)', plain),
    timeRow(
      'the app, cold (first visit)',
      cold.map((l) => l.ready),
    ),
    timeRow(
      'the app, warm (same profile, offline copy saved)',
      warm.map((l) => l.ready),
      {
        label: `≤ ${seconds(warmTarget)}`,
        ok: warmReady <= warmTarget,
      },
    ),
    ratioRow('warm ÷ cold, same run (medians)', warmOfCold, warm.length, { label: `≤ ${TARGETS.warmOfCold}`, ok: warmOfCold <= TARGETS.warmOfCold }),
    timeRow(
      'the app, third visit (PGlite’s JavaScript from the code cache too)',
      thirds.map((l) => l.ready),
    ),
    { what: '  third ÷ cold, same run (medians)', median: (median(thirds.map((l) => l.ready)) / coldReady).toFixed(2), range: '', n: thirds.length },
    ratioRow('cold ÷ plain, same run (medians)', coldOfPlain, cold.length, { label: `≤ ${TARGETS.coldOfPlain}`, ok: coldOfPlain <= TARGETS.coldOfPlain }),
  ]);

  const markRows: Row[] = ENGINE_MARKS.map((name) => {
    const of = (loads: Load[]) => loads.map((l) => l.engine[name]).filter((v): v is number => v !== undefined);
    return {
      what: `  engine worker: navigation → ${name}`,
      median: `${seconds(median(of(cold)))} → ${seconds(median(of(warm)))}`,
      range: '',
      n: of(warm).length,
    };
  });
  printTable('Where the start goes, cold → warm (medians; marks: src/db/pglite-boot.ts, src/webworker/engine.worker.ts)', markRows, { median: 'cold → warm' });

  const deserialized = warm.map((l) => l.wasm.deserializedMs).filter((v): v is number => v !== null);
  printTable("V8's code cache for PGlite's wasm (trace category v8.wasm)", [
    {
      what: 'cold loads that wrote a code cache (wasm.SerializeModule, within the linger)',
      median: `${cold.filter((l) => l.wasm.serialized).length} of ${cold.length}`,
      range: '',
    },
    { what: 'warm loads that started from it (wasm.Deserialize)', median: `${deserialized.length} of ${warm.length}`, range: '' },
    { what: '  deserializing it', median: ms(median(deserialized), 1), range: range(deserialized, (v) => v.toFixed(0)), n: deserialized.length },
    {
      what: 'functions compiled lazily on the engine thread, cold → warm',
      median: `${median(cold.map((l) => l.wasm.lazyCompiles))} → ${median(warm.map((l) => l.wasm.lazyCompiles))}`,
      range: '',
      n: warm.length,
    },
  ]);

  if (ENGINE_CPU) {
    const of = (loads: Load[], phase: string) => loads.map((l) => l.wasm.engineCpu?.[phase]).filter((v): v is number => v !== undefined);
    printTable(
      "The engine worker's thread from its first task until its files are in: its own CPU time by phase, cold → warm (trace tdur, medians)",
      ENGINE_CPU_PHASES.map((phase) => ({
        what: `  ${phase}`,
        median: `${ms(median(of(cold, phase)), 0)} → ${ms(median(of(warm, phase)), 0)}`,
        range: '',
        n: of(warm, phase).length,
      })),
      { median: 'cold → warm' },
    );
  }

  const later = warm.flatMap((l) => l.clicks.slice(1));
  const momentRows = (label: string, clicks: readonly FirstClick[], withWait = false): Row[] => {
    const all = clicks.map((c) => c.ms);
    const waits = clicks.map((c) => c.afterReady + c.ms);
    const p95 = quantile(all, 0.95);
    const of = (cold: boolean) => clicks.filter((c) => c.cold === cold).map((c) => c.ms);
    return [
      {
        what: label,
        median: ms(median(all), 1),
        p95: ms(p95, 1),
        range: range(all, (v) => v.toFixed(0)),
        n: all.length,
        target: `p95 ≤ ${TARGETS.firstClickP95Ms} ms`,
        ok: p95 <= TARGETS.firstClickP95Ms,
      },
      { what: '  of which cold loads', median: ms(median(of(true)), 1), range: range(of(true), (v) => v.toFixed(0)), n: of(true).length },
      { what: '  of which warm loads', median: ms(median(of(false)), 1), range: range(of(false), (v) => v.toFixed(0)), n: of(false).length },
      {
        what: '  clicked after ready (ms)',
        median: ms(median(clicks.map((c) => c.afterReady)), 0),
        range: range(
          clicks.map((c) => c.afterReady),
          (v) => v.toFixed(0),
        ),
        n: clicks.length,
      },
      // A learner who clicked at the very moment of ready waits for the main thread too (input delay), which
      // the click's own figure leaves out: ready → drawn counts it (and the bench's round trip, a few ms).
      ...(withWait
        ? [
            {
              what: '  ready → drawn (the wait of a click at the moment of ready, input delay included)',
              median: ms(median(waits), 1),
              p95: ms(quantile(waits, 0.95), 1),
              range: range(waits, (v) => v.toFixed(0)),
              n: waits.length,
              target: `p95 ≤ ${TARGETS.firstClickP95Ms} ms`,
              ok: quantile(waits, 0.95) <= TARGETS.firstClickP95Ms,
            },
          ]
        : []),
    ];
  };
  printTable('First click: Step → new mark in the timeline (each load clicks once, at one of the two moments)', [
    ...momentRows(`first Step at ready (asked for ${FIRST_CLICK_AFTER_MS} ms after)`, firstClicks.atReady, true),
    ...momentRows(`first Step after a ${READING_PAUSE_MS} ms reading pause`, firstClicks.afterReading),
    {
      what: 'later Steps (warm loads)',
      median: ms(median(later), 1),
      p95: ms(quantile(later, 0.95), 1),
      range: range(later, (v) => v.toFixed(0)),
      n: later.length,
    },
  ]);
  console.log(`\n(${machineLine()})`);
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message.split('\n')[0]! : String(error);
}

await main();
