/**
 * The figures the robustness tests used to assert and no longer do (a test on a busy machine must not
 * fail on a speed): how long the lab takes to stop a runaway statement and give the learner their place
 * back, how fast the UI fuzzer plays, and what a large console answer costs.
 *   node --import tsx --import ./scripts/raw-loader.mjs bench/robustness.bench.ts
 * BENCH_RECOVERIES (default 3) runs of each hang-recovery case; BENCH_CONSOLE (default 5) console answers;
 * BENCH_FUZZ=0 leaves the fuzzer out (it takes a minute or two).
 *
 * The browser figures come from the tests themselves, run here by Playwright on a build of their own (the
 * tests print what they measured: hostile.spec.ts the recovery, fuzz.spec.ts the actions per second), so
 * the benchmark measures exactly what the tests exercise.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bootLabDatabase } from '../src/db/pglite-boot';
import { LabHost } from '../src/webworker/host';
import { machineLine, median, ms, printTable, type Row, range, runsFromEnv, seconds } from './lib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORK_DIR = join(process.env.BENCH_DIR ? resolve(process.env.BENCH_DIR) : join(tmpdir(), 'lease-lab-bench'), 'robustness');
const RECOVERIES = runsFromEnv('BENCH_RECOVERIES', 3);
const CONSOLE_ANSWERS = runsFromEnv('BENCH_CONSOLE', 5);
const WITH_FUZZ = process.env.BENCH_FUZZ !== '0';
/** Ports of their own, so the benchmark never reuses a server someone else left running. */
const PORTS = { E2E_PORT: process.env.BENCH_E2E_PORT ?? '4573', E2E_DEV_PORT: process.env.BENCH_E2E_DEV_PORT ?? '4575' };

/** The engine's host on a real PGlite in Node: the console's 100,000-row answer (first 500 rows sent, the rest counted). */
async function consoleFigures(): Promise<Row[]> {
  const db = await bootLabDatabase();
  try {
    const host = new LabHost(db);
    await host.load({ type: 'load', scenarioId: 'three-workers', settings: { strategy: 'skip-locked', fencing: true }, schedule: [], onInapplicable: 'stop' });
    const times: number[] = [];
    for (let i = 0; i < CONSOLE_ANSWERS + 1; i++) {
      const started = performance.now();
      const result = await host.console({
        type: 'console',
        sql: 'SELECT g, repeat($$x$$, 3) AS s FROM generate_series(1, 100000) AS g',
        upTo: 0,
        maxRows: 500,
      });
      if (result.kind !== 'rows' || result.rowCount !== 100_000) throw new Error(`unexpected console answer: ${JSON.stringify(result).slice(0, 200)}`);
      // The first answer compiles the paths it takes; the learner's later ones are the figure.
      if (i > 0) times.push(performance.now() - started);
    }
    const locked = new LabHost(db);
    await locked.load({ type: 'load', scenarioId: 'lock-wait', settings: { strategy: 'for-update', fencing: true }, schedule: ['A'], onInapplicable: 'stop' });
    const refusals: number[] = [];
    for (let i = 0; i < CONSOLE_ANSWERS + 1; i++) {
      const started = performance.now();
      const result = await locked.console({ type: 'console', sql: 'SELECT * FROM runs WHERE run_id = 123 FOR UPDATE', upTo: 1, maxRows: 500 });
      if (result.kind !== 'error' || result.code !== '25006') throw new Error(`unexpected answer to a locking read: ${JSON.stringify(result).slice(0, 200)}`);
      if (i > 0) refusals.push(performance.now() - started);
    }
    return [
      {
        what: 'console: 100,000-row answer (500 rows sent, the rest counted), Node',
        median: ms(median(times), 1),
        range: range(times, (v) => v.toFixed(0)),
        n: times.length,
        target: '≤ 1.5 s (the statement limit)',
        ok: median(times) <= 1500,
      },
      {
        what: "console: a locking read of a parked worker's row, refused (25006)",
        median: ms(median(refusals), 1),
        range: range(refusals, (v) => v.toFixed(1)),
        n: refusals.length,
        target: 'no wait: ≤ 100 ms',
        ok: median(refusals) <= 100,
      },
    ];
  } finally {
    await db.close();
  }
}

/** Runs one Playwright spec on the benchmark's build and returns what it printed. */
function playwright(dist: string, args: string[], env: Record<string, string> = {}): { output: string; ok: boolean } {
  const child = spawnSync('npx', ['playwright', 'test', ...args, '--reporter=list'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, ...PORTS, ...env, E2E_DIST: dist, CI: '1' },
    maxBuffer: 64 * 2 ** 20,
  });
  return { output: `${child.stdout}\n${child.stderr}`, ok: child.status === 0 };
}

function recoveryFigures(dist: string): Row[] {
  const { output, ok } = playwright(dist, ['tests/e2e/hostile.spec.ts', '-g', 'hang recovery', `--repeat-each=${RECOVERIES}`, '--workers=1']);
  const rows: Row[] = [];
  for (const [send, label] of [
    ['console', 'a runaway console statement (SELECT pg_sleep(100))'],
    ['lock-wait', 'a statement waiting for a row lock forever'],
  ] as const) {
    const found = [...output.matchAll(new RegExp(`hang recovery \\(${send}\\): stopped after (\\d+) ms, learner's state restored after (\\d+) ms`, 'g'))];
    const stopped = found.map((m) => Number(m[1]));
    const restored = found.map((m) => Number(m[2]));
    rows.push(
      {
        what: `hang recovery, ${label}: sent → stopped`,
        median: seconds(median(stopped)),
        range: range(stopped, (v) => (v / 1000).toFixed(2)),
        n: stopped.length,
        target: '1.5 s (the watchdog)',
      },
      {
        what: "  sent → the learner's exact state back and usable",
        median: seconds(median(restored)),
        range: range(restored, (v) => (v / 1000).toFixed(2)),
        n: restored.length,
        target: '≤ 2 s',
        ok: restored.length > 0 ? median(restored) <= 2000 : false,
      },
    );
  }
  if (!ok) rows.push({ what: '!! a hang-recovery test failed: run npx playwright test tests/e2e/hostile.spec.ts -g "hang recovery"' });
  return rows;
}

function fuzzFigures(dist: string): Row[] {
  // The long run (`npm run fuzz`'s), not npm test's quarter of it: the figure stays comparable across sessions.
  const { output, ok } = playwright(dist, ['tests/e2e/fuzz.spec.ts'], { FUZZ_ACTIONS: '500' });
  const line = output.match(/fuzz: (\d+) actions over (\d+) seeds in ([\d.]+) s, page loads included: ([\d.]+) actions\/s/);
  if (!line) return [{ what: `!! the fuzz test printed no figure${ok ? '' : ' (it failed)'}` }];
  const [, actions, seeds, took, rate] = line;
  return [
    {
      what: `UI fuzzing: ${actions} actions over ${seeds} seeds (two side by side), page loads included`,
      median: `${rate} actions/s`,
      range: `${took} s`,
      n: 1,
      target: "≥ 20 actions/s (npm run fuzz's 2,000 in ≤ 100 s)",
      ok: Number(rate) >= 20,
    },
    ...(ok ? [] : [{ what: '!! the fuzz test failed: npm run fuzz replays its seeds' }]),
  ];
}

async function main(): Promise<void> {
  console.log(`\nLease Lab benchmark — robustness (${machineLine()})`);
  const rows = await consoleFigures();
  rmSync(WORK_DIR, { recursive: true, force: true });
  mkdirSync(WORK_DIR, { recursive: true });
  const dist = join(WORK_DIR, 'dist');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'error', '--outDir', dist, '--emptyOutDir'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  rows.push(...recoveryFigures(dist));
  if (WITH_FUZZ) rows.push(...fuzzFigures(dist));
  printTable('Robustness: the figures the tests print but do not assert', rows, { range: 'min–max / total' });
  console.log(`\n(${machineLine()})`);
}

await main();
