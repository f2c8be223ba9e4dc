/**
 * "Edit a copy": every built-in scenario converts to an authored spec that plays exactly as the built-in
 * does, the same trace step for step under its own strategy with fencing on and off (played on PGlite), survives the
 * link and the Web Worker boundary, and leaves the built-in as it was. A scenario the spec cannot carry
 * says which setting in one sentence. The new spec fields are each checked with one message.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { runSchedule } from '../../src/engine/run';
import { FIX_SCENARIOS, SCENARIOS, scenarioSummary } from '../../src/scenarios';
import { adoptAuthored, copySpecOf, type ScenarioSpec, scenarioFromSpec, specOf, starterSpec } from '../../src/scenarios/authored';
import { decodeScenarioParam, encodeSpec } from '../../src/scenarios/link';
import { swarmScenario } from '../../src/scenarios/swarm';
import type { Scenario, Trace } from '../../src/sim/types';

const BUILT_IN: readonly Scenario[] = [...SCENARIOS, ...FIX_SCENARIOS];

function copyOf(scenario: Scenario): Scenario {
  const copy = copySpecOf(scenario);
  if ('reason' in copy) throw new Error(copy.reason);
  const built = scenarioFromSpec(copy.spec);
  if (built.scenario === null) throw new Error(built.problems[0]?.message);
  return built.scenario;
}

/** A trace without the scenario's id, which is all a copy may change. */
const played = ({ scenario: _id, ...rest }: Trace) => rest;

describe('a copy of each built-in scenario', () => {
  it.each(BUILT_IN.map((scenario) => [scenario.id, scenario] as const))('%s converts, travels in a link and leaves the built-in as it was', (_, scenario) => {
    const before = structuredClone(scenario);
    const copy = copyOf(scenario);
    expect(copy.id).toMatch(/^authored-[0-9a-f]{8}$/);
    expect(copy.title).toMatch(/ \(copy\)$/);
    expect(copy.title.length).toBeLessThanOrEqual(80);
    expect(decodeScenarioParam(encodeSpec(specOf(copy))).scenario?.id).toBe(copy.id);
    expect(adoptAuthored(structuredClone(copy)).id).toBe(copy.id);
    expect(scenario).toEqual(before);
  });
});

describe('a copy plays as its built-in does, on PGlite', () => {
  let db: PGliteLab;
  beforeAll(async () => {
    db = await bootLabDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  // The scenario's own schedule under its own strategy with fencing on and off, and one more schedule
  // (the lab's round-robin, then a clock move past the lease and the other order) under its default
  // settings. One strategy is enough: a copy carries the scenario's settings, which no strategy changes,
  // and every strategy under every scenario costs 30 plays each (about 10 s more of npm test).
  it.each(BUILT_IN.map((scenario) => [scenario.id, scenario] as const))('%s', async (_, scenario) => {
    const copy = copyOf(scenario);
    const letters = scenario.workers.map((worker) => worker.id);
    const other = [...letters, ...letters, `+${scenario.leaseSeconds + 1}`, ...letters.reverse(), ...(scenario.rescuer ? ['rescue'] : [])];
    const plays = [
      ...[true, false].map((fencing) => ({ settings: { strategy: scenario.defaultStrategy, fencing }, schedule: scenario.script })),
      { settings: { strategy: scenario.defaultStrategy, fencing: scenario.defaultFencing }, schedule: other },
    ];
    for (const { settings, schedule } of plays) {
      const want = await runSchedule(db, scenario, settings, schedule, { onInapplicable: 'skip' });
      const got = await runSchedule(db, copy, settings, schedule, { onInapplicable: 'skip' });
      expect(played(got), `${settings.strategy}, fencing ${settings.fencing ? 'on' : 'off'}, ${schedule.join(',')}`).toEqual(played(want));
    }
  });
});

describe('a scenario the editor cannot carry', () => {
  it('says which setting, in one sentence', () => {
    const costly = { ...swarmScenario(1), costPerCallCents: 25, id: 'x', title: 'Costly' };
    expect(copySpecOf(costly)).toEqual({ reason: "Costly cannot be copied into the editor: it has no field for this scenario's cost per model call." });
    const done: Scenario = { ...BUILT_IN[0]!, runs: [{ runId: 5, createdAtSeconds: -60, status: 'done' }] };
    expect(copySpecOf(done)).toEqual({ reason: `${done.title} cannot be copied into the editor: it has no field for this scenario's seeded runs.` });
  });
});

describe('the fields a copy brings', () => {
  const spec = (patch: Partial<ScenarioSpec>): ScenarioSpec => ({ ...starterSpec(), ...patch });
  const run = { runId: 1, tenant: 'acme', costCents: 0 };
  it.each<[string, Partial<ScenarioSpec>, string, string]>([
    ['no model calls', { workSteps: 0 }, 'workSteps', 'a worker makes 1 to 10 model calls per run, not 0'],
    [
      'a stuck worker without heartbeats',
      { stuckWorkers: ['A'], heartbeatSeconds: null },
      'workers.A.stuck',
      'worker A is stuck, which shows only in its heartbeats: turn heartbeats on',
    ],
    [
      'a rescuer stalling before the start',
      { rescuer: { stallsAtSeconds: -1 } },
      'rescuer.stallsAtSeconds',
      'the rescuer must stall a whole number of seconds from 0 to 86400 after the start, not -1',
    ],
    [
      'a negative generation',
      { runs: [{ ...run, leaseGeneration: -1 }] },
      'runs.0.leaseGeneration',
      'run 1: its lease generation must be a whole number from 0 to 2147483647, not -1',
    ],
    [
      'a run created after the start',
      { runs: [{ ...run, createdAtSeconds: 5 }] },
      'runs.0.createdAtSeconds',
      'run 1: it must be created a whole number of seconds from 86400 to 0 before the start, not -5',
    ],
    [
      'one run timed, one not',
      {
        runs: [
          { ...run, createdAtSeconds: -5 },
          { ...run, runId: 2 },
        ],
      },
      'runs',
      'give every run a created time, or none (a minute apart, in the order listed)',
    ],
    [
      'runs listed newest first',
      {
        runs: [
          { ...run, createdAtSeconds: -5 },
          { ...run, runId: 2, createdAtSeconds: -50 },
        ],
      },
      'runs.1.createdAtSeconds',
      'run 2 must be created after run 1: the runs are listed oldest first',
    ],
    [
      'a lease held by no name',
      { runs: [{ ...run, heldBy: { owner: ' ', untilSeconds: 30 } }] },
      'runs.0.leaseOwner',
      'run 1: the name holding its lease must be 1 to 40 characters, not " "',
    ],
  ])('%s: one message', (_, patch, field, message) => {
    const problems = scenarioFromSpec(spec(patch)).problems;
    expect(problems).toEqual([{ field, message }]);
  });

  it('are absent from a spec that does not use them, so its link and id stay as they were', () => {
    const plain = scenarioFromSpec(starterSpec()).scenario!;
    expect(specOf(plain)).toEqual(starterSpec());
    expect(plain.id).toBe(scenarioFromSpec(spec({ workSteps: 2 })).scenario!.id);
  });
});

describe("a copy's description", () => {
  it("is shown under the claim it opens with, even a queue's or a limit's", () => {
    for (const id of ['incident-oban-532', 'tenant-backlog']) {
      const scenario = BUILT_IN.find((each) => each.id === id)!;
      const copy = copyOf(scenario);
      expect(scenarioSummary(copy, copy.defaultStrategy)).toBe(scenario.summary);
    }
  });
});
