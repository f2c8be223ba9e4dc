/**
 * The production queues' public incidents, replayed (src/scenarios/incident-*.ts): each one's script
 * reaches the anomaly its report describes under the queue's own guard, and its fix setting does not.
 * The same scripts on a real PostgreSQL server: tests/ground-truth/graph-queues.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { formatTrace } from '../../src/cli/format';
import { findScenario, fixScenarioOf, INCIDENT_SCENARIOS, LESSON_SCENARIOS } from '../../src/scenarios';
import { defineScenario } from '../../src/scenarios/define';
import { QUEUE_STRATEGY_IDS, strategyDefinition } from '../../src/strategies';
import { runSchedule } from '../../src/engine/run';
import type { Trace } from '../../src/sim/types';
import { beliefOf } from '../../src/store/worker-belief';
import { labDatabase, runScenario } from '../support/lab';
import { simInProcess } from '../support/cli';

const kinds = (trace: { anomalies: { kind: string }[] }) => trace.anomalies.map((a) => a.kind);

describe('the incident scenarios', () => {
  it('are at least four, each under a production queue, titled with its name, the lesson scenarios having none', () => {
    expect(INCIDENT_SCENARIOS.length).toBeGreaterThanOrEqual(4);
    for (const scenario of INCIDENT_SCENARIOS) {
      const incident = scenario.incident!;
      expect(QUEUE_STRATEGY_IDS, scenario.id).toContain(incident.queue);
      expect(scenario.title, scenario.id).toContain(strategyDefinition(incident.queue).queue!.name);
      expect(incident.url, scenario.id).toMatch(/^https:\/\/github\.com\/[\w.-]+\/[\w.-]+\/(issues|pull)\/\d+$/);
      expect(incident.url, scenario.id).toContain(
        incident.source
          .replace(/ PR #|#/, '/')
          .split('/')
          .slice(0, 2)
          .join('/'),
      );
    }
    for (const scenario of LESSON_SCENARIOS) expect(scenario.incident, scenario.id).toBeUndefined();
  });

  it.for(INCIDENT_SCENARIOS.map((s) => s.id))("%s: its script reaches the reported anomaly under the queue's own guard", async (id) => {
    const scenario = INCIDENT_SCENARIOS.find((s) => s.id === id)!;
    const trace = await runScenario(id, 'script');
    expect(trace.settings).toMatchObject({ strategy: scenario.incident!.queue, fencing: false });
    expect(kinds(trace)).toContain(scenario.incident!.anomaly);
  });

  it.for(INCIDENT_SCENARIOS.map((s) => s.id))('%s: its fix setting does not reach it', async (id) => {
    const scenario = INCIDENT_SCENARIOS.find((s) => s.id === id)!;
    const { fix, anomaly } = scenario.incident!;
    const settings = { strategy: fix.strategy, fencing: fix.fencing };
    // A fix that is a setting reaching the job (pg-boss #529's lease) is a scenario of its own with the same script.
    const fixed = fixScenarioOf(scenario);
    expect(fixed.script).toEqual(scenario.script);
    const trace = await runSchedule(await labDatabase(), fixed, settings, scenario.script, { onInapplicable: 'skip' });
    expect(kinds(trace)).not.toContain(anomaly);
    if (fix.scenarioId !== undefined) {
      expect(fixed.id).toBe(fix.scenarioId);
      expect(fixed.incident).toBeUndefined();
      expect(kinds(await runScenario(id, 'script', settings))).toContain(anomaly);
    }
  });

  it('incident-pgqueuer-430: the double claim says A renewed its lease (its heartbeat), not that A claimed the run again', async () => {
    const trace = await runScenario('incident-pgqueuer-430', 'script');
    const double = trace.anomalies.find((a) => a.kind === 'double-claim')!;
    expect(double.message).toContain("A renewed its lease on it while B's lease on it still had");
    expect(double.message).not.toContain('A claimed it');
  });

  it("incident-delayed-job-1045: A and B claim under one name; B takes A's live run by it, and the fence stops only the writes", async () => {
    const trace = await runScenario('incident-delayed-job-1045', 'script');
    const claims = trace.steps.filter((step) => step.action === 'claim');
    expect(claims.map((step) => [step.actor, step.params[0], step.verdict])).toEqual([
      ['A', 'host:worker pid:1', 'ok'],
      ['B', 'host:worker pid:1', 'ok'],
    ]);
    expect(claims[1]!.facts).toContainEqual({ kind: 'took-by-name', worker: 'B', run: 123, name: 'host:worker pid:1', leaseLeftSeconds: 14_340 });
    // The checkers tell the two apart by their letters, not by the name the row carries.
    const double = trace.anomalies.find((a) => a.kind === 'double-claim')!;
    expect(double.workers).toEqual(['A', 'B']);
    expect(double.message).toContain("B claimed it while A's lease on it still had 14340 s to run");
    // The card: the row's owner is what B believes it owns, and it says the name is one A and B share.
    const afterCommit = trace.steps.find((step) => step.actor === 'B' && step.action === 'commit')!;
    const row = afterCommit.runs.find((run) => run.run_id === 123);
    const b = beliefOf(afterCommit.workers.find((w) => w.id === 'B')!, row, afterCommit.workers)!;
    expect(b.lines.find((line) => line.field === 'owner')).toMatchObject({ believes: 'host:worker pid:1', row: 'host:worker pid:1', agrees: true });
    expect(b.sharedName).toContain('a name A and B share');
    // Fencing on: B's generation rejects A's next write and A stops, but B's claim and A's paid call stand.
    const fenced = await runScenario('incident-delayed-job-1045', 'script', { fencing: true });
    expect(kinds(fenced)).toEqual(expect.arrayContaining(['double-claim', 'duplicate-execution', 'stale-write-rejected']));
    expect(kinds(fenced)).not.toContain('split-ownership');
    expect(fenced.finalRuns.map((run) => [run.status, run.result])).toEqual([['done', 'answer from B']]);
  });

  it("incident-dbos-491: the recovery at launch reads A's workflow, writes it by id and runs it again; PR #493's skip sends nothing", async () => {
    const trace = await runScenario('incident-dbos-491', 'script');
    const recovery = trace.steps.filter((step) => step.actor === 'B' && (step.action === 'recover-read' || step.action === 'recover'));
    // The read and the write go under the executor id the two lanes share, in the launch's own instant.
    expect(recovery.map((step) => [step.action, step.params, step.verdict, step.clockSeconds])).toEqual([
      ['recover-read', ['local'], 'ok', 0],
      ['recover', [123, 'local'], 'ok', 0],
    ]);
    expect(recovery[1]!.facts).toContainEqual(expect.objectContaining({ kind: 'recovered', worker: 'B', run: 123, runs: true }));
    expect(trace.anomalies.find((a) => a.kind === 'duplicate-execution')!.workers).toEqual(['A', 'B']);
    const fixed = await runScenario('dbos-pr-493', 'script');
    const skip = fixed.steps.find((step) => step.action === 'skip-active')!;
    // The fix's look is in the process's memory: the step sends nothing and changes no row.
    expect(skip).toMatchObject({ actor: 'B', sqlId: 'dbos-recover-skip-active', outcome: { status: 'ok', rows: [], rowCount: 0 } });
    expect(skip.facts).toEqual([{ kind: 'skipped-active', worker: 'B', run: 123, lane: 'A' }]);
    expect(skip.runs).toEqual(fixed.steps[skip.index - 1]!.runs);
    expect(fixed.steps.some((step) => step.action === 'recover')).toBe(false);
    expect(kinds(fixed)).toEqual([]);
    expect(fixed.finalRuns.map((run) => [run.status, run.result, run.progress])).toEqual([['done', 'answer from A', 2]]);
  });

  it("incident-oban-532: the older attempt, finishing last, leaves its answer on B's finished run; under the fix B's answer stays", async () => {
    const resultOf = (trace: Trace) => trace.finalRuns.map((run) => [run.status, run.lease_owner, run.result]);
    const scenario = findScenario('incident-oban-532')!;
    const stale = await runScenario(scenario.id, 'script');
    expect(resultOf(stale)).toEqual([['done', 'B', 'answer from A']]);
    // The CLI's last lines show it too.
    expect(formatTrace(stale, scenario)).toContain("run 123: done, owner B, generation 19, progress 2, cost 80 cents, result 'answer from A'");
    const fenced = await runScenario(scenario.id, 'script', { fencing: true });
    expect(resultOf(fenced)).toEqual([['done', 'B', 'answer from B']]);
  });

  it('refuses an incident that does not open under its own queue with fencing off', () => {
    const draft = { id: 'x', title: 'X', summary: 'X.', script: ['A'], concepts: [], incident: INCIDENT_SCENARIOS[0]!.incident! };
    expect(() => defineScenario({ ...draft, defaultStrategy: 'skip-locked' })).toThrow(/opens under its queue's own guard/);
    expect(() => defineScenario({ ...draft, defaultStrategy: draft.incident.queue, defaultFencing: true })).toThrow(/fencing off/);
  });

  it('npm run sim -- list --json lists them with their source, anomaly and fix', async () => {
    const result = await simInProcess(['list', '--json']);
    expect(result.code).toBe(0);
    const all = JSON.parse(result.stdout) as { id: string; title: string; incident?: { source: string; anomaly: string; fix: { scenarioId?: string } } }[];
    const listed = all.filter((s) => s.incident);
    expect(listed.map((s) => s.id)).toEqual(INCIDENT_SCENARIOS.map((s) => s.id));
    // A fix that is a scenario of its own is listed too, so the CLI runs it like any scenario.
    const fixes = listed.flatMap((s) => (s.incident!.fix.scenarioId ? [s.incident!.fix.scenarioId] : []));
    expect(fixes).toEqual(['pg-boss-pr-523', 'pgqueuer-pr-431', 'hangfire-pr-353', 'delayed-job-unique-name', 'dbos-pr-493']);
    for (const id of fixes) expect(all.map((s) => s.id)).toContain(id);
    for (const entry of listed) expect(entry.incident!.source, entry.id).toBe(INCIDENT_SCENARIOS.find((s) => s.id === entry.id)!.incident!.source);
  });
});
