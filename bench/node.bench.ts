/**
 * The engine in Node: how fast PGlite starts (initdb vs the pre-built data directory), what one step
 * and one reset cost, and how much memory one instance takes.
 *   node --import tsx --import ./scripts/raw-loader.mjs bench/node.bench.ts
 * BENCH_STARTS (default 5) cold starts of each kind, BENCH_STEPS (default 200) samples per step figure.
 */
import { execFileSync } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootLab } from '../src/db/pglite-boot';
import { PGliteWire } from '../src/db/pglite-wire';
import { defaultSettings } from '../src/scenarios';
import { Simulation } from '../src/engine/simulation';
import { race } from '../src/scenarios/race';
import { threeWorkers } from '../src/scenarios/three-workers';
import { seedJson } from '../src/sim/seed';
import type { Scenario } from '../src/sim/types';
import { sqlText } from '../src/sql/registry';
import { skipLocked } from '../src/strategies/skip-locked/definition';
import { machineLine, median, mib, ms, printTable, quantile, type Row, range, runsFromEnv, seconds } from './lib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STARTS = runsFromEnv('BENCH_STARTS', 5);
const STEPS = runsFromEnv('BENCH_STEPS', 200);
const WARMUP = 20;
/** Claim steps played on the instance before the steady claim sample (see below). */
const CLAIM_STEADY_AFTER = 600;

/** Ten pending runs, three workers: a reset has ten rows to restore. */
const tenRuns: Scenario = {
  ...threeWorkers,
  id: 'bench-ten-runs',
  title: 'Ten runs (benchmark)',
  runs: Array.from({ length: 10 }, (_, i) => ({ runId: 200 + i, createdAtSeconds: -600 + i * 60 })),
  script: [],
};

interface ChildResult {
  mode: 'data-dir' | 'initdb';
  source: string;
  fallbackReason: string | null;
  importMs: number;
  bootMs: number;
  /** Since the call: files ready (wasm compiled, data read and unpacked), then PGlite.create() returned. */
  filesMs: number;
  startedMs: number;
  /** CPU time of the whole process (all threads) during bootLab: steadier than wall time on a busy machine. */
  cpuMs: number;
  firstQueryMs: number;
  heapBytes: number;
  rssDeltaBytes: number;
}

function coldStart(mode: ChildResult['mode']): ChildResult {
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', 'bench/start-child.ts', mode], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return JSON.parse(out.trim().split('\n').pop()!) as ChildResult;
}

async function time(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

async function sample(n: number, setup: () => Promise<unknown>, measured: () => Promise<unknown>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + n; i++) {
    await setup();
    const t = await time(measured);
    if (i >= WARMUP) times.push(t);
  }
  return times;
}

function stepRow(what: string, times: number[], target: { median: number; p95?: number } | null): Row {
  const med = median(times);
  const p95 = quantile(times, 0.95);
  return {
    what,
    median: ms(med, 2),
    p95: ms(p95, 2),
    range: range(times, (v) => v.toFixed(2)),
    n: times.length,
    ...(target
      ? {
          target: `median ≤ ${target.median} ms${target.p95 ? `, p95 ≤ ${target.p95} ms` : ''}`,
          ok: med <= target.median && (target.p95 === undefined || p95 <= target.p95),
        }
      : {}),
  };
}

async function main(): Promise<void> {
  console.log(`Lease Lab benchmark — the engine in Node (${machineLine()})`);

  // 1. Cold starts, each in a fresh process, the two kinds interleaved so load spikes hit both alike.
  const cold: Record<ChildResult['mode'], ChildResult[]> = { 'data-dir': [], initdb: [] };
  for (let i = 0; i < STARTS; i++) {
    for (const mode of ['initdb', 'data-dir'] as const) cold[mode].push(coldStart(mode));
  }
  const fellBack = cold['data-dir'].find((r) => r.source !== 'data-dir');
  if (fellBack) console.log(`!! the data directory was not used: ${fellBack.fallbackReason}`);

  // 2. More starts in this process: the wasm module is compiled once and cached by PGlite.
  const warm: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const boot = await bootLab();
    warm.push(boot.ms);
    await boot.db.close();
  }

  const startRow = (what: string, values: number[], target?: number): Row => ({
    what,
    median: seconds(median(values)),
    range: range(values, (v) => (v / 1000).toFixed(2)),
    n: values.length,
    ...(target ? { target: `≤ ${(target / 1000).toFixed(1)} s`, ok: median(values) <= target } : {}),
  });
  printTable('PGlite start: call → database answers (bootLab, incl. the lab schema check)', [
    startRow(
      'plain create (initdb), fresh process',
      cold.initdb.map((r) => r.bootMs),
    ),
    startRow(
      'from the pre-built data dir, fresh process',
      cold['data-dir'].map((r) => r.bootMs),
      500,
    ),
    startRow(
      '  of which: files ready (wasm compiled, data read)',
      cold['data-dir'].map((r) => r.filesMs),
    ),
    startRow(
      '  of which: until PGlite.create() returned',
      cold['data-dir'].map((r) => r.startedMs),
    ),
    startRow('from the pre-built data dir, same process again', warm),
    startRow(
      '  CPU time (all threads) of a plain create, fresh process',
      cold.initdb.map((r) => r.cpuMs),
    ),
    startRow(
      '  CPU time (all threads) from the data dir, fresh process',
      cold['data-dir'].map((r) => r.cpuMs),
    ),
    startRow(
      '  (importing PGlite + engine modules, fresh process)',
      [...cold.initdb, ...cold['data-dir']].map((r) => r.importMs),
    ),
  ]);

  // 3. Steps and resets on one instance.
  const boot = await bootLab();
  const rssBefore = process.memoryUsage().rss;
  const claimSim = new Simulation(boot.db, threeWorkers, defaultSettings(threeWorkers));
  const claimCold = await sample(
    STEPS,
    () => claimSim.reset(),
    () => claimSim.apply('A'),
  );
  // The first few hundred steps after a start share the CPU with V8 compiling Postgres's hot wasm
  // functions in the background (2 cores here): the first sample's tail is that, and it is gone after
  // about 600 steps (measured in blocks of 200: p95 9.4, 1.2, 2.6, 1.0, 0.9 ms). The steady figure is
  // taken after that many; the app's engine worker runs the claim paths in idle time after it starts.
  for (let i = 0; i < CLAIM_STEADY_AFTER - STEPS - WARMUP; i++) {
    await claimSim.reset();
    await claimSim.apply('A');
  }
  const claim = await sample(
    STEPS,
    () => claimSim.reset(),
    () => claimSim.apply('A'),
  );
  await claimSim.reset();
  const [claimStep] = await claimSim.apply('A');

  const naiveSim = new Simulation(boot.db, race, defaultSettings(race));
  const naive = await sample(
    STEPS,
    async () => {
      await naiveSim.reset();
      await naiveSim.apply('A'); // SELECT the candidate
    },
    () => naiveSim.apply('A'), // the naive UPDATE
  );
  await naiveSim.reset();
  await naiveSim.apply('A');
  const [naiveStep] = await naiveSim.apply('A');

  const tenSim = new Simulation(boot.db, tenRuns, defaultSettings(tenRuns));
  await tenSim.reset();
  const resetBusy = await sample(
    STEPS,
    async () => {
      await tenSim.apply('A'); // A claims (parked transaction)
      await tenSim.apply('B'); // B claims another (a second one)
    },
    () => tenSim.reset(),
  );
  const resetIdle = await sample(
    STEPS,
    async () => {},
    () => tenSim.reset(),
  );
  // The pieces a step and a reset are made of, one call at a time, to see where the time goes: PGlite's
  // query() (parse, plan and run, six calls into the wasm) beside the lab's path (PGliteWire: prepared
  // statements, one call per batch).
  const pg = boot.db.pg;
  const wire = new PGliteWire(pg);
  await tenSim.reset();
  const tenSeed = seedJson(tenRuns);
  const clock = '2030-01-01T15:00:00.000Z';
  const pieces: Array<[string, () => Promise<unknown>]> = [
    ['query(): SELECT 1', () => pg.query('SELECT 1')],
    ['wire: SELECT 1 (a simple query)', () => wire.run([{ command: 'SELECT 1' }])],
    ['query(): set the clock (set-clock)', () => pg.query(sqlText('set-clock'), [clock])],
    ['wire: set the clock (set-clock)', () => wire.run([{ sqlId: 'set-clock', params: [clock] }])],
    ['query(): read runs (runs-snapshot, 10 rows)', () => pg.query(sqlText('runs-snapshot'))],
    ['wire: read runs (runs-snapshot, 10 rows)', () => wire.run([{ sqlId: 'runs-snapshot' }])],
    ['query(): read held locks (held-locks-pglite)', () => pg.query(sqlText('held-locks-pglite'))],
    ['wire: read held locks (held-locks-pglite)', () => wire.run([{ sqlId: 'held-locks-pglite' }])],
    [
      'query(): BEGIN; claim; PREPARE TRANSACTION; ROLLBACK PREPARED',
      async () => {
        await pg.exec('BEGIN');
        await pg.query(skipLocked.claim.claim.text, ['A', 60]);
        await pg.exec(`PREPARE TRANSACTION 'bench'`);
        await pg.exec(`ROLLBACK PREPARED 'bench'`);
      },
    ],
    [
      'wire: [BEGIN; claim; PREPARE TRANSACTION; held locks] [ROLLBACK PREPARED]',
      async () => {
        await wire.run([
          { command: 'BEGIN' },
          { statement: skipLocked.claim.claim, params: ['A', 60] },
          { command: `PREPARE TRANSACTION 'bench'` },
          { sqlId: 'held-locks-pglite' },
        ]);
        await wire.run([{ command: `ROLLBACK PREPARED 'bench'` }]);
      },
    ],
    [
      'query(): TRUNCATE runs + seed 10 runs',
      async () => {
        await pg.exec('TRUNCATE runs');
        await pg.query(sqlText('seed-runs'), [tenSeed]);
      },
    ],
    ['wire: [TRUNCATE runs (truncate-runs); seed 10 runs]', () => wire.run([{ sqlId: 'truncate-runs' }, { sqlId: 'seed-runs', params: [tenSeed] }])],
  ];
  const pieceRows: Row[] = [];
  for (const [what, fn] of pieces) pieceRows.push(stepRow(what, await sample(STEPS, async () => {}, fn), null));
  const heapBytes = boot.db.pg.Module.HEAPU8.byteLength;
  const rssAfterSteps = process.memoryUsage().rss;
  await boot.db.close();

  printTable('Steps on one instance (Simulation.apply / reset, incl. reading runs and locks after the step)', [
    stepRow(`claim step: three-workers, A's SKIP LOCKED claim (${claimStep?.sqlId}, parked), steady (after ${CLAIM_STEADY_AFTER} steps)`, claim, {
      median: 1,
      p95: 2,
    }),
    stepRow(`  the same, the first ${STEPS} steps after the start (V8 still compiling Postgres's hot wasm functions)`, claimCold, null),
    stepRow(`naive step: race, A's UPDATE after its SELECT (${naiveStep?.sqlId})`, naive, null),
    stepRow('reset, 10 runs, 2 parked transactions to roll back', resetBusy, { median: 2 }),
    stepRow('reset, 10 runs, nothing to roll back', resetIdle, { median: 2 }),
  ]);

  printTable("What a step is made of, on the same instance: PGlite's query() beside the lab's calls (PGliteWire)", pieceRows);

  const heaps = cold['data-dir'].map((r) => r.heapBytes);
  const rss = cold['data-dir'].map((r) => r.rssDeltaBytes);
  printTable('Memory of one instance', [
    {
      what: 'WASM heap after start (Module.HEAPU8.byteLength)',
      median: mib(median(heaps)),
      range: range(heaps, (v) => (v / 2 ** 20).toFixed(0)),
      n: heaps.length,
      target: '≤ 150 MiB',
      ok: median(heaps) <= 150 * 2 ** 20,
    },
    { what: 'WASM heap after all the step samples', median: mib(heapBytes), n: 1, target: '≤ 150 MiB', ok: heapBytes <= 150 * 2 ** 20 },
    {
      what: 'process RSS growth across bootLab() (fresh process)',
      median: mib(median(rss)),
      range: range(rss, (v) => (v / 2 ** 20).toFixed(0)),
      n: rss.length,
    },
    { what: 'process RSS growth during the step samples', median: mib(rssAfterSteps - rssBefore), n: 1 },
  ]);
  console.log(`\n(${machineLine()})`);
}

await main();
