/**
 * The chapter "What production queues do" against the real engine on PGlite: its steps say what the
 * incidents' replays show, and its two predict questions ("What happens to this long job?", "Does the late
 * finish land?") get, for every combination of their parameters, the answer the queues' own rules give
 * (RESEARCH.md §A, §E and each strategy's `queue` facts). The engine decides; this table must agree with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import { chapterById } from '../../src/lessons/chapters';
import { lateFinish, longJob } from '../../src/lessons/predict';
import { QUIZ } from '../../src/lessons/quiz';
import { matchesExpectation, stepsAtToken } from '../../src/lessons/trace-read';
import type { RunTrace } from '../../src/lessons/types';
import { findScenario, INCIDENT_SCENARIOS } from '../../src/scenarios';
import { createEngineRunner } from '../support/lesson-runner';
import { everyCombination, lateFinishCombination, longJobCombination } from '../support/predict-combinations';

let db: PGliteLab;
let run: RunTrace;

beforeAll(async () => {
  db = await bootLabDatabase();
  run = createEngineRunner(db);
});

afterAll(async () => {
  await db?.close();
});

describe('the chapter "What production queues do"', () => {
  const chapter = chapterById('production-queues');

  it('walks through each of the four incidents, under its queue and under its fix, and asks both predict questions', () => {
    const marked = chapter.steps.flatMap((step) => (step.mark ? [step.mark.scenarioId ?? chapter.scenarioId!] : []));
    for (const id of ['incident-graphile-169', 'incident-oban-hexpm-1825', 'incident-pg-boss-555', 'incident-solid-queue-589']) {
      expect(marked, id).toContain(id);
      expect(INCIDENT_SCENARIOS.map((s) => s.id)).toContain(id);
    }
    const fencedOrFixed = chapter.steps.filter((step) => step.mark?.settings && (step.mark.settings.fencing || step.mark.settings.strategy === 'skip-locked'));
    expect(fencedOrFixed.length).toBeGreaterThanOrEqual(3);
    expect(chapter.steps.flatMap((step) => step.predict ?? [])).toEqual(['long-job', 'late-finish']);
  });

  it('has at least six quiz questions of its own, two of them graded by the engine', () => {
    const own = QUIZ.filter((q) => q.chapterId === 'production-queues');
    expect(own.length).toBeGreaterThanOrEqual(6);
    expect(own.filter((q) => q.kind === 'predict').map((q) => q.kind === 'predict' && q.generatorId)).toEqual(['long-job', 'late-finish']);
    expect(QUIZ).toHaveLength(44);
  });

  it("the fix for graphile-worker #169: the heartbeat at 18:00 moves the lease 4 hours on, past the second worker's poll", async () => {
    const step = chapter.steps.find((s) => s.id === 'graphile-fix')!;
    const trace = await run(findScenario('incident-graphile-169')!, step.mark!.settings!, step.mark!.schedule!);
    const beat = stepsAtToken(trace, 4).find((s) => s.actor === 'A' && s.action === 'heartbeat')!;
    expect(beat.verdict).toBe('ok');
    expect(beat.workers.find((w) => w.id === 'A')!.leaseExpiresAtSeconds).toBe(7 * 3600);
    expect(matchesExpectation(trace, step.mark!.tokenIndex!, step.mark!.expect)).toBe(true);
    expect(trace.anomalies).toEqual([]);
  });

  it('without the fix, the same schedule hands the run to B: the mark a step earlier is the incident itself', async () => {
    const fix = chapter.steps.find((s) => s.id === 'graphile-fix')!.mark!;
    const trace = await run(findScenario('incident-graphile-169')!, chapter.settings!, fix.schedule!);
    expect(matchesExpectation(trace, fix.tokenIndex!, { actor: 'B', action: 'claim', verdict: 'ok', fact: { kind: 'claimed', generation: 19 } })).toBe(true);
  });
});

describe('predict: what happens to this long job?', () => {
  // Takes the run iff the claim ends ownership by time and B polls past the horizon; a renewed lease never lets it.
  const combinations = everyCombination(longJob, longJobCombination);

  it('plays every claim, horizon and poll time', () => {
    // graphile-worker 1 horizon, Oban 2, pg-boss 2, River 1, the lab's claim 2; each polled before and after.
    expect(combinations.size).toBe(16);
  });

  it.each([...combinations.entries()])("%s: the engine answers as the claim's rule says", async (name, instance) => {
    const [strategy, , when] = name.split('/');
    const expected = strategy !== 'skip-locked' && when === 'after' ? 'twice' : 'once';
    const trace = await run(instance.scenario, instance.settings, instance.schedule);
    expect(trace.schedule).toEqual(instance.schedule);
    expect(instance.answerFrom(trace), instance.prompt).toBe(expected);
    expect(instance.explain(trace).join('\n')).toContain(expected === 'twice' ? 'past it' : 'before it');
  });
});

describe('predict: does the late finish land?', () => {
  const combinations = everyCombination(lateFinish, lateFinishCombination);

  it('plays every production queue, fencing on and off, and either worker finishing first (graphile-worker, which deletes a done job, only A first)', () => {
    expect(combinations.size).toBe(6 * 2 * 2 - 2);
    expect([...combinations.keys()].filter((name) => name.startsWith('graphile-worker/') && name.endsWith('/b-first'))).toEqual([]);
  });

  // By id it always lands; by state (active, running, todo or doing) only while the new owner has not finished;
  // the lab's generation fence and Solid Queue's claim row never let it.
  const BY_STATE = ['pg-boss', 'river', 'procrastinate'];

  it.each([...combinations.entries()])("%s: the engine answers as the queue's guard says", async (name, instance) => {
    const [strategy, fencing, order] = name.split('/');
    const expected = fencing === 'on' ? 'rejected' : BY_STATE.includes(strategy!) && order === 'b-first' ? 'rejected' : 'lands';
    const trace = await run(instance.scenario, instance.settings, instance.schedule);
    expect(trace.schedule).toEqual(instance.schedule);
    expect(instance.answerFrom(trace), instance.prompt).toBe(expected);
    if (expected === 'lands') expect(trace.anomalies.map((a) => a.kind)).toContain('split-ownership');
  });
});
