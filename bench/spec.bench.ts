/**
 * Your own SQL, checked: reading a spec, running every permutation of one on PGlite, and `check` of one
 * claim in one scenario on PGlite and on a real PostgreSQL server (started here, thrown away after).
 *   node --import tsx --import ./scripts/raw-loader.mjs bench/spec.bench.ts
 * BENCH_SPEC_ROUNDS (default 5) rounds of every permutation, BENCH_CHECKS (default 3) runs of each check.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { PGliteSpecDriver } from '../src/db/pglite-spec';
import { parseSpec, permutationsOf } from '../src/spec/parse';
import { runPermutations } from '../src/spec/run';
import { startPostgresServer } from '../tests/support/postgres-server';
import { machineLine, median, ms, printTable, quantile, type Row, range, runsFromEnv, seconds } from './lib';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const ROUNDS = runsFromEnv('BENCH_SPEC_ROUNDS', 5);
const CHECKS = runsFromEnv('BENCH_CHECKS', 3);
const PARSE_SAMPLES = 50;

/** Two sessions of three steps each (20 permutations), each claiming a job and committing: see the file's header. */
const TWO_SESSIONS_SIX_STEPS = readFileSync(join(ROOT, 'tests/fixtures/specs/two-claims-skip-locked.spec'), 'utf8');

function specFiles(): string[] {
  const dirs = [join(ROOT, 'tests/fixtures/postgres-isolation/specs'), join(ROOT, 'docs/examples')];
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => name.endsWith('.spec'))
      .map((name) => join(dir, name)),
  );
}

/** Parse + plan (every permutation listed) of each spec the project holds: the median of each spec's samples. */
function parseAndPlan(): Row {
  const perSpec = specFiles().map((file) => {
    const text = readFileSync(file, 'utf8');
    const samples: number[] = [];
    for (let i = 0; i < PARSE_SAMPLES; i++) {
      const started = performance.now();
      permutationsOf(parseSpec(text));
      samples.push(performance.now() - started);
    }
    return median(samples);
  });
  const worst = Math.max(...perSpec);
  return {
    what: `parse + plan, per spec (${perSpec.length} specs, the median of ${PARSE_SAMPLES} each)`,
    median: ms(median(perSpec), 2),
    p95: ms(quantile(perSpec, 0.95), 2),
    range: range(perSpec, (v) => ms(v, 2)),
    n: perSpec.length,
    target: '≤ 5 ms',
    ok: worst <= 5,
  };
}

/** Warm-up rounds stop once the last WARM_WINDOW rates lie within WARM_SPREAD of their median, or after WARM_MAX rounds. */
const WARM_WINDOW = 3;
const WARM_SPREAD = 0.15;
const WARM_MAX = 40;

function settled(rates: readonly number[]): boolean {
  if (rates.length < WARM_WINDOW) return false;
  const last = rates.slice(-WARM_WINDOW);
  const middle = median(last);
  return last.every((rate) => Math.abs(rate - middle) <= WARM_SPREAD * middle);
}

async function permutationsPerSecond(): Promise<Row[]> {
  const spec = parseSpec(TWO_SESSIONS_SIX_STEPS);
  const permutations = permutationsOf(spec);
  const openStarted = performance.now();
  const driver = await PGliteSpecDriver.open(spec);
  const openMs = performance.now() - openStarted;
  const round = async (): Promise<number> => {
    const started = performance.now();
    const runs = await runPermutations(spec, permutations, driver);
    const refused = runs.filter((run) => run.refused !== null).length;
    if (refused > 0) throw new Error(`${refused} of ${runs.length} permutations refused on PGlite: the benchmark measures followed ones`);
    return permutations.length / ((performance.now() - started) / 1000);
  };
  const warming: number[] = [];
  const rates: number[] = [];
  try {
    // A round takes 0.05–0.5 s, so the first rounds measure V8 compiling the runner and Postgres's wasm
    // tiering up, not the runner: rounds run unmeasured until their rate settles, and the first one is
    // reported on its own (what a single `sim spec` run of this size sees).
    while (!settled(warming) && warming.length < WARM_MAX) warming.push(await round());
    for (let i = 0; i < ROUNDS; i++) rates.push(await round());
  } finally {
    await driver.close();
  }
  const rate = (value: number) => `${value.toFixed(0)} /s`;
  return [
    { what: 'open a spec driver on PGlite (a fresh cluster)', median: ms(openMs), n: 1 },
    { what: `the first round of ${permutations.length} permutations on that fresh cluster (cold)`, median: rate(warming[0] ?? 0), n: 1 },
    {
      what: `every permutation of a 2-session, 6-step spec on PGlite (${permutations.length} a round), after ${warming.length} warm-up rounds${settled(warming) ? '' : ' (never settled)'}`,
      median: rate(median(rates)),
      range: range(rates, rate),
      n: ROUNDS,
      target: '≥ 300 /s',
      ok: median(rates) >= 300,
    },
  ];
}

/** `npm run sim -- check SCENARIO --claim FILE [--db URL]` as a user runs it: a process of its own, start to exit. */
function timeCheck(args: string[]): { ms: number; code: number } {
  const started = performance.now();
  let code = 0;
  try {
    execFileSync(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', 'src/cli/main.ts', 'check', ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } catch (error) {
    code = (error as { status?: number }).status ?? -1;
  }
  return { ms: performance.now() - started, code };
}

async function checks(): Promise<Row[]> {
  const claim = join(ROOT, 'src/strategies/skip-locked/claim-skip-locked.sql');
  const server = await startPostgresServer('lease_lab_bench');
  const rows: Row[] = [];
  try {
    for (const scenario of ['race', 'heartbeat']) {
      for (const db of [null, server.url]) {
        const runs = Array.from({ length: CHECKS }, () => timeCheck([scenario, '--claim', claim, ...(db ? ['--db', db] : [])]));
        const times = runs.map((run) => run.ms);
        const limit = db ? 30_000 : 5_000;
        rows.push({
          what: `check ${scenario} --claim claim-skip-locked.sql${db ? ` --db (PostgreSQL ${server.version})` : ' (PGlite)'}, exit ${[...new Set(runs.map((r) => r.code))].join('/')}`,
          median: seconds(median(times)),
          range: range(times, seconds),
          n: CHECKS,
          target: `≤ ${limit / 1000} s`,
          ok: median(times) <= limit,
        });
      }
    }
  } finally {
    await server.stop();
  }
  return rows;
}

console.log(machineLine());
printTable('Your own SQL: specs on PGlite', [parseAndPlan(), ...(await permutationsPerSecond())]);
printTable('check of one claim in one scenario (a process of its own, start to exit)', await checks());
