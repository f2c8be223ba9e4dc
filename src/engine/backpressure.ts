/**
 * The backpressure lab's engine: one virtual second at a time, runs arrive, every worker takes its turn
 * (claim, start a model call, write its answer) through the database, and one query measures the table.
 *
 * Unlike the race engine it records no table snapshot per step (thousands of runs would make that
 * megabytes): only a few numbers per second (TickMetrics) and one record per claim. The limits are not
 * checked here at all; the claim and call statements enforce them, and this loop only carries out what
 * the database answered. Same config, same policy, same seed: the same result, to the last number.
 */
import type { BackpressureDatabase, BackpressureStatement, BackpressureTransaction } from '../db/port';
import { arrivalsFor } from '../sim/backpressure/arrivals';
import { totalRuns } from '../sim/backpressure/presets';
import type {
  Arrival,
  BackpressureAction,
  BackpressureConfig,
  BackpressureWorker,
  ClaimPolicy,
  ClaimRecord,
  LaneResult,
  Limit,
  TickMetrics,
} from '../sim/backpressure/types';
import { nextBackpressureAction, turnOrder, workerIds } from '../sim/backpressure/simulated-worker';
import { clockIso } from '../sim/clock';
import type { Row, StatementOutcome } from '../sim/types';
import type { SqlId } from '../sql/registry';

/** What "no limit" is passed as: more than any table here will ever hold. */
const NO_LIMIT = 2_147_483_647;
/** A run of the lab never needs this many seconds; the loop stops there whatever happens. */
export const MAX_SECONDS = 200_000;

const CLIENTS = 'clients';
const OBSERVER = 'observer';

const CLAIM_POLICY_SQL: Record<ClaimPolicy, SqlId> = { fifo: 'claim-fifo-tenant', fair: 'claim-fair-tenant' };

const limit = (value: Limit): number => value ?? NO_LIMIT;

/** The claim's transaction: take the claim lock, then claim under the limits. */
export function claimStatements(policy: ClaimPolicy, worker: string, config: BackpressureConfig): BackpressureStatement[] {
  return [
    { sqlId: 'backpressure-claim-lock', params: [] },
    { sqlId: CLAIM_POLICY_SQL[policy], params: [worker, limit(config.maxActiveRuns), limit(config.maxActivePerTenant)] },
  ];
}

/** Starting a model call: take the call lock, then start it under the cap and the run's budget. */
export function callStartStatements(runId: number, worker: string, config: BackpressureConfig): BackpressureStatement[] {
  return [
    { sqlId: 'backpressure-call-lock', params: [] },
    { sqlId: 'backpressure-call-start', params: [runId, worker, limit(config.maxCallsInFlight), limit(config.maxCostPerRunCents)] },
  ];
}

class BackpressureSimulationError extends Error {}

function rowsOf(outcome: StatementOutcome, what: string): Row[] {
  if (outcome.status === 'ok') return outcome.rows;
  if (outcome.status === 'error') throw new BackpressureSimulationError(`${what} failed: ${outcome.code} ${outcome.message}`);
  throw new BackpressureSimulationError(`${what} was blocked`);
}

export class BackpressureSimulation {
  private workers: BackpressureWorker[] = [];
  private arrivals: Arrival[] = [];
  private nextArrival = 0;
  private ticks: TickMetrics[] = [];
  private claims: ClaimRecord[] = [];
  private steps = 0;
  private readonly tenantIndex: Map<string, number>;
  readonly totalRuns: number;

  constructor(
    private readonly db: BackpressureDatabase,
    readonly config: BackpressureConfig,
    readonly policy: ClaimPolicy,
  ) {
    this.tenantIndex = new Map(config.tenants.map((t, i) => [t.id, i]));
    this.totalRuns = totalRuns(config);
  }

  async reset(): Promise<void> {
    await this.db.clear();
    this.workers = workerIds(this.config.workers).map((id) => ({ id, runId: null, callDueAt: null }));
    this.arrivals = arrivalsFor(this.config);
    this.nextArrival = 0;
    this.ticks = [];
    this.claims = [];
    this.steps = 0;
  }

  /** The next second to play. */
  get second(): number {
    return this.ticks.length;
  }

  /** Every run has arrived and finished, or the loop's bound is reached. */
  isOver(): boolean {
    if (this.ticks.length >= MAX_SECONDS) return true;
    const last = this.ticks.at(-1);
    return last !== undefined && this.nextArrival >= this.arrivals.length && last.done + last.stopped >= this.arrivals.length;
  }

  /**
   * Plays one second and returns what it measured. What each worker does this second follows from its
   * own state alone, so the whole second (the arrivals, every worker's transaction in turn order, the
   * measurement) goes to the database as one batch; each transaction still sees the ones before it.
   */
  async tick(): Promise<TickMetrics> {
    const second = this.second;
    const iso = clockIso(second);
    const arrivals = this.arrivingAt(second);
    const moves: { worker: BackpressureWorker; action: BackpressureAction }[] = [];
    for (const worker of turnOrder(this.workers, second)) {
      const action = nextBackpressureAction(worker, second);
      if (action !== null) moves.push({ worker, action });
    }
    const previous = this.ticks.at(-1);
    // A second in which nobody wrote (every worker waiting on its model call) leaves the table as it was.
    const measuring = !(moves.length === 0 && arrivals.length === 0 && previous);
    const batch: BackpressureTransaction[] = [];
    if (arrivals.length > 0) batch.push({ session: CLIENTS, statements: [{ sqlId: 'backpressure-arrive', params: [arrivalsJson(arrivals)] }] });
    for (const { worker, action } of moves) batch.push({ session: worker.id, statements: this.statementsFor(worker, action) });
    if (measuring) batch.push({ session: OBSERVER, statements: [{ sqlId: 'backpressure-metrics', params: [] }] });
    const answers = batch.length > 0 ? await this.db.transactions(iso, batch) : [];
    let answer = 0;
    if (arrivals.length > 0) rowsOf(answers[answer++]!, 'the arrivals');

    let idleClaims = 0;
    let throttledCalls = 0;
    for (const { worker, action } of moves) {
      const outcome = answers[answer++]!;
      if (action === 'claim') {
        const [row] = rowsOf(outcome, `${worker.id}'s claim`);
        if (!row) {
          idleClaims += 1;
          continue;
        }
        worker.runId = Number(row.run_id);
        this.claims.push({ runId: worker.runId, tenant: this.tenantIndex.get(String(row.tenant)) ?? -1, second, waitedSeconds: Number(row.waited_seconds) });
      } else if (action === 'call-start') {
        const [row] = rowsOf(outcome, `${worker.id}'s model call`);
        if (!row) throttledCalls += 1;
        else if (row.status === 'stopped_cost') worker.runId = null;
        else worker.callDueAt = second + this.config.callSeconds;
      } else {
        const [row] = rowsOf(outcome, `${worker.id}'s call answer`);
        if (!row) throw new BackpressureSimulationError(`${worker.id} lost run ${worker.runId} mid-call`);
        worker.callDueAt = null;
        if (row.status === 'done') worker.runId = null;
      }
    }
    const steps = moves.length;
    this.steps += steps;
    const counts = { idleClaims, throttledCalls, steps };
    const metrics = measuring ? this.measured(second, rowsOf(answers[answer]!, 'the measurement'), counts) : { ...previous!, second, ...counts };
    this.ticks.push(metrics);
    return metrics;
  }

  result(): LaneResult {
    return {
      policy: this.policy,
      ticks: this.ticks,
      claims: this.claims,
      finished: this.isOver() && this.ticks.length < MAX_SECONDS,
      totalRuns: this.totalRuns,
      steps: this.steps,
    };
  }

  /** The runs that arrive this second (created by the clients, in the same batch as the workers' turns). */
  private arrivingAt(second: number): Arrival[] {
    const batch: Arrival[] = [];
    while (this.nextArrival < this.arrivals.length && this.arrivals[this.nextArrival]!.atSecond <= second) batch.push(this.arrivals[this.nextArrival++]!);
    return batch;
  }

  private statementsFor(worker: BackpressureWorker, action: BackpressureAction): BackpressureStatement[] {
    if (action === 'claim') return claimStatements(this.policy, worker.id, this.config);
    if (action === 'call-start') return callStartStatements(worker.runId!, worker.id, this.config);
    return [{ sqlId: 'backpressure-call-finish', params: [worker.runId!, worker.id] }];
  }

  private measured(second: number, rows: Row[], counts: Pick<TickMetrics, 'idleClaims' | 'throttledCalls' | 'steps'>): TickMetrics {
    const n = this.config.tenants.length;
    const metrics: TickMetrics = {
      second,
      arrived: this.nextArrival,
      pending: new Array(n).fill(0),
      running: new Array(n).fill(0),
      calling: 0,
      done: 0,
      stopped: 0,
      costCents: new Array(n).fill(0),
      ...counts,
    };
    for (const row of rows) {
      const index = this.tenantIndex.get(String(row.tenant));
      if (index === undefined) continue;
      metrics.pending[index] = Number(row.pending);
      metrics.running[index] = Number(row.running);
      metrics.costCents[index] = Number(row.cost_cents);
      metrics.calling += Number(row.calling);
      metrics.done += Number(row.done);
      metrics.stopped += Number(row.stopped);
    }
    return metrics;
  }
}

/** The arrivals as the JSON that backpressure-arrive.sql reads. */
function arrivalsJson(arrivals: Arrival[]): string {
  return JSON.stringify(
    arrivals.map((a) => ({ run_id: a.runId, tenant: a.tenant, created_at: clockIso(a.atSecond), work_steps: a.calls, call_cost_cents: a.callCostCents })),
  );
}

export interface PlayOptions {
  /** Stop after this many seconds even if runs remain. */
  maxSeconds?: number;
}

/** Plays one claim policy from a fresh table to the end (or to maxSeconds). */
export async function playBackpressure(
  db: BackpressureDatabase,
  config: BackpressureConfig,
  policy: ClaimPolicy,
  options: PlayOptions = {},
): Promise<LaneResult> {
  const sim = new BackpressureSimulation(db, config, policy);
  await sim.reset();
  const until = Math.min(MAX_SECONDS, options.maxSeconds ?? MAX_SECONDS);
  while (!sim.isOver() && sim.second < until) await sim.tick();
  return sim.result();
}
