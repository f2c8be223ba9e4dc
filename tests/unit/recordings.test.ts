/**
 * Traces recorded on a real PostgreSQL server (src/recordings/): each committed file still has the shape
 * the page reads (a file that drifted fails with what drifted, never draws something else), and the page
 * steps through one like any trace, labelled as recorded and never run on the tab's PGlite: Back and Next
 * step walk its steps; a move off its schedule is refused with why; a new claim or fencing, or the banner's
 * button, leaves it for READ COMMITTED, run here.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { RECORDING_PLANS, type RecordingId, recordedOn, recordingIdFor, whyRecorded } from '../../src/recordings';
import { recording } from '../../src/recordings/files';
import { parseRecording, RECORDING_FORMAT } from '../../src/recordings/recording';
import { PGLITE_HAS_ONE_SESSION } from '../../src/sim/isolation';
import { createLabStore, type LabStore } from '../../src/store/lab-store';
import { recordedTrace } from '../../src/engine/recorded';
import { CHALLENGES } from '../../src/lessons/challenges';
import { CHAPTERS } from '../../src/lessons/chapters';
import { findGenerator } from '../../src/lessons/predict';
import { recordedMove } from '../../src/store/recorded';
import { pointerOf, type StatementLine, workerProgram } from '../../src/store/worker-program';
import { findScenario } from '../../src/scenarios';
import { decodeView, encodeView } from '../../src/store/permalink';
import { recordingView } from '../../src/store/view';
import { InProcessLabClient } from '../../src/webworker/local-engine';

const NAIVE = RECORDING_PLANS.find((plan) => plan.id === 'race-naive-repeatable-read')!;
const LINK = '#scenario=race&strategy=naive&fencing=off&isolation=repeatable-read&schedule=&step=0';

function fileOf(id: string): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL(`../../src/recordings/${id}.json`, import.meta.url), 'utf8')) as Record<string, unknown>;
}

describe('the recording files', () => {
  it.each(RECORDING_PLANS.map((plan) => [plan.id, plan] as const))('%s has the shape the page reads, and its plan', (id, plan) => {
    const read = recording(id);
    expect(read.format).toBe(RECORDING_FORMAT);
    expect(read.serverVersion).toMatch(/^15\.\d+$/);
    expect(read.settings).toMatchObject({ strategy: plan.strategy, isolation: plan.isolation });
    // Every recording shows a 40001 but the write skew at REPEATABLE READ, which shows that nothing fails there.
    const failed = read.steps.some((step) => step.outcome?.status === 'error' && step.outcome.code === '40001');
    expect(failed).toBe(id !== 'tenant-cap-repeatable-read');
    expect(recordingIdFor(plan.scenarioId, read.settings)).toBe(id);
  });

  it('show what their plans say they show (the chapter and the summary read the plans)', () => {
    const failures = (id: RecordingId) =>
      recording(id)
        .steps.filter((step) => step.outcome?.status === 'error' && step.outcome.code === '40001')
        .map((step) => `${step.actor} ${step.action}`);
    expect(failures('race-naive-repeatable-read')).toEqual(['B naive-update']);
    expect(failures('race-cas-repeatable-read')).toEqual(['B cas-claim']);
    expect(failures('three-workers-skip-locked-serializable').slice(0, 2)).toEqual(['B commit', 'C commit']);
    expect(failures('tenant-cap-repeatable-read')).toEqual([]);
    expect(failures('tenant-cap-serializable')).toEqual(['B commit']);
    // Write skew: at REPEATABLE READ both claims of acme's runs commit; at SERIALIZABLE B claims again and takes beta's run 124.
    const acmeUnder = (step: { runs: { tenant: string; status: string; lease_owner: string | null; run_id: number }[] }) =>
      step.runs
        .filter((run) => run.tenant === 'acme' && run.status === 'running' && (run.lease_owner === 'A' || run.lease_owner === 'B'))
        .map((run) => run.run_id);
    const skewed = recording('tenant-cap-repeatable-read').steps;
    expect(acmeUnder(skewed.find((step) => step.actor === 'B' && step.action === 'commit')!)).toEqual([120, 121]);
    const held = recording('tenant-cap-serializable').steps;
    expect(held.filter((step) => step.actor === 'B' && step.action === 'claim').map((step) => step.runId)).toEqual([121, 124]);
    for (const id of ['race-naive-repeatable-read', 'race-cas-repeatable-read'] as const) {
      const steps = recording(id).steps;
      const failed = steps.findIndex((step) => step.outcome?.status === 'error');
      // B's UPDATE had waited for A (it resumes with A's commit); afterwards B claims run 124.
      expect(steps[failed]).toMatchObject({ resumed: true, token: 'A' });
      expect(
        steps.slice(failed).find((step) => step.actor === 'B' && step.verdict === 'ok' && step.action !== 'rollback' && step.action !== 'select')?.runId,
      ).toBe(124);
    }
    const serializable = recording('three-workers-skip-locked-serializable').steps;
    const firstCommit = serializable.find((step) => step.action === 'commit')!;
    expect(firstCommit).toMatchObject({ actor: 'A', outcome: { status: 'ok' } });
    for (const worker of ['B', 'C']) {
      const failed = serializable.findIndex((step) => step.actor === worker && step.outcome?.status === 'error');
      expect(serializable.slice(failed + 1).find((step) => step.actor === worker)?.action).toBe('claim');
    }
  });

  it('a file that drifted from the schema fails, naming what drifted', () => {
    const drifted = (change: (file: Record<string, unknown>, steps: Record<string, unknown>[]) => void) => {
      const file = fileOf(NAIVE.id);
      change(file, file.steps as Record<string, unknown>[]);
      return () => parseRecording(file, NAIVE);
    };
    expect(drifted(() => {})).not.toThrow();
    expect(
      drifted((file) => {
        file.format = 'lease-lab-recording/0';
      }),
    ).toThrow(/format/);
    expect(
      drifted((file) => {
        file.serverVersion = undefined;
      }),
    ).toThrow(/server version/);
    expect(
      drifted((file) => {
        file.settings = { strategy: 'cas', fencing: false, isolation: 'repeatable-read' };
      }),
    ).toThrow(/claim/);
    expect(
      drifted((file) => {
        file.settings = { strategy: 'naive', fencing: false, isolation: 'serializable' };
      }),
    ).toThrow(/level/);
    expect(
      drifted((file) => {
        file.schedule = ['B', 'A'];
      }),
    ).toThrow(/schedule/);
    expect(drifted((_file, steps) => delete steps[3]!.outcome)).toThrow(/step 3 has no valid outcome/);
    expect(
      drifted((_file, steps) => {
        steps[2]!.lockEvidence = [];
      }),
    ).toThrow(/step 2 has a field the page does not know: lockEvidence/);
    expect(
      drifted((_file, steps) => {
        steps[4]!.token = 'C';
      }),
    ).toThrow(/step 4's token/);
    expect(drifted((_file, steps) => steps.splice(1, 1))).toThrow(/step 1 says it is step 2/);
  });

  it('is labelled with the server it ran on and why the page does not run it', () => {
    expect(recordedOn(recording(NAIVE.id))).toBe('Recorded at REPEATABLE READ on PostgreSQL 15.18, not run in your browser');
    expect(whyRecorded('repeatable-read')).toBe(`${PGLITE_HAS_ONE_SESSION}, so REPEATABLE READ cannot run here`);
  });
});

describe('the moves a recording offers', () => {
  it('at each point only the recorded token; every other move is told why not; none off a recording', () => {
    const played = recording(NAIVE.id);
    expect(recordedMove(played, 'race', played.settings, played.steps, 0)).toEqual({
      next: 'A',
      why: expect.stringContaining('the recording\'s next step is "A"'),
    });
    expect(recordedMove(played, 'race', played.settings, played.steps, 1)?.next).toBe('B');
    const end = recordedMove(played, 'race', played.settings, played.steps, played.steps.length)!;
    expect(end).toEqual({ next: null, why: expect.stringContaining('the recording has ended; another move needs a new run on a server') });
    expect(recordedMove(played, 'race', { strategy: 'naive', fencing: false }, played.steps, 0)).toBeNull();
    expect(recordedMove(null, 'race', played.settings, played.steps, 0)).toBeNull();
  });
});

describe("the workers' programs on a recording", () => {
  it.each(
    RECORDING_PLANS.map((plan) => [plan.id] as const),
  )('%s: before each worker step the highlighted line is the statement the server ran, BEGIN ISOLATION LEVEL and the rollback included', (id) => {
    const played = recording(id);
    const scenario = findScenario(played.scenarioId)!;
    const programs = new Map(scenario.workers.map((worker) => [worker.id, workerProgram(worker.id, scenario, played.settings)]));
    const leads = [...programs.values()].flat().map((line) => (line.kind === 'statement' ? line.lead : null));
    expect(leads).toContain(`BEGIN ISOLATION LEVEL ${played.settings.isolation === 'serializable' ? 'SERIALIZABLE' : 'REPEATABLE READ'};`);
    const actions = new Set<string>();
    for (const step of played.steps) {
      if (!programs.has(step.actor)) continue; // the clock's steps: no worker's program
      const worker = (played.steps[step.index - 1]?.workers ?? played.initialWorkers).find((candidate) => candidate.id === step.actor)!;
      const program = programs.get(step.actor)!;
      const pointer = pointerOf(program, worker, scenario, played.settings, step.clockSeconds);
      expect(pointer.kind, `step ${step.index}`).toBe(step.resumed ? 'waiting' : 'next');
      const line = pointer.kind === 'ended' ? undefined : (program[pointer.line] as StatementLine);
      expect(line?.file, `step ${step.index}`).toBe(`${step.sqlId}.sql`);
      actions.add(step.action);
    }
    expect(actions).toContain('commit');
  });
});

describe('the predict question judged by a recording', () => {
  const generator = findGenerator('isolation-recorded')!;
  const instances = new Map(Array.from({ length: 40 }, (_, seed) => generator.generate(seed)).map((instance) => [instance.key, instance]));

  it('reads each answer from the recorded trace: 40001 for B at REPEATABLE READ; at SERIALIZABLE A commits, B and C fail 40001', async () => {
    const answers: Record<string, string | null> = {};
    for (const [key, instance] of instances) answers[key] = instance.answerFrom(await recordedTrace(instance.scenario, instance.settings, instance.schedule));
    expect(answers).toEqual({
      'race-naive-repeatable-read/B': 'fails-40001',
      'race-cas-repeatable-read/B': 'fails-40001',
      'three-workers-skip-locked-serializable/A': 'commits',
      'three-workers-skip-locked-serializable/B': 'fails-40001',
      'three-workers-skip-locked-serializable/C': 'fails-40001',
    });
  });

  it('a different recorded answer would be judged differently: nothing is hard-coded', async () => {
    const instance = instances.get('race-naive-repeatable-read/B')!;
    const trace = await recordedTrace(instance.scenario, instance.settings, instance.schedule);
    const changed = structuredClone(trace);
    const resumed = changed.steps.find((step) => step.actor === 'B' && step.resumed)!;
    resumed.outcome = { status: 'ok', rows: [], rowCount: 0 };
    expect(instance.answerFrom(changed)).toBe('zero-rows');
    expect(instance.explain(trace).join(' ')).toContain('could not serialize access due to concurrent update');
  });

  it('is never run on PGlite: a schedule off the recording, or a changed scenario, has no recorded answer', async () => {
    const instance = instances.get('race-naive-repeatable-read/B')!;
    await expect(recordedTrace(instance.scenario, instance.settings, ['A', 'A'])).rejects.toThrow(/step 2 \(A\): this trace was recorded on PostgreSQL 15\.18/);
    await expect(recordedTrace({ ...instance.scenario, leaseSeconds: 30 }, instance.settings, instance.schedule)).rejects.toThrow(/no trace of race~/);
  });
});

describe('links to a recording', () => {
  it('each opens exactly its recording; write skew is linked from the text that speaks of it, in both chapters and in the level', () => {
    for (const plan of RECORDING_PLANS) {
      const { view, problems } = decodeView(`#${encodeView(recordingView(plan.id))}`)!;
      expect(problems).toEqual([]);
      expect(recordingIdFor(view.scenarioId, view.settings)).toBe(plan.id);
    }
    const writeSkew = ['tenant-cap-repeatable-read', 'tenant-cap-serializable'];
    const stepsLinking = CHAPTERS.flatMap((chapter) => chapter.steps.filter((step) => writeSkew.every((id) => step.recordings?.includes(id as RecordingId))));
    expect(stepsLinking.length).toBe(2);
    for (const step of stepsLinking) expect(step.body.join(' ')).toContain('write skew');
    const level = CHALLENGES.find((challenge) => challenge.id === 'tenant-cap-race')!;
    expect(level.recordings).toEqual(writeSkew);
    expect(level.lesson).toContain('write skew');
  });

  it('carry the level, and read it back', () => {
    const view = {
      scenarioId: 'race',
      settings: { strategy: 'naive' as const, fencing: false, isolation: 'repeatable-read' as const },
      schedule: [],
      position: 0,
    };
    expect(`#${encodeView(view)}`).toBe(LINK);
    expect(decodeView(LINK)).toEqual({ view, problems: [] });
  });

  it('a level with no recording for that claim opens at READ COMMITTED and says why; an unknown level too', () => {
    const none = decodeView('#scenario=race&strategy=skip-locked&isolation=serializable')!;
    expect(none.view.settings).toEqual({ strategy: 'skip-locked', fencing: false });
    expect(none.problems.join(' ')).toContain(`No trace of this scenario and claim was recorded at SERIALIZABLE, and ${PGLITE_HAS_ONE_SESSION}`);
    const unknown = decodeView('#scenario=race&strategy=naive&isolation=snapshot')!;
    expect(unknown.view.settings.isolation).toBeUndefined();
    expect(unknown.problems.join(' ')).toContain('There is no isolation level "snapshot"');
  });
});

describe('the page steps through a recording', () => {
  let db: Promise<LabDatabase>;
  beforeAll(() => {
    db = bootLabDatabase();
  });

  async function lab(fragment: string): Promise<LabStore> {
    const store = createLabStore({ lab: new InProcessLabClient(() => db), storage: null, sleep: async () => {} });
    await store.getState().start(fragment);
    return store;
  }

  it("opens before the first step; Next step takes the server's steps, to B's 40001 and its rollback; Back walks back", async () => {
    const store = await lab(LINK);
    const recorded = recording(NAIVE.id);
    expect(store.getState()).toMatchObject({ position: 0, steps: [], traceSettings: recorded.settings, initialRuns: recorded.initialRuns });
    expect(store.getState().recorded).toEqual({ serverVersion: recorded.serverVersion, schedule: recorded.schedule });
    while (store.getState().steps.length < recorded.steps.length) expect(await store.getState().step()).toBe(true);
    const { steps, schedule, position } = store.getState();
    expect(steps).toEqual(recorded.steps);
    expect(schedule).toEqual(recorded.schedule);
    expect(position).toBe(recorded.steps.length);
    const failed = steps.find((step) => step.outcome?.status === 'error')!;
    expect(failed).toMatchObject({
      actor: 'B',
      action: 'naive-update',
      outcome: { code: '40001', message: 'could not serialize access due to concurrent update' },
    });
    // At its end nothing more happens: the recording is over, and nothing was run here.
    expect(await store.getState().step()).toBe(false);
    expect(store.getState().trace().database).toBe('postgres');
    store.getState().back();
    expect(store.getState().position).toBe(recorded.steps.length - 1);
  });

  it('a move off the recorded schedule is refused with why; the recorded move is taken', async () => {
    const store = await lab(LINK);
    await store.getState().step();
    expect(store.getState().schedule).toEqual(['A']);
    // The recording's next step is B's: A cannot step instead.
    expect(await store.getState().stepWorker('A')).toBe(false);
    const notice = store.getState().notices.at(-1)!;
    expect(notice.title).toBe('That cannot happen now (stepping worker A).');
    expect(notice.details.join(' ')).toContain('This trace was recorded on PostgreSQL 15.18 and the recording\'s next step is "B"');
    expect(notice.details.join(' ')).toContain('npm run sim -- run race --strategy naive --isolation repeatable-read --db postgres://…');
    expect(store.getState().schedule).toEqual(['A']);
    expect(await store.getState().advanceClock(30)).toBe(false);
    expect(await store.getState().stepWorker('B')).toBe(true);
    expect(store.getState().steps).toEqual(recording(NAIVE.id).steps.slice(0, 2));
  });

  it('the console does not pretend to read the recorded rows', async () => {
    const store = await lab(LINK);
    await store.getState().step();
    const answer = await store.getState().runConsole('SELECT * FROM runs');
    expect(answer).toEqual({ kind: 'refused', reason: expect.stringContaining('this trace was recorded on PostgreSQL 15.18') });
  });

  it('leaving it plays the same schedule at READ COMMITTED on PGlite, where both claim run 123', async () => {
    const store = await lab(LINK);
    for (let i = 0; i < 4; i++) await store.getState().step();
    await store.getState().leaveRecording();
    const state = store.getState();
    expect(state.traceSettings).toEqual({ strategy: 'naive', fencing: false });
    expect(state.recorded).toBeNull();
    expect(state.trace().database).toBe('pglite');
    expect(state.steps.find((step) => step.actor === 'B' && step.action === 'naive-update')).toMatchObject({ verdict: 'ok', runId: 123 });
  });

  it('a new claim or fencing leaves the recording', async () => {
    const store = await lab(LINK);
    await store.getState().chooseStrategy('cas');
    expect(store.getState().traceSettings).toEqual({ strategy: 'cas', fencing: false });
    const other = await lab(LINK);
    await other.getState().setFencing(true);
    expect(other.getState().traceSettings).toEqual({ strategy: 'naive', fencing: true });
  });
});
