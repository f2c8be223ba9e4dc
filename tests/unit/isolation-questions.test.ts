/**
 * The questions on isolation levels are judged by PostgreSQL's recorded answers (src/recordings/), never by
 * text written beside them: the quiz's right choices are computed here from the recordings, and the predict
 * question on write skew reads its answer from the recorded trace. A re-recording where PostgreSQL answered
 * otherwise (the ground truth would then fail too) makes these tests fail.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { LabDatabase } from '../../src/db/port';
import { recordedTrace } from '../../src/engine/recorded';
import { runSchedule } from '../../src/engine/run';
import { findGenerator } from '../../src/lessons/predict';
import { QUIZ } from '../../src/lessons/quiz';
import type { SingleChoiceQuestion } from '../../src/lessons/types';
import type { RecordingId } from '../../src/recordings';
import { recording } from '../../src/recordings/files';
import { findScenario } from '../../src/scenarios';
import type { TraceStep } from '../../src/sim/types';

const question = (id: string) => QUIZ.find((candidate) => candidate.id === id) as SingleChoiceQuestion;
const rightChoice = (id: string) => question(id).choices.find((choice) => choice.correct)?.id;
const failed40001 = (step: TraceStep | undefined) => step?.outcome?.status === 'error' && step.outcome.code === '40001';

/** What B's COMMIT did in a recording of the tenant cap, and how many of acme's runs A and B then ran. */
function writeSkewOutcome(id: RecordingId): 'commits-two' | 'commits-one' | 'fails-40001' | 'waits' | 'other' {
  const commit = recording(id).steps.find((step) => step.actor === 'B' && step.action === 'commit');
  if (failed40001(commit)) return 'fails-40001';
  if (commit?.outcome?.status === 'blocked') return 'waits';
  if (commit?.outcome?.status !== 'ok') return 'other';
  const acme = commit.runs.filter((run) => run.tenant === 'acme' && run.status === 'running' && ['A', 'B'].includes(run.lease_owner ?? ''));
  return acme.length === 2 ? 'commits-two' : 'commits-one';
}

describe('q-write-skew', () => {
  it("its right choice is what the tenant cap's recordings show: at REPEATABLE READ both commit and acme runs two; at SERIALIZABLE B's COMMIT fails 40001", () => {
    const choiceFor: Record<string, string> = {
      'commits-two/fails-40001': 'rr-commits-serializable-fails',
      'fails-40001/fails-40001': 'both-fail',
      'commits-two/commits-two': 'both-commit',
      'waits/waits': 'waits',
    };
    const recorded = `${writeSkewOutcome('tenant-cap-repeatable-read')}/${writeSkewOutcome('tenant-cap-serializable')}`;
    expect(recorded).toBe('commits-two/fails-40001');
    expect(rightChoice('q-write-skew')).toBe(choiceFor[recorded]);
    expect(recording('tenant-cap-serializable').steps.find((step) => failed40001(step))?.outcome).toMatchObject({
      message: 'could not serialize access due to read/write dependencies among transactions',
    });
    expect(question('q-write-skew').explanation).toContain('could not serialize access due to read/write dependencies among transactions');
  });

  it("its explanation holds after the 40001: B claims again, sees acme at its cap, and takes beta's run; acme never runs two", () => {
    const steps = recording('tenant-cap-serializable').steps;
    const failed = steps.findIndex((step) => failed40001(step));
    const retry = steps.slice(failed).find((step) => step.actor === 'B' && step.action === 'claim');
    expect(retry?.runs.find((run) => run.run_id === retry.runId)?.tenant).toBe('beta');
    for (const step of steps) {
      const acme = step.runs.filter((run) => run.tenant === 'acme' && run.status === 'running' && run.lease_owner !== 'C');
      expect(acme.length, `step ${step.index}`).toBeLessThanOrEqual(1);
    }
  });
});

describe('q-claim-isolation', () => {
  let db: Promise<LabDatabase>;
  beforeAll(() => {
    db = bootLabDatabase();
  });

  it('its right choice is what PostgreSQL did: at SERIALIZABLE two of three SKIP LOCKED claims failed 40001 at COMMIT; at READ COMMITTED none fails and each takes another run', async () => {
    const serializable = recording('three-workers-skip-locked-serializable');
    const firstCommits = ['A', 'B', 'C'].map((worker) => serializable.steps.find((step) => step.actor === worker && step.action === 'commit'));
    expect(firstCommits.map((step) => (failed40001(step) ? '40001' : step?.outcome?.status))).toEqual(['ok', '40001', '40001']);

    const scenario = findScenario(serializable.scenarioId)!;
    const readCommitted = await runSchedule(await db, scenario, { strategy: 'skip-locked', fencing: serializable.settings.fencing }, scenario.script);
    expect(readCommitted.steps.filter((step) => step.outcome?.status === 'error')).toEqual([]);
    const claimed = ['A', 'B', 'C'].map((worker) => readCommitted.steps.find((step) => step.actor === worker && step.action === 'claim')?.runId);
    expect(new Set(claimed).size).toBe(3);
    expect(claimed).toEqual(firstCommits.map((step) => step?.runId));

    const aborted = firstCommits.some((step) => failed40001(step));
    expect(rightChoice('q-claim-isolation')).toBe(aborted ? 'aborts' : undefined);
  });
});

describe('the predict question on write skew', () => {
  const generator = findGenerator('write-skew-recorded')!;
  const instances = new Map(Array.from({ length: 40 }, (_, seed) => generator.generate(seed)).map((instance) => [instance.key, instance]));

  it('reads each answer from the recorded trace, at both levels', async () => {
    const answers: Record<string, string | null> = {};
    for (const [key, instance] of instances) answers[key] = instance.answerFrom(await recordedTrace(instance.scenario, instance.settings, instance.schedule));
    expect(answers).toEqual({
      'tenant-cap-repeatable-read/commit': 'commits',
      'tenant-cap-repeatable-read/count': 'two',
      'tenant-cap-serializable/commit': 'fails-40001',
      'tenant-cap-serializable/count': 'one',
    });
  });

  it('a different recorded answer would be judged differently, and the explanation narrates the retry', async () => {
    const instance = instances.get('tenant-cap-serializable/commit')!;
    const trace = await recordedTrace(instance.scenario, instance.settings, instance.schedule);
    const changed = structuredClone(trace);
    changed.steps.find((step) => step.actor === 'B' && step.action === 'commit')!.outcome = { status: 'ok', rows: [], rowCount: 0 };
    expect(instance.answerFrom(changed)).toBe('commits');
    const explained = instance.explain(trace).join(' ');
    expect(explained).toContain('could not serialize access due to read/write dependencies among transactions');
    expect(explained).toContain('B now owns run 124');
    expect(explained).toContain("After B's COMMIT acme runs one run (120)");
  });
});
