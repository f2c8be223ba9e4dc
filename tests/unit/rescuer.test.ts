/**
 * A queue's rescuer as its own process (the `rescue` token, src/engine/simulation.ts): its read of stuck runs
 * and its write per run are separate statements on their own session, drawn in their own timeline lane.
 * The same scripts on a real server: tests/ground-truth/graph-queues.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runSchedule } from '../../src/engine/run';
import { findScenario, INCIDENT_SCENARIOS } from '../../src/scenarios';
import { strategyDefinition } from '../../src/strategies';
import { defineScenario } from '../../src/scenarios/define';
import { formatToken, parseSchedule, parseToken, ScheduleError } from '../../src/sim/schedule';
import type { Trace, TraceStep } from '../../src/sim/types';
import { markLabel, stepTitle } from '../../src/timeline/describe';
import { layoutTimeline } from '../../src/timeline/layout';
import { labDatabase, runScenario } from '../support/lab';

const rescuerSteps = (trace: Trace) => trace.steps.filter((step) => step.actor === 'rescuer');
const runAfter = (step: TraceStep, runId = 123) => step.runs.find((run) => run.run_id === runId)!;
/** A statement file's text as the lab runs it (statementText drops the final semicolon). */
const fileText = (path: string) =>
  readFileSync(join(__dirname, '../..', path), 'utf8')
    .trim()
    .replace(/;$/, '');

describe('the rescue token', () => {
  it('reads and writes back the same, and takes no argument', () => {
    expect(parseToken('rescue')).toEqual({ kind: 'rescue' });
    expect(formatToken(parseToken(' rescue '))).toBe('rescue');
    expect(parseSchedule('A, rescue,+30')).toEqual(['A', 'rescue', '+30']);
    for (const bad of ['rescue:A', 'rescue:123', 'Rescue', 'rescuer']) expect(() => parseToken(bad), bad).toThrow(ScheduleError);
    expect(() => parseToken('jump')).toThrow(/kill:RUN or rescue/);
  });
});

describe('the incidents and their rescuers', () => {
  it("every incident where a run comes back plays its queue's rescue as the rescuer's own steps; River PR #141's cancel and the fetches that take jobs back themselves need none", () => {
    const withRescuer = INCIDENT_SCENARIOS.filter((scenario) => scenario.rescuer);
    // pgqueuer, Hangfire.PostgreSql and delayed_job have no rescue pass: their fetch itself takes back a job whose timeout passed.
    // DBOS's recovery at launch is no rescuer either: a lane of the process that runs what it recovers (WorkerSpec.recovery).
    expect(INCIDENT_SCENARIOS.filter((scenario) => !scenario.rescuer).map((s) => s.id)).toEqual([
      'incident-river-141',
      'incident-pgqueuer-430',
      'incident-hangfire-352',
      'incident-delayed-job-1045',
      'incident-dbos-491',
    ]);
    for (const scenario of withRescuer) {
      expect(scenario.script, scenario.id).toContain('rescue');
      expect(strategyDefinition(scenario.incident!.queue).rescuer, scenario.id).toBeDefined();
    }
  });
});

describe("River #1302: the rescuer's read and write around a completion", () => {
  it("under River's own rescue (before PR #1373) the write, by id alone, puts the completed run back to pending and B runs it again", async () => {
    const trace = await runScenario('incident-river-1302', 'script');
    const [fetch, write] = rescuerSteps(trace);
    expect(rescuerSteps(trace).map((s) => [s.action, s.sqlId, s.verdict])).toEqual([
      ['rescue-fetch', 'river-rescue-fetch', 'ok'],
      ['rescue', 'river-rescue', 'ok'],
    ]);
    // The text shown is the file's, and the read found the run A was still running.
    expect(fetch!.sql!.trim()).toBe(fileText('src/strategies/river/river-rescue-fetch.sql'));
    expect(fetch!.outcome).toMatchObject({ status: 'ok', rows: [{ run_id: 123, lease_generation: 18 }] });
    expect(runAfter(fetch!).status).toBe('running');
    // A completes between the read and the write.
    const complete = trace.steps.find((s) => s.actor === 'A' && s.action === 'complete')!;
    expect(complete.index).toBeGreaterThan(fetch!.index);
    expect(complete.index).toBeLessThan(write!.index);
    expect(runAfter(complete).status).toBe('done');
    expect(write!.params).toEqual([123]);
    expect(runAfter(write!)).toMatchObject({ status: 'pending', lease_owner: null });
    expect(write!.facts).toEqual([{ kind: 'rescued-finished-run', run: 123, was: { status: 'done', owner: 'A' } }]);
    // The claim is River's without the rescue folded in, and B's claim takes the run again.
    const claims = trace.steps.filter((s) => s.action === 'claim');
    expect(new Set(claims.map((s) => s.sqlId))).toEqual(new Set(['river-claim-available']));
    expect(claims.map((s) => [s.actor, s.runId, s.verdict])).toEqual([
      ['A', 123, 'ok'],
      ['B', 123, 'ok'],
    ]);
    const duplicate = trace.anomalies.find((a) => a.kind === 'duplicate-execution')!;
    expect(duplicate.workers).toEqual(['A', 'B']);
    expect(stepTitle(write!)).toContain('rescuer · rescue');
  });

  it("under PR #1373's re-check (fencing on) the write matches no row: the run stays done and B finds nothing", async () => {
    const trace = await runScenario('incident-river-1302', 'script', { fencing: true });
    const write = rescuerSteps(trace).find((s) => s.action === 'rescue')!;
    expect(write.sqlId).toBe('river-rescue-guarded');
    expect(write.params).toEqual([123, 18]);
    expect(write.verdict).toBe('rejected');
    expect(write.outcome).toMatchObject({ status: 'ok', rowCount: 0 });
    expect(runAfter(write).status).toBe('done');
    expect(trace.finalRuns[0]).toMatchObject({ status: 'done', lease_owner: 'A', lease_generation: 18 });
    expect(trace.steps.filter((s) => s.actor === 'B').every((s) => s.verdict === 'empty')).toBe(true);
    expect(trace.anomalies).toEqual([]);
  });

  it('a claim that takes back expired leases itself has no rescuer to run: the token is an event with no SQL', async () => {
    const trace = await runScenario('incident-river-1302', 'script', { strategy: 'skip-locked', fencing: false });
    const steps = rescuerSteps(trace);
    expect(steps.map((s) => [s.action, s.sql, s.verdict])).toEqual([
      ['rescue-idle', null, 'event'],
      ['rescue-idle', null, 'event'],
    ]);
  });

  it("where a scenario has no rescuer, River's claim keeps the rescue folded in", async () => {
    const trace = await runScenario('paused-worker', 'script', { strategy: 'river', fencing: false });
    expect(new Set(trace.steps.filter((s) => s.action === 'claim').map((s) => s.sqlId))).toEqual(new Set(['river-claim']));
    const idle = await runScenario('paused-worker', ['rescue'], { strategy: 'river', fencing: false });
    expect(idle.steps.map((s) => [s.actor, s.action, s.sql])).toEqual([['rescuer', 'rescue-idle', null]]);
  });
});

describe('procrastinate #1408: the rescuer stalls itself', () => {
  it("reads once while alive, then runs nothing, and the crashed worker's run is stranded", async () => {
    const scenario = findScenario('incident-procrastinate-1408')!;
    expect(scenario.rescuer).toEqual({ stallsAtSeconds: 15 });
    const trace = await runScenario('incident-procrastinate-1408', 'script');
    expect(rescuerSteps(trace).map((s) => [s.action, s.sqlId, s.verdict, s.clockSeconds])).toEqual([
      ['rescue-fetch', 'procrastinate-stalled-fetch', 'empty', 0],
      ['rescue-stalled', null, 'event', 60],
    ]);
    expect(trace.steps.find((s) => s.actor === 'B')!).toMatchObject({ sqlId: 'procrastinate-claim-todo', verdict: 'empty' });
    expect(trace.steps.find((s) => s.actor === 'B')!.facts).toMatchObject([{ kind: 'claimed-nothing', pendingOnly: true }]);
    const stranded = trace.anomalies.find((a) => a.kind === 'stranded-run')!;
    expect(stranded.message).toMatch(/the rescuer that would put it back to pending is stalled itself/);
    expect(trace.finalRuns[0]).toMatchObject({ status: 'running', lease_owner: 'A' });
  });

  it("a rescuer that runs retries a dead worker's run, and leaves one that completed after its read (retry_job checks doing)", async () => {
    const scenario = defineScenario({
      id: 'rescuer-test',
      title: 'a procrastinate rescuer that runs',
      summary: 'A test scenario.',
      defaultStrategy: 'procrastinate',
      defaultFencing: false,
      leaseSeconds: 30,
      workSteps: 1,
      rescuer: {},
      script: ['A'],
      concepts: [],
    });
    const db = await labDatabase();
    const settings = { strategy: 'procrastinate' as const, fencing: false };
    const crashed = await runSchedule(db, scenario, settings, ['A', 'A', 'crash:A', '+31', 'rescue', 'rescue', 'B']);
    expect(rescuerSteps(crashed).map((s) => [s.action, s.sqlId, s.verdict])).toEqual([
      ['rescue-fetch', 'procrastinate-stalled-fetch', 'ok'],
      ['rescue', 'procrastinate-retry', 'ok'],
    ]);
    expect(crashed.steps.find((s) => s.actor === 'B')).toMatchObject({ action: 'claim', runId: 123, verdict: 'ok' });
    expect(crashed.anomalies).toEqual([]);
    const completed = await runSchedule(db, scenario, settings, ['A', 'A', 'A', '+31', 'rescue', 'A', 'rescue', 'B']);
    const write = rescuerSteps(completed).find((s) => s.action === 'rescue')!;
    expect(write).toMatchObject({ sqlId: 'procrastinate-retry', verdict: 'rejected', params: [123] });
    expect(write.facts).toMatchObject([{ kind: 'rescue-missed', run: 123, was: { status: 'done' } }]);
    expect(completed.finalRuns[0]!.status).toBe('done');
  });
});

describe("Oban (hexpm #1825): the Lifeline's one UPDATE, purely on time", () => {
  it('puts the long job A is still running back to pending in one step, and B runs it too', async () => {
    const trace = await runScenario('incident-oban-hexpm-1825', 'script');
    const [sweep, ...more] = rescuerSteps(trace);
    expect(more).toEqual([]);
    expect(sweep).toMatchObject({ action: 'rescue', sqlId: 'oban-lifeline-rescue', params: [], verdict: 'ok', runId: 123 });
    expect(sweep!.sql!.trim()).toBe(fileText('src/strategies/oban/oban-lifeline-rescue.sql'));
    expect(sweep!.outcome).toMatchObject({ status: 'ok', rows: [{ run_id: 123, status: 'pending' }] });
    expect(sweep!.facts).toEqual([{ kind: 'swept', runs: [{ run: 123, owner: 'A' }], marked: 'pending' }]);
    // Before it, A's run still reads running under A although its rescue_after has passed.
    expect(runAfter(trace.steps[sweep!.index - 1]!)).toMatchObject({ status: 'running', lease_owner: 'A' });
    const claims = trace.steps.filter((s) => s.action === 'claim');
    expect(new Set(claims.map((s) => s.sqlId))).toEqual(new Set(['oban-claim-available']));
    expect(claims.map((s) => [s.actor, s.runId, s.verdict])).toEqual([
      ['A', 123, 'ok'],
      ['B', 123, 'ok'],
    ]);
    expect(claims[1]!.index).toBeGreaterThan(sweep!.index);
    expect(trace.anomalies.find((a) => a.kind === 'duplicate-execution')!.workers).toEqual(['A', 'B']);
  });

  it('before rescue_after has passed it finds nothing, and B finds no pending run', async () => {
    const trace = await runScenario('incident-oban-hexpm-1825', ['A', 'A', 'A', '+240', 'A', 'rescue', 'B']);
    expect(rescuerSteps(trace).map((s) => [s.action, s.verdict])).toEqual([['rescue', 'empty']]);
    expect(rescuerSteps(trace)[0]!.facts).toEqual([{ kind: 'swept-nothing' }]);
    expect(trace.steps.at(-1)).toMatchObject({ actor: 'B', sqlId: 'oban-claim-available', verdict: 'empty' });
  });

  it("fencing on changes the workers' writes, not the Lifeline: A's next write is rejected and A stops, but both paid for the job", async () => {
    const trace = await runScenario('incident-oban-hexpm-1825', 'script', { fencing: true });
    expect(rescuerSteps(trace).map((s) => [s.sqlId, s.verdict])).toEqual([['oban-lifeline-rescue', 'ok']]);
    const afterRescue = trace.steps.filter((s) => s.actor === 'A' && s.index > rescuerSteps(trace)[0]!.index);
    expect(afterRescue.map((s) => [s.action, s.verdict])).toEqual([['work', 'rejected']]);
    expect(trace.anomalies.map((a) => a.kind)).toEqual(['duplicate-execution', 'stale-write-rejected']);
  });
});

describe("pg-boss #555 and graphile-worker #169: the supervisor's expiry and the stale-lock reset, one UPDATE each", () => {
  const cases = [
    { id: 'incident-pg-boss-555', sweep: 'pg-boss-fail-expired', claim: 'pg-boss-claim-pending', folder: 'pg-boss' },
    { id: 'incident-graphile-169', sweep: 'graphile-reset-locked', claim: 'graphile-claim-available', folder: 'graphile-worker' },
  ];
  it.for(cases)("$id: the rescuer's UPDATE puts A's run back to pending while A still runs it, and B claims it too", async ({ id, sweep, claim, folder }) => {
    const trace = await runScenario(id, 'script');
    const [rescue, ...more] = rescuerSteps(trace);
    expect(more).toEqual([]);
    expect(rescue).toMatchObject({ action: 'rescue', sqlId: sweep, params: [], verdict: 'ok', runId: 123 });
    expect(rescue!.sql!.trim()).toBe(fileText(`src/strategies/${folder}/${sweep}.sql`));
    expect(rescue!.outcome).toMatchObject({ status: 'ok', rows: [{ run_id: 123, status: 'pending' }] });
    expect(markLabel(rescue!)).toBe('rescue 123');
    expect(runAfter(trace.steps[rescue!.index - 1]!)).toMatchObject({ status: 'running', lease_owner: 'A' });
    expect(runAfter(rescue!)).toMatchObject({ status: 'pending', lease_owner: null, lease_generation: 18 });
    const claims = trace.steps.filter((s) => s.action === 'claim');
    expect(new Set(claims.map((s) => s.sqlId))).toEqual(new Set([claim]));
    expect(claims.map((s) => [s.actor, s.runId, s.verdict, s.index > rescue!.index])).toEqual([
      ['A', 123, 'ok', false],
      ['B', 123, 'ok', true],
    ]);
    // A's writes by id or by state still land on B's claim: split ownership.
    expect(trace.anomalies.find((a) => a.kind === 'split-ownership')!.workers).toEqual(['A', 'B']);
  });

  it.for(cases)('$id: before the lease has passed the UPDATE finds nothing, and B finds no pending run', async ({ id, sweep, claim }) => {
    const script = findScenario(id)!.script;
    const early = [...script.slice(0, script.indexOf('rescue') - 1), 'rescue', 'B'];
    const trace = await runScenario(id, early);
    expect(rescuerSteps(trace).map((s) => [s.sqlId, s.verdict])).toEqual([[sweep, 'empty']]);
    expect(trace.steps.at(-1)).toMatchObject({ actor: 'B', sqlId: claim, verdict: 'empty' });
  });
});

describe("Solid Queue #589: the pruner fails a live worker's claim", () => {
  it("marks A's run failed in one UPDATE, and A's finish by id then marks it done: finalized twice", async () => {
    const trace = await runScenario('incident-solid-queue-589', 'script');
    const [prune, ...more] = rescuerSteps(trace);
    expect(more).toEqual([]);
    expect(prune).toMatchObject({ action: 'rescue', sqlId: 'solid-queue-prune', params: [], verdict: 'ok', runId: 123 });
    expect(prune!.sql!.trim()).toBe(fileText('src/strategies/solid-queue/solid-queue-prune.sql'));
    expect(prune!.outcome).toMatchObject({ status: 'ok', rows: [{ run_id: 123, status: 'failed' }] });
    expect(prune!.facts).toEqual([{ kind: 'swept', runs: [{ run: 123, owner: 'A' }], marked: 'failed' }]);
    expect(runAfter(prune!)).toMatchObject({ status: 'failed', lease_owner: null, result: 'ProcessPrunedError' });
    expect(markLabel(prune!)).toBe('fail 123');
    const finish = trace.steps.find((s) => s.actor === 'A' && s.action === 'complete')!;
    expect(finish).toMatchObject({ sqlId: 'solid-queue-complete', verdict: 'ok' });
    expect(finish.index).toBe(prune!.index + 1);
    expect(runAfter(finish).status).toBe('done');
    const twice = trace.anomalies.find((a) => a.kind === 'finalized-twice')!;
    expect(twice).toMatchObject({ runId: 123, workers: ['A'], steps: [prune!.index, finish.index], raisedAt: finish.index });
    expect(twice.message).toBe(
      `Run 123 was finalized twice: the rescuer marked it failed at step ${prune!.index + 1}, then A's completion marked it done at step ${finish.index + 1}, although A's claim had ended.`,
    );
    // The pruner ends the claim for good: no claim takes a failed run.
    expect(trace.steps.filter((s) => s.actor === 'B').every((s) => s.sqlId === 'solid-queue-claim-ready' && s.verdict === 'empty')).toBe(true);
    expect(trace.anomalies.map((a) => a.kind)).toEqual(['finalized-twice']);
  });

  it("under the claimed-execution guard (fencing on) A's finish matches no row: the run stays failed, and nothing is flagged", async () => {
    const trace = await runScenario('incident-solid-queue-589', 'script', { fencing: true });
    const finish = trace.steps.find((s) => s.actor === 'A' && s.action === 'complete')!;
    expect(finish).toMatchObject({ sqlId: 'solid-queue-complete-claimed', params: [123, 18, expect.anything()], verdict: 'rejected', staleWrite: null });
    expect(finish.facts).toEqual([
      { kind: 'write-missed', worker: 'A', write: 'complete', run: 123, because: { kind: 'not-running', status: 'failed', owner: null }, fencing: true },
    ]);
    expect(trace.finalRuns[0]).toMatchObject({ status: 'failed', result: 'ProcessPrunedError' });
    expect(trace.anomalies).toEqual([]);
  });

  it('a finish that comes before the pruner leaves nothing for it to fail', async () => {
    const trace = await runScenario('incident-solid-queue-589', ['A', 'A', 'A', 'A', '+301', 'rescue']);
    expect(rescuerSteps(trace).map((s) => [s.sqlId, s.verdict])).toEqual([['solid-queue-prune', 'empty']]);
    expect(trace.finalRuns[0]!.status).toBe('done');
    expect(trace.anomalies).toEqual([]);
  });
});

describe("the rescuer's lane on the timeline", () => {
  it('sits between the clock & operator lane and the workers, from the first step, and holds its marks', async () => {
    const trace = await runScenario('incident-river-1302', 'script');
    const size = { width: 1280, height: 480 };
    const whole = layoutTimeline(trace, size, { x0: -1e6, x1: 1e6 });
    expect(whole.lanes.map((l) => [l.id, l.kind, l.label])).toEqual([
      ['system', 'system', 'clock & operator'],
      ['rescuer', 'system', 'rescuer'],
      ['A', 'worker', 'A'],
      ['B', 'worker', 'B'],
    ]);
    for (const [a, b] of whole.lanes.slice(0, -1).map((lane, i) => [lane, whole.lanes[i + 1]!] as const))
      expect(b.top).toBeGreaterThanOrEqual(a.top + a.height);
    const marks = whole.marks.filter((m) => m.lane === 'rescuer');
    expect(marks.map((m) => m.step)).toEqual(rescuerSteps(trace).map((s) => s.index));
    expect(marks.map((m) => m.label?.text)).toEqual(['stuck?', 'rescue 123']);
    const rescuerLane = whole.lanes.find((l) => l.id === 'rescuer')!;
    for (const mark of marks) expect(mark.y).toBe(rescuerLane.markY);
    expect(layoutTimeline(trace, size, undefined, { position: 0 }).lanes.map((l) => l.id)).toEqual(['system', 'rescuer', 'A', 'B']);
    const race = await runScenario('race', 'script');
    expect(layoutTimeline(race, size).lanes.map((l) => l.id)).toEqual(['system', 'A', 'B']);
  });
});
