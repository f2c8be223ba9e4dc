/**
 * Small pure readers over an engine trace, shared by predict questions, challenges and the tests.
 */
import { clockLabel } from '../sim/clock';
import { hasFact } from '../sim/narration';
import type { RunRow, Scenario, Trace, TraceStep, WorkerState } from '../sim/types';
import type { MarkExpectation } from './types';

/** The steps a schedule token caused (a token can cause several: a timed fault, a resumed statement). */
export function stepsAtToken(trace: Trace, tokenIndex: number): TraceStep[] {
  return trace.steps.filter((step) => step.tokenIndex === tokenIndex);
}

/** A worker as it stands after the last step. */
export function workerAtEnd(trace: Trace, id: string): WorkerState | undefined {
  return trace.steps.at(-1)?.workers.find((worker) => worker.id === id);
}

export function finalRun(trace: Trace, runId: number): RunRow | undefined {
  return trace.finalRuns.find((run) => run.run_id === runId);
}

/** Holds a claim it has written (owner) or is writing (in its claim transaction). */
export function holdsClaim(worker: WorkerState | undefined): boolean {
  return worker !== undefined && worker.runId !== null && (worker.phase === 'owner' || worker.phase === 'in-transaction');
}

export function hasAnomaly(trace: Trace, kind: string): boolean {
  return trace.anomalies.some((anomaly) => anomaly.kind === kind);
}

/** Step notes as "#4 B: …" lines, for an explanation built from the run itself. */
export function noteLines(steps: readonly TraceStep[]): string[] {
  return steps.map((step) => `Step ${step.index + 1} (${clockLabel(step.clockSeconds)}, ${step.actor}): ${step.note}`);
}

/** The row of the step's run as the step left it. */
function runAfter(step: TraceStep) {
  return step.runId === null ? undefined : step.runs.find((run) => run.run_id === step.runId);
}

/** Whether the steps at this token show what a narration says they show. */
export function matchesExpectation(trace: Trace, tokenIndex: number | null, expect: MarkExpectation | undefined): boolean {
  if (!expect) return true;
  if (tokenIndex === null) return false;
  const steps = stepsAtToken(trace, tokenIndex);
  const stepOk = steps.some(
    (step) =>
      (expect.actor === undefined || step.actor === expect.actor) &&
      (expect.action === undefined || step.action === expect.action) &&
      (expect.verdict === undefined || step.verdict === expect.verdict) &&
      (expect.resumed === undefined || step.resumed === expect.resumed) &&
      (expect.runId === undefined || step.runId === expect.runId) &&
      (expect.generation === undefined || step.workers.find((worker) => worker.id === step.actor)?.generation === expect.generation) &&
      (expect.runGeneration === undefined || runAfter(step)?.lease_generation === expect.runGeneration) &&
      (expect.runProgress === undefined || runAfter(step)?.progress === expect.runProgress) &&
      (expect.fact === undefined || hasFact(step.facts, expect.fact)),
  );
  if (!stepOk) return false;
  if (expect.anomaly === undefined) return true;
  const indexes = new Set(steps.map((step) => step.index));
  return trace.anomalies.some((anomaly) => anomaly.kind === expect.anomaly && anomaly.steps.some((index) => indexes.has(index)));
}

/**
 * A copy of a scenario with some fields changed, under its own id (so nothing that caches by id mixes
 * it up with the original). Plain data: it crosses a Web Worker boundary unchanged.
 */
export function scenarioVariant(base: Scenario, tag: string, changes: Partial<Omit<Scenario, 'id'>>): Scenario {
  const copy: Scenario = structuredClone(base);
  return { ...copy, ...structuredClone(changes), id: `${base.id}~${tag}` };
}

/** The base scenario id of a variant made by scenarioVariant. */
export function baseScenarioId(id: string): string {
  return id.split('~')[0]!;
}
