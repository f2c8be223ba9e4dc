/**
 * The lesson against the real engine on PGlite: every narration mark shows what its text says, every
 * predict question's answer is read from a real run (and differs between seeds), and the atomic claim
 * never double-executes however the scheduler interleaves workers. The challenges are in lesson-challenges.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import { Simulation } from '../../src/engine/simulation';
import { CHAPTERS } from '../../src/lessons/chapters';
import { PREDICT_GENERATORS } from '../../src/lessons/predict';
import { createEngineRunner } from '../support/lesson-runner';
import { matchesExpectation, stepsAtToken } from '../../src/lessons/trace-read';
import type { RunTrace } from '../../src/lessons/types';
import { findScenario } from '../../src/scenarios';
import { seededRandom } from '../../src/sim/random';
import { ScheduleError } from '../../src/sim/schedule';
import type { Scenario, Settings, Strategy, Trace } from '../../src/sim/types';

let db: PGliteLab;
let run: RunTrace;
const cache = new Map<string, Promise<Trace>>();

function cachedRun(scenario: Scenario, settings: Settings, schedule: readonly string[]): Promise<Trace> {
  const key = JSON.stringify([scenario, settings, schedule]);
  let trace = cache.get(key);
  if (!trace) {
    trace = run(scenario, settings, schedule);
    cache.set(key, trace);
  }
  return trace;
}

beforeAll(async () => {
  db = await bootLabDatabase();
  run = createEngineRunner(db);
});

afterAll(async () => {
  await db?.close();
});

describe('narration marks', () => {
  const marks = CHAPTERS.flatMap((chapter) => chapter.steps.filter((step) => step.mark).map((step) => ({ chapter, step, mark: step.mark! })));

  it.each(marks.map((m) => [`${m.chapter.id}/${m.step.id}`, m] as const))('%s points at a step that shows what it says', async (_, { chapter, mark }) => {
    const scenario = findScenario(mark.scenarioId ?? chapter.scenarioId!)!;
    const settings = mark.settings ?? chapter.settings!;
    const schedule = mark.schedule ?? scenario.script;
    const trace = await cachedRun(scenario, settings, schedule);
    expect(trace.schedule).toEqual(schedule);
    if (mark.tokenIndex !== null) expect(stepsAtToken(trace, mark.tokenIndex).length).toBeGreaterThan(0);
    if (mark.expect) {
      const shown =
        mark.tokenIndex === null ? [] : stepsAtToken(trace, mark.tokenIndex).map((s) => `${s.actor} ${s.action} ${s.verdict} ${JSON.stringify(s.facts)}`);
      expect(matchesExpectation(trace, mark.tokenIndex, mark.expect), `expected ${JSON.stringify(mark.expect)}, got ${JSON.stringify(shown)}`).toBe(true);
    }
  });
});

describe('predict-then-run', () => {
  const SEEDS = Array.from({ length: 12 }, (_, i) => i * 7 + 1);

  it.each(
    PREDICT_GENERATORS.map((g) => [g.id, g] as const),
  )('%s: the answer comes from the engine, is one of the choices, and varies with the seed', async (_, generator) => {
    const answers = new Set<string>();
    const keys = new Set<string>();
    for (const seed of SEEDS) {
      const instance = generator.generate(seed);
      keys.add(instance.key);
      const trace = await cachedRun(instance.scenario, instance.settings, instance.schedule);
      const answer = instance.answerFrom(trace);
      expect(answer, `${instance.key}: the engine did something none of the choices describes`).not.toBeNull();
      expect(
        instance.choices.map((c) => c.id),
        instance.key,
      ).toContain(answer);
      expect(instance.explain(trace).length).toBeGreaterThan(0);
      if (instance.focusTokenIndex !== null) expect(instance.focusTokenIndex).toBeLessThan(instance.schedule.length);
      answers.add(answer!);
    }
    expect(keys.size, 'different seeds give different parameters').toBeGreaterThan(3);
    expect(answers.size, `answers seen: ${[...answers].join(', ')}`).toBeGreaterThan(1);
  });

  it('reads different answers from different runs of the same question (fencing on versus off)', async () => {
    const fencing = PREDICT_GENERATORS.find((g) => g.id === 'fencing-write')!;
    const seen = new Map<string, string>();
    for (let seed = 0; seed < 60 && seen.size < 2; seed++) {
      const instance = fencing.generate(seed);
      if (!instance.key.includes('/off/')) continue;
      const trace = await cachedRun(instance.scenario, instance.settings, instance.schedule);
      const off = instance.answerFrom(trace)!;
      if (off !== 'split') continue;
      const on = instance.answerFrom(await cachedRun(instance.scenario, { ...instance.settings, fencing: true }, instance.schedule));
      seen.set('off', off);
      seen.set('on', on!);
    }
    expect(seen.get('off')).toBe('split');
    expect(seen.get('on')).toBe('rejected');
  });
});

/** A random schedule without clock moves: steps, pauses, resumes, crashes, cancels and kills. */
async function randomWalk(scenario: Scenario, settings: Settings, seed: number): Promise<Trace> {
  const random = seededRandom(seed);
  const sim = new Simulation(db, scenario, settings);
  await sim.reset();
  const workers = scenario.workers.map((w) => w.id);
  const runs = scenario.runs.map((r) => r.runId);
  for (let i = 0; i < 40; i++) {
    const roll = random();
    const worker = workers[Math.floor(random() * workers.length)]!;
    const runId = runs[Math.floor(random() * runs.length)]!;
    const token =
      roll < 0.7
        ? worker
        : roll < 0.8
          ? `pause:${worker}`
          : roll < 0.9
            ? `resume:${worker}`
            : roll < 0.95
              ? `crash:${worker}`
              : roll < 0.975
                ? `cancel:${runId}`
                : `kill:${runId}`;
    try {
      await sim.apply(token);
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
    }
    if (sim.movable().length === 0 && !workers.some((id) => sim.workerStates().find((w) => w.id === id)?.paused)) break;
  }
  return sim.trace();
}

describe('the atomic claim cannot double-execute while the clock stands still', () => {
  const SCENARIOS = ['race', 'three-workers', 'lock-wait'];
  const STRATEGIES: Strategy[] = ['skip-locked', 'for-update', 'nowait'];
  const PER_CASE = 14;

  it(`finds no duplicate in ${SCENARIOS.length * STRATEGIES.length * PER_CASE} random schedules`, async () => {
    let overlaps = 0;
    let schedules = 0;
    for (const id of SCENARIOS) {
      for (const strategy of STRATEGIES) {
        for (let seed = 1; seed <= PER_CASE; seed++) {
          const trace = await randomWalk(findScenario(id)!, { strategy, fencing: true }, seed * 1009 + strategy.length);
          schedules++;
          const bad = trace.anomalies.filter((a) => a.kind === 'duplicate-execution' || a.kind === 'split-ownership');
          expect(bad, `${id} ${strategy}: ${trace.schedule.join(',')}`).toEqual([]);
          // A claim made while another worker's claim transaction is still open: the overlap a double claim would need.
          const overlap = trace.steps.some((step) => step.action === 'claim' && step.workers.some((w) => w.id !== step.actor && w.phase === 'in-transaction'));
          if (overlap) overlaps++;
        }
      }
    }
    expect(schedules).toBe(SCENARIOS.length * STRATEGIES.length * PER_CASE);
    // The search really does put claims side by side, the only place a duplicate could come from.
    expect(overlaps).toBeGreaterThan(schedules / 4);
  }, 120_000);

  it('while the same random search does find duplicates with the naive claim', async () => {
    let duplicates = 0;
    for (let seed = 1; seed <= 14; seed++) {
      const trace = await randomWalk(findScenario('race')!, { strategy: 'naive', fencing: false }, seed * 1009);
      if (trace.anomalies.some((a) => a.kind === 'duplicate-execution')) duplicates++;
    }
    expect(duplicates).toBeGreaterThan(0);
  }, 60_000);
});
