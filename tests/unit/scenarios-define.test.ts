import { describe, expect, it } from 'vitest';
import { defineScenario, SCENARIO_DEFAULTS } from '../../src/scenarios/define';
import { LESSON_SCENARIOS } from '../../src/scenarios';

describe('defineScenario', () => {
  it('builds every scenario exactly as its snapshot says, field order included', async () => {
    // Every scenario fully written out, as defineScenario fills in the defaults. A default that changes, or a
    // scenario that loses a field it needed to state, changes what a learner sees; the snapshot catches both.
    // Byte for byte: traces and permalinks serialise scenarios' data, so even the key order stays. After a
    // deliberate change, `npx vitest run tests/unit/scenarios-define.test.ts -u` rewrites it; read its diff.
    await expect(`${JSON.stringify(LESSON_SCENARIOS, null, 2)}\n`).toMatchFileSnapshot('./__snapshots__/lesson-scenarios.json');
  });

  it('fills in SCENARIO_DEFAULTS for every field a scenario does not state', () => {
    const plain = defineScenario({ id: 'plain', title: 'Plain', summary: 'Plain.', script: ['A'], concepts: [] });
    expect(plain).toStrictEqual({ id: 'plain', title: 'Plain', summary: 'Plain.', ...SCENARIO_DEFAULTS, script: ['A'], concepts: [] });
  });

  it('gives each scenario its own copy of a default, so changing one changes no other', () => {
    const defaults = structuredClone(SCENARIO_DEFAULTS);
    const first = defineScenario({ id: 'one', title: 'One', summary: 'One.', script: ['A'], concepts: [] });
    const second = defineScenario({ id: 'two', title: 'Two', summary: 'Two.', script: ['A'], concepts: [] });
    first.workers.push({ id: 'C' });
    first.runs[0]!.leaseGeneration = 99;
    first.faults.push({ kind: 'crash', worker: 'A', atSeconds: 1 });
    expect(second.workers).toEqual(defaults.workers);
    expect(second.runs).toEqual(defaults.runs);
    expect(second.faults).toEqual(defaults.faults);
    expect(SCENARIO_DEFAULTS).toStrictEqual(defaults);
  });

  const base = { id: 'bad', title: 'Bad', summary: 'Bad.', concepts: [] };

  it('refuses a script step that is not a schedule token, with the schedule parser’s message', () => {
    expect(() => defineScenario({ ...base, script: ['A', 'jump'] })).toThrow(
      'scenario "bad": step 2 (jump): "jump" is not a schedule step; use a worker letter (A), +SECONDS, pause:A, resume:A, crash:A, restart:A, cancel:RUN, kill:RUN or rescue',
    );
    expect(() => defineScenario({ ...base, script: ['+0'] })).toThrow('scenario "bad": step 1 (+0): "+0": the clock moves between 1 and 86400 seconds');
  });

  it('refuses a script or a fault that names a worker or a run the scenario lacks, as the simulation would', () => {
    expect(() => defineScenario({ ...base, script: ['A', 'C'] })).toThrow('scenario "bad": step 2 (C): this scenario has no worker C; its workers are A, B');
    expect(() => defineScenario({ ...base, script: ['crash:D'] })).toThrow('step 1 (crash:D): this scenario has no worker D; its workers are A, B');
    expect(() => defineScenario({ ...base, script: ['cancel:999'] })).toThrow('scenario "bad": step 1 (cancel:999): there is no run 999; the runs are 123');
    expect(() => defineScenario({ ...base, script: [], faults: [{ kind: 'pause', worker: 'Z', atSeconds: 1, forSeconds: 5 }] })).toThrow(
      'scenario "bad": fault 1 (pause): this scenario has no worker Z; its workers are A, B',
    );
  });

  it('refuses workers that are not single capital letters, and duplicate workers or runs', () => {
    expect(() => defineScenario({ ...base, script: [], workers: [{ id: 'worker-1' }] })).toThrow(
      'scenario "bad": worker "worker-1" is not named by one capital letter (A, B, C…)',
    );
    expect(() => defineScenario({ ...base, script: [], workers: [{ id: 'A' }, { id: 'A' }] })).toThrow('scenario "bad": two workers are named A');
    // Two letters may share a name (delayed_job #1045), but a name is 1 to 40 characters.
    expect(() =>
      defineScenario({
        ...base,
        script: [],
        workers: [
          { id: 'A', name: 'host:x pid:1' },
          { id: 'B', name: 'host:x pid:1' },
        ],
      }),
    ).not.toThrow();
    expect(() => defineScenario({ ...base, script: [], workers: [{ id: 'A', name: ' ' }, { id: 'B' }] })).toThrow(
      `scenario "bad": worker A's name must be 1 to 40 characters, not " "`,
    );
    expect(() =>
      defineScenario({
        ...base,
        script: [],
        runs: [
          { runId: 1, createdAtSeconds: 0 },
          { runId: 1, createdAtSeconds: 1 },
        ],
      }),
    ).toThrow('scenario "bad": two runs have id 1');
  });
});
