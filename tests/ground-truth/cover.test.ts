/**
 * The state-graph cover the ground truth relies on (src/engine/cover.ts): its schedules take every step
 * that any complete schedule takes, from the same state, and each replays to the trace it reported.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { coverStateGraph } from '../../src/engine/cover';
import { type ExploredSchedule, enumerateSchedules, Walk } from '../../src/engine/enumerate';
import { runSchedule } from '../../src/engine/run';
import { findScenario } from '../../src/scenarios';
import type { Scenario, Settings } from '../../src/sim/types';

let db: PGliteLab;

beforeAll(async () => {
  db = await bootLabDatabase();
});

afterAll(async () => {
  await db?.close();
});

const scenario = (id: string): Scenario => findScenario(id)!;

async function cover(s: Scenario, settings: Settings) {
  const schedules: ExploredSchedule[] = [];
  const search = coverStateGraph(db, s, settings);
  for (;;) {
    const next = await search.next();
    if (next.done) return { schedules, summary: next.value };
    schedules.push(next.value);
  }
}

/**
 * The steps a schedule takes, each as "state it starts from → token", walked afresh from a reset with the
 * enumerator's rules (a lane token that cannot apply when only it is on offer is dropped from the lane).
 */
async function stepsOf(s: Scenario, settings: Settings, schedule: readonly string[]): Promise<string[]> {
  const walk = new Walk(db, s, settings);
  await walk.restore([]);
  const out: string[] = [];
  let lane = 0;
  for (const token of schedule) {
    let choice = walk.choices(lane).find((c) => c.token === token);
    while (!choice && walk.onlyTheLaneIsLeft(lane)) {
      lane += 1;
      choice = walk.choices(lane).find((c) => c.token === token);
    }
    if (!choice) throw new Error(`${schedule.join(',')}: ${token} is not on offer`);
    out.push(`${walk.stateKey(lane)} → ${token}`);
    expect(await walk.tryApply(token)).toBe(true);
    lane = choice.lane;
  }
  return out;
}

describe('coverStateGraph', () => {
  it.for([
    { id: 'lock-wait', settings: { strategy: 'for-update', fencing: false } },
    { id: 'crash-orphan', settings: { strategy: 'naive', fencing: true } },
  ] as const)('$id, $settings.strategy: every step of every complete schedule is taken by the cover', async ({ id, settings }) => {
    const s = scenario(id);
    const { schedules, summary } = await cover(s, settings);
    expect(summary.cut).toBe(false);
    const covered = new Set<string>();
    for (const { schedule, trace } of schedules) {
      for (const step of await stepsOf(s, settings, schedule)) covered.add(step);
      expect(await runSchedule(db, s, settings, schedule)).toEqual(trace);
    }
    expect(covered.size).toBe(summary.edges);
    const { schedules: every, cut } = await enumerateSchedules(db, s, settings, { limit: 5000 });
    expect(cut).toBe(false);
    // The cover is much smaller than the tree, and misses none of its steps.
    expect(schedules.length).toBeLessThan(every.length);
    for (const { schedule } of every) {
      for (const step of await stepsOf(s, settings, schedule)) expect(covered.has(step), `${schedule.join(',')}: ${step.slice(-40)}`).toBe(true);
    }
  });
});
