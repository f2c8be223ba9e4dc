/**
 * The seeded arrival process: every run the scenario will see, decided up front from the seed, so the
 * same knobs give the same runs on every database and every replay.
 */
import { seededRandom } from '../random';
import type { Arrival, BackpressureConfig } from './types';

/** Poisson-distributed count with this mean (Knuth's method; means here are small). */
function poisson(random: () => number, mean: number): number {
  if (mean <= 0) return 0;
  const limit = Math.exp(-mean);
  let product = random();
  let count = 0;
  while (product > limit && count < 1000) {
    product *= random();
    count += 1;
  }
  return count;
}

/** A run's model calls: exponential around the mean (most runs short, a few long), at least 1, at most 4× the mean. */
function callsFor(random: () => number, mean: number): number {
  const drawn = 1 + Math.floor(-Math.log(1 - random()) * Math.max(0, mean - 1));
  return Math.min(drawn, Math.max(1, Math.round(mean * 4)));
}

/** One model call costs 1–5 cents, fixed per run (a run sticks to one model). */
function callCostFor(random: () => number): number {
  return 1 + Math.floor(random() * 5);
}

function pickTenant(random: () => number, config: BackpressureConfig): string {
  const total = config.tenants.reduce((sum, t) => sum + Math.max(0, t.weight), 0);
  let point = random() * total;
  for (const tenant of config.tenants) {
    point -= Math.max(0, tenant.weight);
    if (point < 0) return tenant.id;
  }
  return config.tenants.at(-1)?.id ?? 'A';
}

/** Bounds the stream's length in seconds, whatever the knobs say. */
const MAX_STREAM_SECONDS = 1_000_000;

export function arrivalsFor(config: BackpressureConfig): Arrival[] {
  const random = seededRandom(config.seed);
  const timed: Omit<Arrival, 'runId'>[] = [];
  for (const tenant of config.tenants) {
    for (let i = 0; i < tenant.burst; i++) {
      timed.push({ tenant: tenant.id, atSecond: tenant.burstAtSecond, calls: callsFor(random, config.meanCalls), callCostCents: callCostFor(random) });
    }
  }
  const streaming = config.tenants.some((t) => t.weight > 0) && config.arrivalsPerSecond > 0;
  let streamed = 0;
  for (let second = 0; streaming && streamed < config.streamRuns && second < MAX_STREAM_SECONDS; second++) {
    const count = Math.min(poisson(random, config.arrivalsPerSecond), config.streamRuns - streamed);
    for (let i = 0; i < count; i++) {
      timed.push({ tenant: pickTenant(random, config), atSecond: second, calls: callsFor(random, config.meanCalls), callCostCents: callCostFor(random) });
    }
    streamed += count;
  }
  // Run ids follow arrival order (bursts first within a second), so ORDER BY created_at, run_id is arrival order.
  return timed
    .map((arrival, index) => ({ arrival, index }))
    .sort((a, b) => a.arrival.atSecond - b.arrival.atSecond || a.index - b.index)
    .map(({ arrival }, index) => ({ runId: index + 1, ...arrival }));
}
