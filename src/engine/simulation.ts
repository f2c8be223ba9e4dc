/**
 * Drives a scenario on a database, one schedule token at a time, and records every step.
 *
 * The decisions live in sim/ (pure); this class only carries them out through the LabDatabase port, so
 * the same schedule gives the same trace on PGlite and on a real server.
 */
import type { LabDatabase, RefusedAtStep, SessionId, StatementRequest } from '../db/port';
import { AnomalyDetector, anomaliesAfter, type ReclaimProbe, type RecordedStep } from '../sim/anomalies';
import { clockIso, leaseRunsOutAt, secondsOf } from '../sim/clock';
import { type EngineFact, narrate, narrateEngine, type StepFact } from '../sim/narration';
import { formatToken, parseToken, ScheduleError, type Token } from '../sim/schedule';
import { seedJson } from '../sim/seed';
import {
  type Actor,
  type Anomaly,
  type LockHolding,
  OPERATOR_SESSION,
  type RescuerState,
  type RunRow,
  type Scenario,
  type Settings,
  type StatementOutcome,
  type Trace,
  type TraceStep,
  type Verdict,
  type WorkerAction,
  type WorkerId,
  type WorkerState,
} from '../sim/types';
import {
  believesItOwns,
  definitionOf,
  initialWorker,
  interpretOutcome,
  laneRunning,
  lifeOf,
  nameOf,
  ownerLifeEnded,
  nextAction,
  ownerToKill,
  planAction,
  rescueFailedRuns,
  type StatementPlan,
  whyCannotMove,
  withoutHolding,
  withoutWait,
  workerNamed,
} from '../sim/simulated-worker';
import { CANCEL_REQUEST, type LabStatement, type RescuerDefinition } from '../strategies';
import { constantValues } from '../strategies/types';
import { needsServerLine, type StrictIsolation } from '../sim/isolation';
import { CUSTOM_CLAIM_IDS, CUSTOM_REAPER_ID, takesAdvisoryLocks, unlocksAdvisory } from '../strategies/custom';

const OPERATOR: SessionId = OPERATOR_SESSION;

/** A level above READ COMMITTED asked of PGlite: one line for whoever asked (the command line prints it). */
class IsolationNeedsServer extends Error {
  readonly userFacing = true;
  constructor(level: StrictIsolation) {
    super(needsServerLine(level));
  }
}
/** A held job's completion that would wait for a row lock (a server only: PGlite refuses it sooner): one line. */
class HeldCompletionWaits extends Error {
  readonly userFacing = true;
}

/**
 * The runs a reaper someone wrote took from their owners: running before it and no longer running under the
 * same owner after. Read from the rows, not from its RETURNING, which it need not have.
 */
function takenFromRunning(before: readonly RunRow[], after: readonly RunRow[]): number[] {
  return before
    .filter((run) => run.status === 'running')
    .filter((run) => {
      const now = after.find((row) => row.run_id === run.run_id);
      return !now || now.status !== 'running' || now.lease_owner !== run.lease_owner;
    })
    .map((run) => run.run_id);
}

/** The queue's rescuer, where a scenario runs it as its own process: one more session, like the operator's. */
const RESCUER: SessionId = 'RS';
/**
 * How long after the latest lease of a dead worker expired the end-of-schedule probe runs a claim someone
 * wrote (Simulation.conclude): a day, longer than any grace a claim gives a dead worker's lease in the queues
 * the lab knows (graphile-worker's is 4 hours) and the longest lease a scenario may have.
 */
const RECLAIM_PROBE_AFTER_SECONDS = 86_400;
/** The worker the probe claims as ($1): one that starts after the schedule, unknown to the scenario. */
const NEWCOMER: WorkerId = 'newcomer';

interface TimedEvent {
  atSeconds: number;
  kind: 'pause' | 'resume' | 'crash';
  worker: WorkerId;
}

interface OperatorWait {
  runId: number;
  tokenIndex: number;
  token: string;
}

/** The anomaly checkers a simulation under these settings feeds its steps (the strategy's tenant cap, when it has one). */
export function anomalyDetectorFor(settings: Settings): AnomalyDetector {
  return new AnomalyDetector({ tenantCap: definitionOf(settings).tenantCap });
}

/** A Simulation's state at one moment (Simulation.snapshot): opaque to everyone else. */
export interface SimulationState {
  readonly steps: readonly TraceStep[];
  readonly rest: unknown;
}

/**
 * A deep copy of a simulation's state: maps, sets, arrays and objects (each keeping its class, as the
 * anomaly checkers are), with an object reached twice copied once.
 */
function copyState<T>(value: T, copies = new Map<object, unknown>()): T {
  if (typeof value !== 'object' || value === null) return value;
  const known = copies.get(value);
  if (known !== undefined) return known as T;
  if (value instanceof Date) return new Date(value.getTime()) as T;
  if (value instanceof Map) {
    const copy = new Map();
    copies.set(value, copy);
    for (const [key, item] of value) copy.set(copyState(key, copies), copyState(item, copies));
    return copy as T;
  }
  if (value instanceof Set) {
    const copy = new Set();
    copies.set(value, copy);
    for (const item of value) copy.add(copyState(item, copies));
    return copy as T;
  }
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    copies.set(value, copy);
    for (const item of value) copy.push(copyState(item, copies));
    return copy as T;
  }
  const copy = Object.create(Object.getPrototypeOf(value)) as Record<string, unknown>;
  copies.set(value, copy);
  for (const key of Object.keys(value)) copy[key] = copyState((value as Record<string, unknown>)[key], copies);
  return copy as T;
}

export class Simulation {
  private workers = new Map<WorkerId, WorkerState>();
  private clockSeconds = 0;
  private steps: TraceStep[] = [];
  private schedule: string[] = [];
  private runRows: RunRow[] = [];
  /** Sessions waiting for a row lock, in the order they started waiting. */
  private waitOrder: SessionId[] = [];
  private operatorWait: OperatorWait | null = null;
  private rescuer: RescuerState = { fetched: [], blockedOn: [] };
  private agenda: TimedEvent[] = [];
  private lockRows: LockHolding[] = [];
  /** For each waiting session: the clock and committed rows when it began to wait (its statement's hidden context). */
  private waitContext = new Map<SessionId, string>();
  /** Fed every step as it is recorded: the anomalies travel on the steps, detected once. */
  private anomalies: AnomalyDetector;
  /** Since the last reset, the server let a waiter in ahead of one that began waiting before it (see overtaken()). */
  private overtook = false;
  /** The anomalies the schedule ended with, once conclude() has judged its end; null before. */
  private concluded: Anomaly[] | null = null;

  constructor(
    private readonly db: LabDatabase,
    readonly scenario: Scenario,
    readonly settings: Settings,
  ) {
    // Never emulated: a level above READ COMMITTED needs two snapshots at once, which one PGlite session cannot hold.
    if (settings.isolation && db.kind === 'pglite') throw new IsolationNeedsServer(settings.isolation);
    this.anomalies = this.newDetector();
  }

  private newDetector(): AnomalyDetector {
    return anomalyDetectorFor(this.settings);
  }

  /** Back to the scenario's first moment: fresh rows, fresh workers, clock at zero. */
  async reset(): Promise<void> {
    const sessions = [...this.scenario.workers.map((w) => w.id), OPERATOR, ...(this.scenario.rescuer ? [RESCUER] : [])];
    await this.db.reset(seedJson(this.scenario), sessions);
    this.workers = new Map(this.scenario.workers.map((spec) => [spec.id, initialWorker(spec)]));
    this.clockSeconds = 0;
    this.steps = [];
    this.anomalies = this.newDetector();
    this.concluded = null;
    this.schedule = [];
    this.waitOrder = [];
    this.waitContext.clear();
    this.operatorWait = null;
    this.overtook = false;
    this.rescuer = { fetched: [], blockedOn: [] };
    this.agenda = timedEvents(this.scenario);
    await this.refresh();
    this.lockRows = [];
    this.db.takeEngineFact();
  }

  get clock(): number {
    return this.clockSeconds;
  }

  /** Workers that can take a step now, in name order. */
  movable(): WorkerId[] {
    return [...this.workers.values()].filter((w) => whyCannotMove(w) === null).map((w) => w.id);
  }

  /** No worker can move and nothing on the clock can change that. */
  isOver(): boolean {
    if (this.movable().length > 0) return false;
    return !this.agenda.some((event) => event.kind === 'resume' && this.workers.get(event.worker)?.paused);
  }

  /**
   * Whether, since the last reset, a commit woke several waiters and the server let one in ahead of one that
   * had begun waiting before it: its own choice, which the lab (and PGlite) never make. The trace shows what
   * the server did; a search over schedules plays such a schedule again (Walk), since the same tokens may
   * lead elsewhere next time. Never on PGlite.
   */
  overtaken(): boolean {
    return this.overtook;
  }

  workerStates(): WorkerState[] {
    return [...this.workers.values()].map((w) => ({ ...w }));
  }

  /** The next moment something happens on its own: a lease expiring or a timed fault. */
  nextEventSeconds(): number | null {
    const expiries = leaseRunsOutAt(this.runRows);
    const faults = this.agenda.map((event) => event.atSeconds);
    const later = [...expiries, ...faults].filter((t) => t > this.clockSeconds);
    return later.length > 0 ? Math.min(...later) : null;
  }

  /**
   * Everything that decides what can happen from here on, as canonical text: two schedules that reach
   * the same key have the same futures. The steps already taken are not part of it.
   */
  stateKey(): string {
    if (keyedByHistory(this.settings)) return JSON.stringify(this.schedule);
    return JSON.stringify([
      this.clockSeconds,
      [...this.workers.values()],
      this.runRows,
      this.lockRows,
      this.waitOrder,
      this.operatorWait?.runId ?? null,
      this.rescuer,
      this.agenda,
      [...this.waitContext.entries()].sort(),
    ]);
  }

  /**
   * What the anomaly checkers remember of the steps taken (AnomalyDetector.memory): with stateKey, all
   * that decides which anomalies the rest of a schedule ends with.
   */
  anomalyMemory(): string {
    return this.anomalies.memory();
  }

  /** Applies one schedule token. Throws ScheduleError, changing nothing, when the token cannot apply now. */
  async apply(tokenText: string): Promise<TraceStep[]> {
    const token = parseToken(tokenText);
    this.check(token);
    const text = formatToken(token);
    const tokenIndex = this.schedule.length;
    this.schedule.push(text);
    const first = this.steps.length;
    try {
      await this.play(token, text, tokenIndex);
    } catch (error) {
      const refused = error as Partial<RefusedAtStep> | null;
      if (typeof refused?.placeAt === 'function') refused.placeAt(`step ${tokenIndex + 1} (${text}) of --schedule ${this.schedule.join(',')}`);
      throw error;
    }
    return this.steps.slice(first);
  }

  private async play(token: Token, text: string, tokenIndex: number): Promise<void> {
    switch (token.kind) {
      case 'step':
        await this.stepWorker(token.worker, text, tokenIndex);
        break;
      case 'advance':
        await this.advance(token.seconds, text, tokenIndex);
        break;
      case 'pause':
      case 'resume':
      case 'crash':
        await this.fault(token.kind, token.worker, text, tokenIndex, 'clock');
        break;
      case 'restart':
        this.restart(token.worker, text, tokenIndex);
        break;
      case 'cancel':
        await this.cancel(token.runId, text, tokenIndex);
        break;
      case 'kill':
        await this.kill(token.runId, text, tokenIndex);
        break;
      case 'rescue':
        await this.rescue(text, tokenIndex);
        break;
    }
  }

  /**
   * Everything a reset sets and a step changes, as it stands now: restoreState() puts it back. The steps
   * recorded are never changed once pushed, so they are shared; the rest is copied. A search that keeps its
   * database in step by other means (Walk.mark) restores its Simulation this way instead of replaying it.
   */
  snapshot(): SimulationState {
    return { steps: [...this.steps], rest: copyState(this.mutableState()) };
  }

  /** Back to a snapshot() of this simulation (which stays usable for another restore). */
  restoreState(state: SimulationState): void {
    this.steps = [...state.steps];
    // Every field mutableState() lists, and only those (tests/unit/simulation-snapshot.test.ts holds the list whole).
    Object.assign(this, copyState(state.rest as ReturnType<Simulation['mutableState']>));
  }

  /** The fields reset() sets, but the steps (see snapshot). */
  private mutableState() {
    return {
      workers: this.workers,
      clockSeconds: this.clockSeconds,
      schedule: this.schedule,
      runRows: this.runRows,
      waitOrder: this.waitOrder,
      operatorWait: this.operatorWait,
      rescuer: this.rescuer,
      agenda: this.agenda,
      lockRows: this.lockRows,
      waitContext: this.waitContext,
      anomalies: this.anomalies,
      overtook: this.overtook,
      concluded: this.concluded,
    };
  }

  trace(): Trace {
    return {
      scenario: this.scenario.id,
      settings: { ...this.settings },
      schedule: [...this.schedule],
      steps: this.steps,
      anomalies: this.concluded ?? anomaliesAfter(this.steps, this.steps.length),
      finalRuns: this.runRows,
      database: this.db.kind,
    };
  }

  /**
   * The end of a complete schedule: nothing can move and nothing is left to happen (the caller knows the
   * schedule and calls this there). With a claim someone wrote, a run still running under a dead worker is
   * judged by what that claim does, not by its text: the claim runs once more on the operator's session, as
   * a worker that starts a day after the latest such lease expired, with no row lock held by anyone (so it
   * cannot wait), and whatever it took is rolled back at once. Each such run it did not take is stranded
   * (AnomalyDetector.conclude): a claim that takes any run there may take the rest at its next polls, so
   * only one that took nothing is judged. On PGlite and on a server alike. Adds no step; trace() then carries the
   * anomalies the schedule ends with. Once per reset.
   */
  async conclude(): Promise<void> {
    if (this.concluded !== null) return;
    this.concluded = anomaliesAfter(this.steps, this.steps.length);
    const last = this.steps.at(-1);
    const probe = last ? await this.reclaimProbe() : null;
    if (probe && last) this.concluded = this.anomalies.conclude(probe, last);
  }

  /** What the claim someone wrote does, run later, about the runs dead workers hold: null when there is nothing to ask or nothing it says. */
  private async reclaimProbe(): Promise<ReclaimProbe | null> {
    const claim = definitionOf(this.settings).claim;
    if (claim.shape !== 'one-statement' || claim.claim.id !== CUSTOM_CLAIM_IDS.claim) return null;
    if (this.lockRows.length > 0 || this.waitOrder.length > 0) return null;
    const held = this.runRows.filter(
      (run) => run.status === 'running' && ownerLifeEnded(workerNamed(this.workers.values(), run.lease_owner, run.run_id), run.run_id),
    );
    if (held.length === 0) return null;
    const expiries = held.map((run) => secondsOf(run.lease_expires_at)).filter((at): at is number => at !== null && Number.isFinite(at));
    const expiredAt = expiries.length > 0 ? Math.max(...expiries) : this.clockSeconds;
    const at = Math.max(this.clockSeconds, expiredAt) + RECLAIM_PROBE_AFTER_SECONDS;
    // A reaper someone wrote runs first, as it would on its timer by then. Its write commits: nothing plays on
    // from a concluded schedule but after a reset.
    const reaper = this.rescuerDefinition();
    const afterReaper = reaper?.shape === 'one-statement' && reaper.sweep.id === CUSTOM_REAPER_ID;
    if (afterReaper) {
      const swept = await this.db.execute(RESCUER, { statement: reaper.sweep, params: constantValues(reaper.sweep.params), clockIso: clockIso(at) });
      this.db.takeEngineFact();
      if (swept.status !== 'ok') return null;
    }
    const plan = planAction('claim', initialWorker({ id: NEWCOMER }), this.scenario, this.settings);
    const outcome = await this.db.executeClaim(OPERATOR, { statement: plan.statement, params: plan.params, clockIso: clockIso(at) });
    // Its transaction is still open when it took a run: ended as a crash ends one, it leaves no trace.
    if (outcome.status === 'ok' && outcome.rowCount > 0) await this.db.crash(OPERATOR);
    this.db.takeEngineFact();
    // A claim that took a run (one of these, or a pending one first) may take the others at its next polls.
    if (outcome.status !== 'ok' || outcome.rowCount > 0) return null;
    return { atSeconds: at, expiredAtSeconds: expiredAt, notTaken: held.map((run) => run.run_id), ...(afterReaper ? { afterReaper: true as const } : {}) };
  }

  private check(token: Token): void {
    if (token.kind === 'step' || token.kind === 'pause' || token.kind === 'resume' || token.kind === 'crash' || token.kind === 'restart') {
      const worker = this.workers.get(token.worker);
      if (!worker) {
        throw new ScheduleError(`this scenario has no worker ${token.worker}; its workers are ${[...this.workers.keys()].join(', ')}`);
      }
      if (token.kind === 'step') {
        const why = whyCannotMove(worker);
        if (why) throw new ScheduleError(`${token.worker} cannot move: ${why}`);
      }
      if (token.kind === 'pause' && (worker.paused || worker.phase === 'crashed')) {
        throw new ScheduleError(`${token.worker} cannot be paused: it is ${worker.paused ? 'already paused' : 'crashed'}`);
      }
      if (token.kind === 'resume' && !worker.paused) throw new ScheduleError(`${token.worker} is not paused`);
      if (token.kind === 'crash' && worker.phase === 'crashed') throw new ScheduleError(`${token.worker} has already crashed`);
      if (token.kind === 'restart' && worker.phase !== 'crashed') {
        throw new ScheduleError(`${token.worker} cannot restart: only a crashed worker starts again, and ${token.worker} is ${worker.phase}`);
      }
    }
    if (token.kind === 'cancel' || token.kind === 'kill') {
      if (!this.scenario.runs.some((run) => run.runId === token.runId)) {
        throw new ScheduleError(`there is no run ${token.runId}; the runs are ${this.scenario.runs.map((r) => r.runId).join(', ')}`);
      }
      if (token.kind === 'cancel' && this.operatorWait) {
        throw new ScheduleError(`the operator's cancel of run ${this.operatorWait.runId} is still waiting for a row lock`);
      }
      if (token.kind === 'kill' && !this.ownerOf(token.runId)) {
        throw new ScheduleError(`no live worker is running run ${token.runId}, so there is no process to kill`);
      }
    }
    if (token.kind === 'rescue' && this.rescuer.blockedOn.length > 0) {
      const waiting = this.rescuer.fetched[0] ? `write of run ${this.rescuer.fetched[0].runId}` : 'UPDATE';
      throw new ScheduleError(`the rescuer's ${waiting} is still waiting for a row lock`);
    }
  }

  private ownerOf(runId: number): WorkerState | undefined {
    return ownerToKill(this.workers.values(), runId);
  }

  private async stepWorker(id: WorkerId, token: string, tokenIndex: number): Promise<void> {
    const worker = this.workers.get(id)!;
    const action = nextAction(worker, this.scenario, this.settings, this.clockSeconds, this.workers.values());
    const plan = planAction(action, worker, this.scenario, this.settings);
    const request = { statement: plan.statement, params: plan.params, clockIso: clockIso(this.clockSeconds) };
    const outcome = await this.send(id, plan.mode, request);
    await this.recordWorkerStep(worker, action, plan.statement, plan.params, outcome, { token, tokenIndex, resumed: false });
    // A COMMIT that fails (40001 at SERIALIZABLE) has ended the transaction too: the server rolled it back.
    const endedTransaction = (plan.mode === 'commit' && (outcome.status === 'ok' || this.settings.isolation !== undefined)) || plan.mode === 'finish';
    // A statement of an explicit transaction that failed, or found nothing and committed, let go of its locks too.
    const after = this.workers.get(id)!.phase;
    // So did a two-statement claim's transaction that its SELECT found nothing in, or its UPDATE ended (what its SELECT locked).
    const twoStep = plan.mode === 'claim-continue' || (plan.mode === 'claim-transaction' && action === 'select');
    const letGo = (plan.mode === 'transaction' || twoStep) && after !== 'in-transaction' && after !== 'selected' && after !== 'blocked';
    // An advisory unlock (check --db: a completion that unlocks its run, as que and good_job do after the job)
    // lets go of a session-level lock a waiter may be waiting for, in whatever step it runs.
    const unlocked = plan.mode !== 'commit' && unlocksAdvisory(plan.statement);
    if (endedTransaction || letGo || unlocked) await this.wakeWaiters(token, tokenIndex);
  }

  /** Sends a worker's planned statement the way its plan says: in a claim's transaction, alone, or nothing at all. */
  private async send(id: WorkerId, mode: StatementPlan['mode'], request: StatementRequest): Promise<StatementOutcome> {
    switch (mode) {
      case 'model-call':
      case 'memory':
        return NOTHING_SENT;
      case 'finish':
        return this.finishHeldJob(id, request);
      case 'commit':
        return this.db.commit(id);
      case 'claim-transaction':
        return this.db.executeClaim(id, request);
      case 'claim-continue':
        return this.db.executeClaim(id, { ...request, continues: true });
      case 'transaction':
        return this.db.executeClaim(id, { ...request, isolation: this.strictLevel() });
      case 'rollback':
        return this.rollback(id);
      case 'autocommit':
        return this.db.execute(id, request);
    }
  }

  /**
   * What interpretOutcome needs to know of a two-statement claim's SELECT (ClaimShape readFirst), or of a claim
   * that holds its transaction for the whole job (holdForJob), if the claim is one.
   */
  private readFirstContext(): { readFirst?: { locks: boolean; runColumn: string }; holdForJob?: { locks: boolean; runColumn: string } } {
    const claim = definitionOf(this.settings).claim;
    if (claim.shape !== 'one-statement') return {};
    const { readFirst, holdForJob } = claim;
    if (holdForJob) return { holdForJob: { locks: holdForJob.locks, runColumn: holdForJob.runColumn } };
    return readFirst ? { readFirst: { locks: readFirst.locks, runColumn: readFirst.runColumn } } : {};
  }

  /**
   * The completion of a job held in its claim's transaction, in that transaction, which then commits: one
   * step, so no other worker runs in between (gue's Delete then Done). A completion that returned no row has
   * already committed (the port ends a claim's transaction that way), and the COMMIT finds none to end.
   */
  private async finishHeldJob(id: WorkerId, request: StatementRequest): Promise<StatementOutcome> {
    const outcome = await this.db.executeClaim(id, { ...request, continues: true });
    if (outcome.status === 'blocked') {
      throw new HeldCompletionWaits(
        `${id}'s completion would wait for a row lock held by ${outcome.holders.join(', ')}: the lab does not follow a job held in its claim's transaction through a wait yet (its completion must touch its own run only)`,
      );
    }
    if (outcome.status === 'ok') {
      const committed = await this.db.commit(id);
      if (committed.status === 'error' && committed.code !== NO_TRANSACTION) return committed;
    }
    return outcome;
  }

  /** A recovery lane's skip: the lane of its process the skip found running the run (what the process's memory says). */
  private runningLaneContext(worker: WorkerState, action: WorkerAction): { runningLane?: WorkerId } {
    if (action !== 'skip-active' || worker.runId === null) return {};
    const lane = laneRunning(worker.id, worker.runId, this.scenario, this.workers.values());
    return lane ? { runningLane: lane.id } : {};
  }

  /** The level of the claims' explicit transactions; only asked where the settings have one. */
  private strictLevel(): StrictIsolation {
    if (!this.settings.isolation) throw new Error('no isolation level above READ COMMITTED is set');
    return this.settings.isolation;
  }

  private async rollback(id: WorkerId): Promise<StatementOutcome> {
    if (!this.db.rollback) throw new Error(`the ${this.db.kind} database cannot roll back a worker's explicit transaction`);
    return this.db.rollback(id);
  }

  private async recordWorkerStep(
    before: WorkerState,
    action: WorkerAction,
    statement: LabStatement,
    params: TraceStep['params'],
    outcome: StatementOutcome,
    at: { token: string; tokenIndex: number; resumed: boolean },
  ): Promise<void> {
    const runBefore = this.runRows.find((run) => run.run_id === before.runId);
    const interpretation = interpretOutcome(before, action, outcome, {
      scenario: this.scenario,
      clockSeconds: this.clockSeconds,
      runBefore,
      runsBefore: this.runRows,
      paid: !at.resumed,
      fencing: this.settings.fencing,
      claimsPendingOnly: this.rescuerDefinition() !== null,
      claimLimitedTo: definitionOf(this.settings).limitedTo,
      ...(this.settings.isolation ? { isolation: this.settings.isolation } : {}),
      ...(statement.deletesRun ? { deletesRun: true } : {}),
      ...this.readFirstContext(),
      ...this.runningLaneContext(before, action),
    });
    this.workers.set(before.id, interpretation.worker);
    if (outcome.status === 'blocked') {
      this.waitOrder.push(before.id);
      if (!this.waitContext.has(before.id)) this.waitContext.set(before.id, JSON.stringify([this.clockSeconds, this.runRows]));
    } else {
      this.waitContext.delete(before.id);
    }
    await this.refresh();
    this.push({
      token: at.token,
      tokenIndex: at.tokenIndex,
      actor: before.id,
      action,
      sqlId: statement.id,
      sql: statement.text,
      params,
      outcome,
      verdict: interpretation.verdict,
      runId: interpretation.worker.runId ?? before.runId,
      facts: interpretation.facts,
      resumed: at.resumed,
      staleWrite: interpretation.staleWrite,
    });
  }

  /**
   * After a transaction ends, statements waiting for its locks go on: on PGlite oldest first, on a real
   * server in the order the server let them on (see LabDatabase.wakeOrder), so that a waiter the server
   * let in first is collected first and one still waiting behind it is not shown waiting on a statement
   * that has finished. A waiter still waiting on one that went on and ended its transaction in this wake
   * goes on in another round, as it does on the server the moment that transaction ends.
   */
  private async wakeWaiters(token: string, tokenIndex: number): Promise<void> {
    let queue = [...this.waitOrder];
    this.waitOrder = [];
    while (queue.length > 0) {
      const woken = this.db.wakeOrder ? await this.db.wakeOrder(queue) : { order: queue, overtaken: false };
      if (woken.overtaken) this.overtook = true;
      const ended = new Set<SessionId>();
      const stillWaiting = new Map<SessionId, SessionId[]>();
      for (const session of woken.order) {
        const outcome = await this.retryWaiter(session, token, tokenIndex);
        if (outcome === null) continue;
        if (outcome.status === 'blocked') stillWaiting.set(session, outcome.holders);
        else if (this.workers.get(session)?.phase !== 'in-transaction') ended.add(session);
      }
      queue = this.waitOrder.filter((session) => stillWaiting.get(session)?.some((holder) => ended.has(holder)));
      this.waitOrder = this.waitOrder.filter((session) => !queue.includes(session));
    }
  }

  /** The waiting session's statement, asked again: blocked again or its answer, recorded; null when it was not waiting. */
  private async retryWaiter(session: SessionId, token: string, tokenIndex: number): Promise<StatementOutcome | null> {
    if (session === OPERATOR) return this.retryOperator(token, tokenIndex);
    if (session === RESCUER) return this.retryRescuer(token, tokenIndex);
    const worker = this.workers.get(session);
    if (!worker || worker.phase !== 'blocked' || worker.waitingAction === null || worker.waitingAction === 'cancel-request') return null;
    const outcome = await this.db.retryBlocked(session);
    if (outcome.status === 'blocked') {
      // Still waiting, now perhaps on someone else: no new step, just who it waits for.
      this.workers.set(session, {
        ...withoutWait(worker),
        blockedOn: outcome.holders,
        waitingAction: worker.waitingAction,
        ...(outcome.advisory ? { blockedOnAdvisory: true as const } : {}),
      });
      this.waitOrder.push(session);
      this.db.takeEngineFact();
      return outcome;
    }
    const action = worker.waitingAction;
    const resumedFrom = { ...worker, phase: worker.generation === null ? ('ready' as const) : ('owner' as const) };
    const plan = planAction(action, resumedFrom, this.scenario, this.settings);
    await this.recordWorkerStep(resumedFrom, action, plan.statement, plan.params, outcome, { token, tokenIndex, resumed: true });
    return outcome;
  }

  /**
   * Moves the clock. A timed fault due on the way comes after the clock step that reaches its time: the
   * clock moves to the fault's time, the fault happens, and the clock moves on for the rest (if any).
   */
  private async advance(seconds: number, token: string, tokenIndex: number): Promise<void> {
    const target = this.clockSeconds + seconds;
    for (;;) {
      const due = this.agenda.find((event) => event.atSeconds <= target);
      if (!due) break;
      this.agenda = this.agenda.filter((event) => event !== due);
      const worker = this.workers.get(due.worker);
      const applies = worker && worker.phase !== 'crashed' && (due.kind !== 'resume' || worker.paused) && (due.kind !== 'pause' || !worker.paused);
      if (!applies) continue;
      if (due.atSeconds > this.clockSeconds) this.moveClock(due.atSeconds, token, tokenIndex);
      await this.fault(due.kind, due.worker, token, tokenIndex, 'clock', true);
    }
    if (target > this.clockSeconds || seconds === 0 || this.steps.at(-1)?.tokenIndex !== tokenIndex) this.moveClock(target, token, tokenIndex);
  }

  private moveClock(to: number, token: string, tokenIndex: number): void {
    const from = this.clockSeconds;
    this.clockSeconds = to;
    this.push({
      token,
      tokenIndex,
      actor: 'clock',
      action: 'advance',
      verdict: 'event',
      facts: [{ kind: 'clock-moved', fromSeconds: from, toSeconds: to }, ...this.expiredLeases(from, to)],
    });
  }

  /** The leases that ran out while the clock moved, and who can take their runs back. */
  private expiredLeases(from: number, to: number): StepFact[] {
    const expired = this.runRows.filter((run) => {
      if (run.status !== 'running' || run.lease_expires_at === null) return false;
      const at = (Date.parse(run.lease_expires_at) - Date.parse(clockIso(0))) / 1000;
      return at >= from && at < to;
    });
    if (expired.length === 0) return [];
    const leases = expired.map((run) => ({ run: run.run_id, owner: run.lease_owner }));
    return [{ kind: 'lease-expired', leases, takenBackBy: this.rescuerDefinition() ? 'rescuer' : 'expiry-claim' }];
  }

  private async fault(kind: 'pause' | 'resume' | 'crash', id: WorkerId, token: string, tokenIndex: number, actor: Actor, timed = false): Promise<void> {
    const worker = this.workers.get(id)!;
    const plannedAt = timed ? this.clockSeconds : null;
    if (kind === 'pause') {
      this.workers.set(id, { ...worker, paused: true });
      this.push({
        token,
        tokenIndex,
        actor: id,
        action: 'pause',
        verdict: 'event',
        facts: [{ kind: 'paused', worker: id, plannedAt }],
      });
      return;
    }
    if (kind === 'resume') {
      this.workers.set(id, { ...worker, paused: false });
      const facts: StepFact[] = [{ kind: 'resumed', worker: id, plannedAt }];
      if (worker.runId !== null && believesItOwns(worker)) facts.push({ kind: 'still-believes', worker: id, run: worker.runId, generation: worker.generation });
      this.push({ token, tokenIndex, actor: id, action: 'resume', verdict: 'event', facts });
      return;
    }
    // A two-statement claim's transaction is open from its SELECT on (what the SELECT locked is held).
    const held =
      worker.phase === 'in-transaction' || worker.holding === true || (worker.phase === 'selected' && this.readFirstContext().readFirst !== undefined);
    await this.db.crash(id);
    this.waitOrder = this.waitOrder.filter((s) => s !== id);
    this.waitContext.delete(id);
    this.workers.set(id, crashedState(worker));
    await this.refresh();
    const facts: StepFact[] = [{ kind: 'crashed', worker: id, plannedAt }];
    if (held) facts.push({ kind: 'transaction-rolled-back', worker: id }, ...this.rolledBackClaim(worker));
    if (worker.runId !== null && worker.phase === 'owner' && !worker.holding) facts.push({ kind: 'lease-orphaned', worker: id, run: worker.runId });
    this.push({
      token,
      tokenIndex,
      actor: actor === 'operator' ? 'operator' : id,
      action: 'crash',
      verdict: 'event',
      runId: worker.runId,
      facts,
    });
    // A session-level advisory lock (check --db) outlives the transaction; the crash ended the connection that held it.
    if (held || takesAdvisoryLocks(this.settings.definition)) await this.wakeWaiters(token, tokenIndex);
  }

  /**
   * A crashed worker starts again under its old name. Its new life has a new session (the port opens one
   * at its next statement) and none of the old life's beliefs; the run that life held still names it.
   */
  private restart(id: WorkerId, token: string, tokenIndex: number): void {
    const dead = this.workers.get(id)!;
    const life = lifeOf(dead) + 1;
    this.workers.set(id, { ...initialWorker({ id, ...(dead.name === undefined ? {} : { name: dead.name }) }), life });
    const forgot =
      dead.runId !== null && this.runRows.some((run) => run.run_id === dead.runId && run.status === 'running' && run.lease_owner === nameOf(dead))
        ? dead.runId
        : null;
    this.push({ token, tokenIndex, actor: id, action: 'restart', verdict: 'event', runId: forgot, facts: [{ kind: 'restarted', worker: id, life, forgot }] });
  }

  /** What a crash's rollback did to the claim the worker had not committed: it never happened. */
  private rolledBackClaim(worker: WorkerState): StepFact[] {
    if (worker.runId === null || worker.generation === null) return [];
    const row = this.runRows.find((run) => run.run_id === worker.runId);
    const back = row ? { generation: row.lease_generation, status: row.status } : null;
    return [{ kind: 'claim-undone', worker: worker.id, run: worker.runId, generation: worker.generation, row: back }];
  }

  private async cancel(runId: number, token: string, tokenIndex: number): Promise<void> {
    const request = { statement: CANCEL_REQUEST, params: [runId], clockIso: clockIso(this.clockSeconds) };
    const outcome = await this.db.execute(OPERATOR, request);
    if (outcome.status === 'blocked') {
      this.operatorWait = { runId, token, tokenIndex };
      this.waitOrder.push(OPERATOR);
    }
    await this.recordOperatorStep(runId, outcome, token, tokenIndex, false);
  }

  private async retryOperator(token: string, tokenIndex: number): Promise<StatementOutcome | null> {
    const wait = this.operatorWait;
    if (!wait) return null;
    const outcome = await this.db.retryBlocked(OPERATOR);
    if (outcome.status === 'blocked') {
      this.waitOrder.push(OPERATOR);
      this.db.takeEngineFact();
      return outcome;
    }
    this.operatorWait = null;
    await this.recordOperatorStep(wait.runId, outcome, token, tokenIndex, true);
    return outcome;
  }

  private async recordOperatorStep(runId: number, outcome: StatementOutcome, token: string, tokenIndex: number, resumed: boolean): Promise<void> {
    await this.refresh();
    const verdict: Verdict = outcome.status === 'ok' ? (outcome.rowCount > 0 ? 'ok' : 'empty') : outcome.status === 'blocked' ? 'blocked' : 'error';
    const fact: StepFact =
      outcome.status === 'blocked'
        ? { kind: 'waits', waiter: { kind: 'operator-cancel', run: runId }, holders: outcome.holders }
        : { kind: verdict === 'ok' ? 'cancel-requested' : 'cancel-missed', run: runId };
    this.push({
      token,
      tokenIndex,
      actor: 'operator',
      action: 'cancel-request',
      sqlId: CANCEL_REQUEST.id,
      sql: CANCEL_REQUEST.text,
      params: [runId],
      outcome,
      verdict,
      runId,
      facts: [fact],
      resumed,
    });
  }

  private async kill(runId: number, token: string, tokenIndex: number): Promise<void> {
    const owner = this.ownerOf(runId)!;
    const held = owner.phase === 'in-transaction';
    await this.db.crash(owner.id);
    this.waitOrder = this.waitOrder.filter((s) => s !== owner.id);
    this.waitContext.delete(owner.id);
    this.workers.set(owner.id, crashedState(owner));
    await this.refresh();
    this.push({
      token,
      tokenIndex,
      actor: 'operator',
      action: 'kill',
      verdict: 'event',
      runId,
      facts: [{ kind: 'killed', run: runId, worker: owner.id }],
    });
    // A session-level advisory lock (check --db) outlives the transaction; the crash ended the connection that held it.
    if (held || takesAdvisoryLocks(this.settings.definition)) await this.wakeWaiters(token, tokenIndex);
  }

  /** The queue's rescuer as its own process in this scenario, or null where its rescue is folded into the claim. */
  private rescuerDefinition(): RescuerDefinition | null {
    return this.scenario.rescuer ? (definitionOf(this.settings).rescuer ?? null) : null;
  }

  /**
   * The rescuer's next step: with nothing fetched it reads the stuck runs; otherwise it writes the first
   * one it fetched back to pending. The read and the write are separate statements, as in the queue's own
   * rescuer, so a worker's completion can land between them.
   */
  private async rescue(token: string, tokenIndex: number): Promise<void> {
    const definition = this.rescuerDefinition();
    const at = { token, tokenIndex, actor: 'rescuer' as const, verdict: 'event' as const };
    if (!definition) {
      const name = definitionOf(this.settings).queue?.name ?? definitionOf(this.settings).id;
      this.push({
        ...at,
        action: 'rescue-idle',
        facts: [{ kind: 'no-rescuer', queue: name }],
      });
      return;
    }
    const stallsAt = this.scenario.rescuer?.stallsAtSeconds;
    if (stallsAt !== undefined && this.clockSeconds >= stallsAt) {
      this.push({
        ...at,
        action: 'rescue-stalled',
        facts: [{ kind: 'rescuer-stalled', sinceSeconds: stallsAt }],
      });
      return;
    }
    if (definition.shape === 'one-statement') {
      const outcome = await this.db.execute(RESCUER, {
        statement: definition.sweep,
        params: constantValues(definition.sweep.params),
        clockIso: clockIso(this.clockSeconds),
      });
      await this.recordSweep(definition.sweep, outcome, { token, tokenIndex, resumed: false });
      return;
    }
    const next = this.rescuer.fetched[0];
    if (!next) {
      const outcome = await this.db.execute(RESCUER, { statement: definition.fetch, params: [], clockIso: clockIso(this.clockSeconds) });
      const found = outcome.status === 'ok' ? outcome.rows.map((row) => ({ runId: Number(row.run_id), generation: Number(row.lease_generation) })) : [];
      this.rescuer = { fetched: found, blockedOn: [] };
      await this.refresh();
      this.push({
        ...at,
        action: 'rescue-fetch',
        sqlId: definition.fetch.id,
        sql: definition.fetch.text,
        outcome,
        verdict: outcome.status !== 'ok' ? 'error' : found.length > 0 ? 'ok' : 'empty',
        runId: found[0]?.runId ?? null,
        facts: [{ kind: 'rescuer-read', runs: found.map((run) => ({ run: run.runId, generation: run.generation })) }],
      });
      return;
    }
    const statement = this.settings.fencing ? definition.rescue.fenced : definition.rescue.unfenced;
    const params = statement.params.map((name) => (name === 'generation' ? next.generation : next.runId));
    const outcome = await this.db.execute(RESCUER, { statement, params, clockIso: clockIso(this.clockSeconds) });
    await this.recordRescue(statement, params, outcome, { token, tokenIndex, resumed: false });
  }

  private async retryRescuer(token: string, tokenIndex: number): Promise<StatementOutcome | null> {
    const definition = this.rescuerDefinition();
    if (!definition || this.rescuer.blockedOn.length === 0) return null;
    const outcome = await this.db.retryBlocked(RESCUER);
    // Still waiting: the same wait goes on, whichever shape the rescuer has.
    if (outcome.status === 'blocked') {
      this.rescuer = { ...this.rescuer, blockedOn: outcome.holders };
      this.waitOrder.push(RESCUER);
      this.db.takeEngineFact();
      return outcome;
    }
    const at = { token, tokenIndex, resumed: true };
    if (definition.shape === 'one-statement') {
      await this.recordSweep(definition.sweep, outcome, at);
      return outcome;
    }
    const next = this.rescuer.fetched[0]!;
    const statement = this.settings.fencing ? definition.rescue.fenced : definition.rescue.unfenced;
    const params = statement.params.map((name) => (name === 'generation' ? next.generation : next.runId));
    await this.recordRescue(statement, params, outcome, at);
    return outcome;
  }

  private async recordRescue(
    statement: LabStatement,
    params: TraceStep['params'],
    outcome: StatementOutcome,
    at: { token: string; tokenIndex: number; resumed: boolean },
  ): Promise<void> {
    const next = this.rescuer.fetched[0]!;
    if (outcome.status === 'blocked') {
      this.rescuer = { ...this.rescuer, blockedOn: outcome.holders };
      this.waitOrder.push(RESCUER);
    } else {
      this.rescuer = { fetched: this.rescuer.fetched.slice(1), blockedOn: [] };
    }
    const before = this.runRows.find((run) => run.run_id === next.runId);
    await this.refresh();
    const written = outcome.status === 'ok' && outcome.rowCount > 0;
    const verdict: Verdict = outcome.status === 'blocked' ? 'blocked' : outcome.status === 'error' ? 'error' : written ? 'ok' : 'rejected';
    const was = before ? { status: before.status, owner: before.lease_owner } : null;
    const run = next.runId;
    const fact: StepFact =
      outcome.status === 'blocked'
        ? { kind: 'waits', waiter: { kind: 'rescuer-write', run }, holders: outcome.holders }
        : written
          ? before?.status === 'running'
            ? { kind: 'rescued', run }
            : { kind: 'rescued-finished-run', run, was }
          : verdict === 'rejected'
            ? { kind: 'rescue-missed', run, was }
            : { kind: 'rescue-failed', run };
    this.push({
      token: at.token,
      tokenIndex: at.tokenIndex,
      actor: 'rescuer',
      action: 'rescue',
      sqlId: statement.id,
      sql: statement.text,
      params,
      outcome,
      verdict,
      runId: next.runId,
      facts: [fact],
      resumed: at.resumed,
    });
  }

  /** A one-statement rescue (Oban's Lifeline): every stuck run back to pending in one UPDATE, purely on time. */
  private async recordSweep(statement: LabStatement, outcome: StatementOutcome, at: { token: string; tokenIndex: number; resumed: boolean }): Promise<void> {
    this.rescuer = { fetched: [], blockedOn: outcome.status === 'blocked' ? outcome.holders : [] };
    if (outcome.status === 'blocked') this.waitOrder.push(RESCUER);
    const before = this.runRows;
    await this.refresh();
    const rescued =
      outcome.status !== 'ok' ? [] : statement.id === CUSTOM_REAPER_ID ? takenFromRunning(before, this.runRows) : outcome.rows.map((row) => Number(row.run_id));
    const verdict: Verdict = outcome.status === 'blocked' ? 'blocked' : outcome.status === 'error' ? 'error' : rescued.length > 0 ? 'ok' : 'empty';
    const runs = rescued.map((runId) => ({ run: runId, owner: before.find((run) => run.run_id === runId)?.lease_owner ?? null }));
    const fact: StepFact =
      outcome.status === 'blocked'
        ? { kind: 'waits', waiter: { kind: 'rescuer-sweep' }, holders: outcome.holders }
        : verdict === 'ok'
          ? { kind: 'swept', runs, marked: rescueFailedRuns(outcome) ? 'failed' : 'pending' }
          : { kind: verdict === 'empty' ? 'swept-nothing' : 'sweep-failed' };
    this.push({
      token: at.token,
      tokenIndex: at.tokenIndex,
      actor: 'rescuer',
      action: 'rescue',
      sqlId: statement.id,
      sql: statement.text,
      params: constantValues(statement.params),
      outcome,
      verdict,
      runId: rescued[0] ?? null,
      facts: [fact],
      resumed: at.resumed,
    });
  }

  /** Reads the committed runs table and the held row locks: what every step records. */
  private async refresh(): Promise<void> {
    this.runRows = await this.db.runs();
    const locks = await this.db.locks();
    this.lockRows = locks.map((lock) => ({ session: lock.session, runIds: [...lock.runIds] })).sort((a, b) => a.session.localeCompare(b.session));
  }

  private push(step: Partial<TraceStep> & Pick<TraceStep, 'token' | 'tokenIndex' | 'actor' | 'action' | 'verdict' | 'facts'>): void {
    const recorded: RecordedStep = {
      index: this.steps.length,
      token: step.token,
      tokenIndex: step.tokenIndex,
      actor: step.actor,
      action: step.action,
      sqlId: step.sqlId ?? null,
      sql: step.sql ?? null,
      params: step.params ?? [],
      outcome: step.outcome ?? null,
      verdict: step.verdict,
      runId: step.runId ?? null,
      clockSeconds: this.clockSeconds,
      facts: step.facts,
      note: narrate(step.facts),
      ...engineNarration(this.db.takeEngineFact()),
      resumed: step.resumed ?? false,
      staleWrite: step.staleWrite ?? null,
      workers: this.workerStates(),
      runs: this.runRows,
      locks: this.lockRows,
    };
    this.steps.push({ ...recorded, anomalies: this.anomalies.observe(recorded, this.steps) });
  }
}

/** The step's engine fact and its words (a step's fields, in the order a trace has always listed them). */
function engineNarration(fact: EngineFact | null): Pick<TraceStep, 'engineFact' | 'engineNote'> {
  return { engineFact: fact, engineNote: fact === null ? null : narrateEngine(fact) };
}

function timedEvents(scenario: Scenario): TimedEvent[] {
  const events: TimedEvent[] = [];
  for (const fault of scenario.faults) {
    if (fault.kind === 'pause') {
      events.push({ atSeconds: fault.atSeconds, kind: 'pause', worker: fault.worker });
      events.push({ atSeconds: fault.atSeconds + fault.forSeconds, kind: 'resume', worker: fault.worker });
    } else {
      events.push({ atSeconds: fault.atSeconds, kind: 'crash', worker: fault.worker });
    }
  }
  // Stable by time, then by the order the scenario lists them.
  return events
    .map((event, order) => ({ event, order }))
    .sort((a, b) => a.event.atSeconds - b.event.atSeconds || a.order - b.order)
    .map((x) => x.event);
}

/** A model call of a held job (StatementPlan mode model-call): nothing was sent, so nothing answers but this. */
const NOTHING_SENT: StatementOutcome = { status: 'ok', rows: [], rowCount: 0 };

/** PostgreSQL's "there is no transaction in progress": a COMMIT after a statement that already ended its transaction. */
const NO_TRANSACTION = '25P01';

/**
 * A worker after its process died. A claim it had not committed rolled back with its transaction: it holds
 * no run, generation or lease, so nothing shows it as held. A committed claim stays what it believed (its
 * lease is still in the row, an orphan until it expires).
 */
function crashedState(worker: WorkerState): WorkerState {
  const crashed: WorkerState = { ...withoutWait(worker), phase: 'crashed', paused: false };
  // A held job's transaction rolled back: the worker's claim is undone, as an open claim's is.
  if (worker.phase !== 'in-transaction' && !worker.holding) return crashed;
  return { ...withoutHolding(crashed), runId: null, generation: null, leaseExpiresAtSeconds: null, lastHeartbeatSeconds: null };
}

/**
 * Whether Simulation.stateKey is the history (the steps taken), not the state. Above READ COMMITTED an open
 * transaction's snapshot decides its future too, and the rows cannot show it (which commits came after it);
 * so do the advisory locks a claim of someone's took (check --db): the server holds them, the key cannot see
 * them. No two histories are then taken for one state.
 */
function keyedByHistory(settings: Settings): boolean {
  return Boolean(settings.isolation) || takesAdvisoryLocks(settings.definition);
}

/** What the explorer counts when it counts keys (stateKey) under these settings, in the words a report uses. */
export function statesCounted(settings: Settings): string {
  return keyedByHistory(settings) ? 'distinct histories' : 'distinct states';
}
