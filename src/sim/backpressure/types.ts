/**
 * The backpressure lab's vocabulary: many runs from several tenants arriving faster than workers finish
 * them, limits the claim enforces in the database, and what is measured each second. Plain data only.
 */

/** How a worker picks its next run. */
export type ClaimPolicy = 'fifo' | 'fair';

export const CLAIM_POLICIES: readonly ClaimPolicy[] = ['fifo', 'fair'];

export const CLAIM_LABELS: Record<ClaimPolicy, string> = {
  fifo: 'FIFO: oldest run first',
  fair: 'Fair: skip tenants at their limit',
};

export interface TenantSpec {
  /** One capital letter: A, B, C… */
  id: string;
  /** Share of the steady stream of arrivals (weights need not sum to 1). */
  weight: number;
  /** Runs this tenant submits at once, at `burstAtSecond`. */
  burst: number;
  burstAtSecond: number;
}

/** A limit's value, or null for no limit. */
export type Limit = number | null;

export interface BackpressureConfig {
  /** Every random choice (arrival times, tenants, run lengths, call costs) follows from this seed. */
  seed: number;
  workers: number;
  tenants: TenantSpec[];
  /** The steady stream: mean arrivals per second, across all tenants. */
  arrivalsPerSecond: number;
  /** How many runs the steady stream brings before it stops (bursts come on top). */
  streamRuns: number;
  /** Mean model calls per run; each run's count varies around it. */
  meanCalls: number;
  /** How long one model call takes, in virtual seconds. */
  callSeconds: number;
  maxActiveRuns: Limit;
  maxActivePerTenant: Limit;
  maxCallsInFlight: Limit;
  maxCostPerRunCents: Limit;
}

/** One run as the arrival process creates it. */
export interface Arrival {
  runId: number;
  tenant: string;
  atSecond: number;
  /** Model calls the run needs to finish. */
  calls: number;
  callCostCents: number;
}

/** Everything measured at the end of one virtual second. Per-tenant arrays follow config.tenants. */
export interface TickMetrics {
  second: number;
  /** Runs created so far. */
  arrived: number;
  pending: number[];
  running: number[];
  /** Model calls in flight. */
  calling: number;
  done: number;
  stopped: number;
  /** Money spent so far, per tenant. */
  costCents: number[];
  /** Workers that asked for a run this second and got none. */
  idleClaims: number;
  /** Model calls that could not start this second because the cap was reached. */
  throttledCalls: number;
  /** Worker statements run this second. */
  steps: number;
}

/** A run being claimed: how long it had waited in the queue. */
export interface ClaimRecord {
  runId: number;
  /** Index into config.tenants. */
  tenant: number;
  second: number;
  waitedSeconds: number;
}

/** One claim policy's whole run (or as far as it got). */
export interface LaneResult {
  policy: ClaimPolicy;
  ticks: TickMetrics[];
  claims: ClaimRecord[];
  /** Every run has arrived and finished (done or stopped). */
  finished: boolean;
  totalRuns: number;
  steps: number;
}

/** What a worker is doing between seconds. */
export interface BackpressureWorker {
  id: string;
  runId: number | null;
  /** A model call is in flight and its answer is due at this second. */
  callDueAt: number | null;
}

export type BackpressureAction = 'claim' | 'call-start' | 'call-finish';
