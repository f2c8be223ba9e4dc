/**
 * The swarm: generated scenarios (src/scenarios/swarm.ts), one per seed, each played on PGlite as its
 * script and as a random walk (src/engine/swarm.ts) and replayed on a real PostgreSQL server, every step
 * compared (rows, locks, worker beliefs, outcomes, anomalies). npm test plays seeds 1…SEEDS_IN_NPM_TEST and
 * SEEDS_THAT_DIVERGED, the full ground truth (GROUND_TRUTH=full) seeds 1…SEEDS_IN_FULL_RUN. A seed that
 * disagrees fails with the command that replays it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playSwarmSeed, SWARM_RACE_PLAYS, type SwarmPlay } from '../../src/engine/swarm';
import { compareOnPostgres, type Databases, describeDivergences, openDatabases, summary } from './differential';

const SEEDS_IN_NPM_TEST = 150;
const SEEDS_IN_FULL_RUN = 1500;
const SEEDS = process.env.GROUND_TRUTH === 'full' ? SEEDS_IN_FULL_RUN : SEEDS_IN_NPM_TEST;
/**
 * Seeds that once diverged, played in every run: a write (heartbeat, work) waiting for a row, woken by the
 * same commit as a plain FOR UPDATE claim that relocked that row, ran on PGlite although the claimer held
 * the row; a real server's waiter waits for it (fixed in PGliteLab.waitsAgainForRow).
 */
const SEEDS_THAT_DIVERGED = [170, 517, 1069, 1080, 1381, 1472];
/** Seeds per test case: enough that a case is not mostly overhead, few enough that a failure names a short list. */
const SEEDS_PER_CASE = 10;

let dbs: Databases;
let schedules = 0;
/** The most plays on the server a racing schedule needed to match (see SWARM_RACE_PLAYS). */
let mostPlays = 0;
const anomalies = new Map<string, number>();

beforeAll(async () => {
  dbs = await openDatabases('swarm');
});

afterAll(async () => {
  await dbs?.close();
  const seen = [...anomalies.entries()].map(([kind, count]) => `${kind} ${count}`).join(', ');
  console.info(
    `swarm ground truth: ${seeds.length} seeds, ${schedules} schedules compared, at most ${mostPlays} plays to match; anomalies the schedules showed: ${seen}`,
  );
});

const inRange = Array.from({ length: SEEDS }, (_, i) => i + 1);
const seeds = [...inRange, ...SEEDS_THAT_DIVERGED.filter((seed) => seed > SEEDS)];
const batches = Array.from({ length: Math.ceil(seeds.length / SEEDS_PER_CASE) }, (_, i) => seeds.slice(i * SEEDS_PER_CASE, (i + 1) * SEEDS_PER_CASE)).map(
  (batch) => ({
    batch,
    label: batch.length > 1 && batch.at(-1)! - batch[0]! === batch.length - 1 ? `${batch[0]}…${batch.at(-1)}` : batch.join(', '),
  }),
);

describe('generated scenarios (the swarm) agree on PGlite and PostgreSQL', () => {
  it.for(batches)('seeds $label', { timeout: 300_000 }, async ({ batch }, { signal }) => {
    const failures: string[] = [];
    // PGlite (this process) plays the next seed while the server (other processes) replays this one: the
    // same seeds and comparisons, their waits overlapped. The next play is always awaited before the case ends.
    let next: Promise<SwarmPlay> | null = playSwarmSeed(dbs.pglite, batch[0]!);
    try {
      for (const [index, seed] of batch.entries()) {
        if (signal.aborted) break;
        const played = await next!;
        next = index + 1 < batch.length ? playSwarmSeed(dbs.pglite, batch[index + 1]!) : null;
        // Its failure surfaces where it is awaited; this only keeps Node from calling it unhandled meanwhile.
        next?.catch(() => undefined);
        expect(played.seed).toBe(seed);
        const result = await compareOnPostgres(dbs.postgres, played.scenario, played.settings, played.schedules, signal, SWARM_RACE_PLAYS);
        mostPlays = Math.max(mostPlays, result.mostPlays);
        schedules += result.schedules;
        for (const { trace } of played.schedules) for (const anomaly of trace.anomalies) anomalies.set(anomaly.kind, (anomalies.get(anomaly.kind) ?? 0) + 1);
        if (result.detailDifferences.length > 0 || result.raced.length > 0) console.info(summary(`swarm seed ${seed}`, result));
        expect(result.schedules).toBe(2);
        if (result.divergences.length > 0) {
          failures.push(
            `seed ${seed}: ${played.scenario.summary.replace('\n', ' ')}\n  replay: npm run sim -- swarm --seed ${seed} --db postgres://…\n${describeDivergences(result.divergences)}`,
          );
        }
      }
    } finally {
      // PGlite is the next case's too: nothing of this case may still be playing on it.
      await next?.catch(() => undefined);
    }
    expect(failures.join('\n\n'), `${failures.length} swarm seed(s) diverge`).toBe('');
  });
});
