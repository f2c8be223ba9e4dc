/**
 * The interleaving explorer in Node: schedules per second, brute force beside the fast path, and the wall
 * time to explore every schedule of three workers × three steps (9!/(3!·3!·3!) = 1,680 of them).
 *   node --import tsx --import ./scripts/raw-loader.mjs bench/explore.bench.ts
 * BENCH_EXPLORE_RUNS (default 3) repetitions of each figure; BENCH_EXPLORE_BRUTE3=1 also plays the 1,680
 * schedules by brute force, to check the fast path's count against it (slow).
 */
import { claimStrategyFromFile, guardCustomClaim } from '../src/cli/check';
import { bootLabDatabase } from '../src/db/pglite-boot';
import { type Exploration, exploreBruteForce, exploreFast } from '../src/engine/explore';
import { lockWait } from '../src/scenarios/lock-wait';
import { race } from '../src/scenarios/race';
import { threeWorkers } from '../src/scenarios/three-workers';
import type { Scenario, Settings } from '../src/sim/types';
import { machineLine, median, printTable, type Row, range, runsFromEnv, seconds } from './lib';

const RUNS = runsFromEnv('BENCH_EXPLORE_RUNS', 3);
const BRUTE_TARGET_PER_SECOND = 300;
const THREE_BY_THREE_TARGET_MS = 5000;
/** Issue #19: a custom claim's whole state graph in the race explored in at most 2 s. */
const CUSTOM_GRAPH_TARGET_MS = 2000;

/**
 * Three workers, three runs, the atomic claim and no model calls: each worker claims a run of its own
 * (SKIP LOCKED passes over the others' locked rows), commits the claim and completes the run. Exactly
 * three steps each in every order, so the schedules are the 9!/(3!·3!·3!) interleavings of three lanes.
 */
const threeByThree: Scenario = {
  ...threeWorkers,
  id: 'three-by-three',
  title: 'Three workers, three steps each (benchmark)',
  workSteps: 0,
  defaultStrategy: 'skip-locked',
  script: [],
};

function factorial(n: number): number {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

interface Timed {
  exploration: Exploration;
  wallMs: number;
  cpuMs: number;
}

async function timed(run: () => Promise<Exploration>): Promise<Timed> {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const exploration = await run();
  const wallMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { exploration, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

async function repeat(run: () => Promise<Exploration>): Promise<Timed[]> {
  const out: Timed[] = [];
  for (let i = 0; i < RUNS; i++) out.push(await timed(run));
  return out;
}

const perSecond = (t: Timed) => (t.exploration.total / t.wallMs) * 1000;
/** Per second of this process's CPU time: steadier than wall time while other work shares the machine. */
const perCpuSecond = (t: Timed) => (t.exploration.total / t.cpuMs) * 1000;
const rate = (v: number) => `${v.toFixed(0)}/s`;

async function main(): Promise<void> {
  console.log(`Interleaving explorer (Node, PGlite) — ${machineLine()}`);
  const db = guardCustomClaim(await bootLabDatabase());
  // A first exploration warms PGlite's query paths and the JIT.
  await exploreFast(db, race, { strategy: 'skip-locked', fencing: true });

  const rows: Row[] = [];
  // A claim someone wrote, as `check --claim` and the page's "Your SQL" build it: the lab's atomic claim typed
  // in (the same text, read by PostgreSQL's parser), and the example that ignores the lease.
  const typed = async (file: string) => ({ ...(await claimStrategyFromFile(file)).definition, label: `your claim ${file.split('/').at(-1)}` });
  const cases: { scenario: Scenario; settings: Settings }[] = [
    { scenario: race, settings: { strategy: 'naive', fencing: false } },
    { scenario: lockWait, settings: { strategy: 'for-update', fencing: true } },
    { scenario: race, settings: { strategy: 'skip-locked', fencing: true, definition: await typed('src/strategies/skip-locked/claim-skip-locked.sql') } },
    { scenario: race, settings: { strategy: 'skip-locked', fencing: false, definition: await typed('docs/examples/claim-ignores-the-lease.sql') } },
  ];
  for (const { scenario, settings } of cases) {
    const name = `${scenario.id}, ${settings.definition?.label ?? settings.strategy}, fencing ${settings.fencing ? 'on' : 'off'}`;
    const brute = await repeat(() => exploreBruteForce(db, scenario, settings));
    const fast = await repeat(() => exploreFast(db, scenario, settings));
    const total = brute[0]!.exploration.total;
    const same = fast.every((t) => t.exploration.total === total);
    const bruteRates = brute.map(perSecond);
    const fastRates = fast.map(perSecond);
    const ok = median(bruteRates) >= BRUTE_TARGET_PER_SECOND;
    const fastWall = median(fast.map((t) => t.wallMs));
    rows.push({
      what: `${name}: brute force (${total} schedules)`,
      median: rate(median(bruteRates)),
      range: range(bruteRates, (v) => v.toFixed(0)),
      n: RUNS,
      target: `≥ ${BRUTE_TARGET_PER_SECOND}/s`,
      ok,
    });
    const bruteCpuRates = brute.map(perCpuSecond);
    rows.push({
      what: `${name}: brute force, per CPU-second of this process`,
      median: rate(median(bruteCpuRates)),
      range: range(bruteCpuRates, (v) => v.toFixed(0)),
      n: RUNS,
    });
    const f = fast[0]!.exploration;
    rows.push({
      what: `${name}: fast path (${f.statesVisited} states, ${f.stepsPlayed} steps played, ${f.stepsInferred} inferred)`,
      median: rate(median(fastRates)),
      range: range(fastRates, (v) => v.toFixed(0)),
      n: RUNS,
      target: 'same counts',
      ok: same,
    });
    if (settings.definition) {
      rows.push({
        what: `${name}: the whole state graph, wall time`,
        median: seconds(fastWall),
        n: RUNS,
        target: `≤ ${seconds(CUSTOM_GRAPH_TARGET_MS)}`,
        ok: fastWall <= CUSTOM_GRAPH_TARGET_MS,
      });
    }
  }
  printTable('Schedules per second (wall time)', rows, { median: 'median', range: 'min–max' });

  const expected = factorial(9) / factorial(3) ** 3;
  const settings: Settings = { strategy: 'skip-locked', fencing: true };
  const fast = await repeat(() => exploreFast(db, threeByThree, settings));
  const counts = fast.map((t) => t.exploration.total);
  const first = fast[0]!.exploration;
  const threeRows: Row[] = [
    {
      what: `wall time, fast path (${first.statesVisited} states, ${first.stepsPlayed} steps played, ${first.stepsInferred} inferred)`,
      median: seconds(median(fast.map((t) => t.wallMs))),
      range: range(
        fast.map((t) => t.wallMs),
        (v) => (v / 1000).toFixed(2),
      ),
      n: RUNS,
      target: `≤ ${seconds(THREE_BY_THREE_TARGET_MS)}`,
      ok: median(fast.map((t) => t.wallMs)) <= THREE_BY_THREE_TARGET_MS,
    },
    {
      what: 'CPU time of this process, fast path',
      median: seconds(median(fast.map((t) => t.cpuMs))),
      range: range(
        fast.map((t) => t.cpuMs),
        (v) => (v / 1000).toFixed(2),
      ),
      n: RUNS,
    },
    {
      what: 'schedules counted',
      median: counts.join(', '),
      target: `= ${expected} (9!/(3!·3!·3!))`,
      ok: counts.every((c) => c === expected),
    },
  ];
  if (process.env.BENCH_EXPLORE_BRUTE3 === '1') {
    const brute = await timed(() => exploreBruteForce(db, threeByThree, settings));
    threeRows.push({
      what: 'brute force, for comparison',
      median: `${seconds(brute.wallMs)} (${rate(perSecond(brute))})`,
      target: `= ${expected}`,
      ok: brute.exploration.total === expected,
    });
  }
  printTable('Every schedule of three workers × three steps (claim, commit, complete; SKIP LOCKED, fencing on)', threeRows, { median: 'figure' });
  await db.close();
}

await main();
