/**
 * The schedule enumerator the ground truth (and the interleaving explorer) rely on: complete, bounded,
 * deterministic, and every schedule it yields replays to the trace it reported. And the state-graph cover
 * (src/engine/cover.ts): its schedules take every step that any complete schedule takes, from the same
 * state, and each replays to the trace it reported. And the paths the server plays through the graph the
 * cover walked (StateGraph.pathCover): they take every edge, and the trace each is compared with, put
 * together from the walk's edges, is the one PGlite records playing it from a reset.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { coverStateGraph, type GraphEdge, pathTrace, StateGraph } from '../../src/engine/cover';
import { compareTraces } from '../../src/engine/differential';
import { type ExploredSchedule, enumerateSchedules, environmentLane, seededSchedules, Walk } from '../../src/engine/enumerate';
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

describe('enumerateSchedules', () => {
  it('finds every interleaving: two workers of four steps each, nobody blocked, is 8 choose 4', async () => {
    // SKIP LOCKED: whatever the order, each worker claims, commits, works and completes its own run.
    const { schedules, cut } = await enumerateSchedules(db, scenario('lock-wait'), { strategy: 'skip-locked', fencing: true });
    expect(cut).toBe(false);
    expect(schedules).toHaveLength(70);
    expect(new Set(schedules.map((s) => s.schedule.join())).size).toBe(70);
    for (const { schedule } of schedules) expect([...schedule].sort().join('')).toBe('AAAABBBB');
  });

  it('never schedules a worker that is waiting for a lock, and reports the trace that replaying gives', async () => {
    const settings = { strategy: 'for-update' as const, fencing: false };
    const restore = vi.spyOn(Walk.prototype, 'restore');
    const { schedules } = await enumerateSchedules(db, scenario('lock-wait'), settings);
    // On PGlite it backtracks by the walk's marks: one reset at the start, no prefix played again.
    expect(restore).toHaveBeenCalledTimes(1);
    restore.mockRestore();
    expect(schedules.map((s) => s.schedule.join())).not.toContain('A,B,B,A,A,A,B,B');
    for (const { trace } of schedules) {
      const blocked = trace.steps.find((s) => s.verdict === 'blocked');
      if (!blocked) continue;
      const next = trace.steps.find((s) => s.index > blocked.index && s.actor === blocked.actor);
      expect(next?.resumed).toBe(true);
    }
    for (const { schedule, trace } of schedules.filter((_, i) => i % 7 === 0)) {
      const replayed = await runSchedule(db, scenario('lock-wait'), settings, schedule);
      expect(replayed).toEqual(trace);
    }
  });

  it('stops at the limit and says so', async () => {
    const { schedules, cut } = await enumerateSchedules(db, scenario('race'), { strategy: 'naive', fencing: false }, { limit: 10 });
    expect(schedules).toHaveLength(10);
    expect(cut).toBe(true);
  });

  it('keeps the environment lane in script order and bounds a stuck worker', async () => {
    // The lesson's scenario, cut down (one claim attempt, one model call) so that the whole tree stays small.
    const stuck: Scenario = { ...scenario('stuck-heartbeat'), maxClaimAttempts: 1, workSteps: 1, script: ['A', '+20', 'A'] };
    const { schedules, cut } = await enumerateSchedules(db, stuck, { strategy: 'skip-locked', fencing: true }, { stuckStepLimit: 3, limit: 5000 });
    expect(cut).toBe(false);
    const lane = environmentLane(stuck);
    for (const { schedule } of schedules) {
      expect(schedule.filter((t) => t === 'A').length).toBeLessThanOrEqual(3);
      const environment = schedule.filter((t) => !/^[A-Z]$/.test(t));
      expect(lane.slice(0, environment.length)).toEqual(environment);
    }
  });

  it('moves the clock when only a timed resume can free a worker', async () => {
    // A pauses at 5 s for 20 s; the script never moves the clock past the pause itself.
    const paused: Scenario = {
      ...scenario('paused-worker'),
      maxClaimAttempts: 1,
      faults: [{ kind: 'pause', worker: 'A', atSeconds: 5, forSeconds: 20 }],
      script: ['A', '+5', 'B'],
    };
    const { schedules } = await enumerateSchedules(db, paused, { strategy: 'skip-locked', fencing: true });
    const resumed = schedules.filter(({ schedule }) => schedule.includes('+20'));
    expect(resumed.length).toBeGreaterThan(0);
    for (const { trace } of resumed) expect(trace.steps.some((s) => s.action === 'resume')).toBe(true);
  });
});

describe('seededSchedules', () => {
  it('is deterministic: the same seed gives the same complete schedules', async () => {
    const settings = { strategy: 'skip-locked' as const, fencing: true };
    const first = await seededSchedules(db, scenario('crash-orphan'), settings, 5, 42);
    const again = await seededSchedules(db, scenario('crash-orphan'), settings, 5, 42);
    expect(again.map((s) => s.schedule)).toEqual(first.map((s) => s.schedule));
    const other = await seededSchedules(db, scenario('crash-orphan'), settings, 5, 43);
    expect(other.map((s) => s.schedule)).not.toEqual(first.map((s) => s.schedule));
    for (const { trace } of first) expect(trace.steps.length).toBeGreaterThan(0);
  });
});

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

describe('Walk.restoreMark', () => {
  it('comes back to a mark with the state and trace a replay from a reset gives, without the simulation playing its tokens again', async () => {
    const s = scenario('lock-wait');
    const settings: Settings = { strategy: 'for-update', fencing: false };
    const walk = new Walk(db, s, settings, undefined, { marks: true });
    await walk.restore([]);
    // A's claim holds run 123 (a parked transaction on PGlite): the mark must bring it back too.
    expect(await walk.tryApply('A')).toBe(true);
    const mark = walk.mark();
    const marked = { trace: structuredClone(walk.sim.trace()), key: walk.stateKey(0) };
    // Then to the end of the scenario, first choice first.
    for (let left = walk.choices(0); left.length > 0; left = walk.choices(left[0]!.lane)) expect(await walk.tryApply(left[0]!.token)).toBe(true);
    const apply = vi.spyOn(walk.sim, 'apply');
    for (const again of [1, 2]) {
      apply.mockClear();
      await walk.restoreMark(mark);
      expect(apply, `restore ${again}`).not.toHaveBeenCalled();
      expect(walk.applied()).toEqual(['A']);
      expect(walk.stateKey(0)).toBe(marked.key);
      expect(walk.sim.trace()).toEqual(marked.trace);
      // The database stands there too: B's claim waits for A's lock, as after a replay from a reset.
      const replayed = new Walk(db, s, settings);
      await replayed.restore(['A', 'B']);
      expect(replayed.sim.trace().steps.at(-1)?.outcome?.status).toBe('blocked');
      const expected = structuredClone(replayed.sim.trace());
      await walk.restoreMark(mark);
      expect(await walk.tryApply('B')).toBe(true);
      expect(walk.sim.trace()).toEqual(expected);
    }
    apply.mockRestore();
  });
});

describe('StateGraph.pathCover', () => {
  async function walked(s: Scenario, settings: Settings) {
    const graph = new StateGraph();
    const search = coverStateGraph(db, s, settings, { onEdge: (edge) => graph.add(edge) });
    let next = await search.next();
    while (!next.done) next = await search.next();
    return { graph, summary: next.value };
  }

  it.for([
    { id: 'lock-wait', settings: { strategy: 'for-update', fencing: false } },
    { id: 'race', settings: { strategy: 'naive', fencing: false } },
  ] as const)('$id, $settings.strategy: its paths take every edge, each trace is the one replaying it gives', async ({ id, settings }) => {
    const s = scenario(id);
    const { graph, summary } = await walked(s, settings);
    const paths = graph.pathCover();
    const taken = new Set<GraphEdge>(paths.flat());
    expect(graph.edges).toBe(summary.edges);
    expect(taken.size).toBe(summary.edges);
    const root = paths[0]![0]!.from;
    let anomalies = 0;
    for (const path of paths) {
      expect(path[0]!.from).toBe(root);
      for (const [i, edge] of path.entries()) if (i > 0) expect(edge.from).toBe(path[i - 1]!.to);
      const schedule = path.map((edge) => edge.token);
      const replayed = await runSchedule(db, s, settings, schedule);
      const expected = pathTrace(s, settings, path, 'pglite');
      expect(compareTraces(expected, { trace: replayed, refused: null }, s, settings, schedule)).toEqual({ divergence: null, detail: null });
      expect(expected.steps.map((step) => step.index)).toEqual(replayed.steps.map((step) => step.index));
      anomalies += expected.anomalies.length;
    }
    // The anomalies are counted again along each path, not read from the way the walk went.
    if (id === 'race') expect(anomalies).toBeGreaterThan(0);
  });

  it("a step whose rows differ from the walk's is a divergence at that step", async () => {
    const s = scenario('lock-wait');
    const settings = { strategy: 'for-update', fencing: false } as const;
    const { graph } = await walked(s, settings);
    const path = graph.pathCover()[0]!;
    const schedule = path.map((edge) => edge.token);
    const replayed = await runSchedule(db, s, settings, schedule);
    // The walk saw one run's status otherwise at the path's third step.
    const planted = path.map((edge, i) =>
      i === 2
        ? { ...edge, steps: edge.steps.map((step) => ({ ...step, runs: step.runs.map((run, r) => (r === 0 ? { ...run, status: 'planted' } : run)) })) }
        : edge,
    );
    const { divergence } = compareTraces(pathTrace(s, settings, planted, 'pglite'), { trace: replayed, refused: null }, s, settings, schedule);
    expect(divergence?.where).toMatch(/^step \d+ \(token /);
    expect(divergence?.where).toBe(`step ${replayed.steps.findIndex((step) => step.tokenIndex === 2) + 1} (token ${schedule[2]})`);
  });
});
