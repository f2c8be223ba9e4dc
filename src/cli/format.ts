/** The readable step table the CLI prints by default. */
import { clockLabel } from '../sim/clock';
import type { Exploration } from '../engine/explore';
import { statesCounted } from '../engine/simulation';
import { ISOLATION_WORDS } from '../sim/isolation';
import { STRATEGY_LABELS, type Scenario, type Settings, type Trace } from '../sim/types';

/** "; isolation REPEATABLE READ (…)" where the claims ran above READ COMMITTED; nothing at READ COMMITTED. */
export function isolationNote(settings: Pick<Settings, 'isolation'>): string {
  return settings.isolation ? `; isolation ${ISOLATION_WORDS[settings.isolation]} (each claim in its own explicit transaction, retried after 40001)` : '';
}

export function formatTrace(trace: Trace, scenario: Scenario): string {
  const lines: string[] = [];
  lines.push(`${scenario.title}`);
  lines.push(
    `strategy: ${trace.settings.definition?.label ?? STRATEGY_LABELS[trace.settings.strategy]}; fencing ${trace.settings.fencing ? 'on' : 'off'}${isolationNote(trace.settings)}; database: ${trace.database}`,
  );
  lines.push(`schedule: ${trace.schedule.join(',')}`);
  lines.push('');
  lines.push(`${'#'.padStart(3)}  ${'clock'.padEnd(8)}  ${'who'.padEnd(8)}  ${'action'.padEnd(14)}  ${'result'.padEnd(8)}  what happened`);
  for (const step of trace.steps) {
    const result = step.outcome?.status === 'error' ? step.outcome.code : step.verdict;
    lines.push(
      `${String(step.index + 1).padStart(3)}  ${clockLabel(step.clockSeconds).padEnd(8)}  ${step.actor.padEnd(8)}  ${(step.resumed ? `${step.action}*` : step.action).padEnd(14)}  ${result.padEnd(8)}  ${step.note}`,
    );
  }
  lines.push('');
  lines.push('runs at the end:');
  // A completion that deletes its run (check --complete) can leave none.
  if (trace.finalRuns.length === 0) lines.push('  none: every run was deleted');
  for (const run of trace.finalRuns) {
    lines.push(
      // The result names who wrote it last: where a stale completion overwrote another's, it shows (Oban #532).
      `  run ${run.run_id}: ${run.status}, owner ${run.lease_owner ?? '-'}, generation ${run.lease_generation}, progress ${run.progress}, cost ${run.cost_cents} cents${run.result === null ? '' : `, result '${run.result}'`}`,
    );
  }
  lines.push('');
  if (trace.anomalies.length === 0) lines.push('anomalies: none');
  else {
    lines.push('anomalies:');
    for (const anomaly of trace.anomalies) lines.push(`  ${anomaly.kind} (steps ${anomaly.steps.map((s) => s + 1).join(', ')}): ${anomaly.message}`);
  }
  const advisoryWait = trace.steps.some((s) => s.facts.some((fact) => fact.kind === 'waits' && fact.advisory));
  if (trace.steps.some((s) => s.resumed))
    lines.push(`\n* a statement that had waited for a ${advisoryWait ? 'row lock or an advisory lock' : 'row lock'} and then finished`);
  return lines.join('\n');
}

export function formatExploration(result: Exploration, seconds: number): string {
  const lines: string[] = [];
  const what =
    result.coverage === 'all' ? `all ${result.total} schedules` : `a sample of ${result.total} seeded random schedules (seed ${result.seed}), not all of them`;
  lines.push(
    `${result.scenario}: ${what}; strategy ${STRATEGY_LABELS[result.settings.strategy]}; fencing ${result.settings.fencing ? 'on' : 'off'}${isolationNote(result.settings)}`,
  );
  const played = result.stepsPlayed === undefined ? '' : ` (${result.stepsPlayed} steps played, ${result.stepsInferred ?? 0} known without playing)`;
  lines.push(
    `method ${result.method}: ${result.statesVisited} ${result.method === 'fast' ? statesCounted(result.settings) : 'schedules played'}${played} in ${seconds.toFixed(2)} s`,
  );
  lines.push('');
  for (const group of result.groups) {
    lines.push(`${String(group.count).padStart(7)} of ${result.total}  ${group.label}`);
    lines.push(`         shortest: --schedule ${group.witness.join(',')}`);
  }
  return lines.join('\n');
}
