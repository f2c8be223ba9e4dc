/**
 * The host side of the protocol: one Simulation (the deterministic engine) on one LabDatabase, driven by load
 * and apply requests. It runs inside the Web Worker in the browser and in process in Node tests (InProcessLabClient).
 *
 * The database is the learner's, and it can be lent: to the lesson's run (lendDatabase) or to the console
 * standing behind the end of the trace. A loan is recorded (`lentTo`) and ended by takeBack(), which
 * replays the learner's schedule; every learner request takes the database back first.
 */
import { BridgeFailure } from '../db/bridge-lab';
import { yourSqlRefusalOf } from '../db/custom-claim-guard';
import type { LabDatabase } from '../db/port';
import { sqlStateOf } from '../db/values';
import { nextPolicyToken } from '../engine/run';
import { replay, replayOnto } from '../engine/replay';
import { Simulation } from '../engine/simulation';
import { offTheRecording, type Recording, recordingIdFor } from '../recordings';
import { findScenario } from '../scenarios';
import { adoptAuthored } from '../scenarios/authored';
import { clockIso } from '../sim/clock';
import { isWorkerToken, MAX_SCHEDULE_LENGTH, ScheduleError } from '../sim/schedule';
import { STRATEGIES, type TraceStep } from '../sim/types';
import { checkConsoleSql } from '../sql/console';
import {
  type ApplyRequest,
  type ApplyResult,
  type ConsoleRequest,
  type ConsoleResult,
  type EndStatus,
  type LoadRequest,
  type LoadResult,
  type RefusedToken,
  type ReopenRequest,
  type ReopenResult,
  type ReopenWhy,
  whyYourSqlFailed,
} from './protocol';

/** Who has the learner's database: the lesson's run, or the console standing after an earlier step. */
export type Borrower = 'lesson' | 'console';

/** A long replay reports progress at least this often, so the page's watchdog knows it is alive. */
const PROGRESS_EVERY_MS = 200;

/**
 * A recording the learner is stepping through (recordings/): the first `applied` tokens of its schedule are
 * the trace, and the next token is the only move; nothing of it runs on the lab's database.
 */
interface RecordedPlay {
  recording: Recording;
  applied: number;
}

export class LabHost {
  private sim: Simulation | null = null;
  /** Set instead of `sim` while a recording is played: the settings name a level above READ COMMITTED. */
  private recorded: RecordedPlay | null = null;
  /** The last worker letter applied: where round-robin carries on from. */
  private lastWorker: string | undefined;
  /** Who the learner's database is lent to (null: the learner's simulation stands on it). */
  private lentTo: Borrower | null = null;
  /** While lent to the console: its replay of the learner's first tokens, kept for its next statement there. */
  private consoleView: Simulation | null = null;

  constructor(
    private readonly db: LabDatabase,
    private readonly onProgress: () => void = () => {},
    /** Wall-clock milliseconds, only to pace progress reports (the simulation never reads it). */
    private readonly nowMs: () => number = () => performance.now(),
  ) {}

  private lastProgressMs = 0;

  private progress(): void {
    const now = this.nowMs();
    if (now - this.lastProgressMs < PROGRESS_EVERY_MS) return;
    this.lastProgressMs = now;
    this.onProgress();
  }

  async load(request: LoadRequest): Promise<LoadResult> {
    const scenario = findScenario(request.scenarioId) ?? (request.authored?.id === request.scenarioId ? adoptAuthored(request.authored) : undefined);
    if (!scenario) throw new Error(`there is no scenario "${request.scenarioId}"`);
    if (!STRATEGIES.includes(request.settings.strategy)) throw new Error(`there is no strategy "${request.settings.strategy}"`);
    if (request.schedule.length > MAX_SCHEDULE_LENGTH) throw new Error(`a schedule may have at most ${MAX_SCHEDULE_LENGTH} steps`);
    if (request.settings.isolation) return this.loadRecording(request);
    this.recorded = null;
    // A definition comes only from the page's "Your SQL", built from statements the analyzer accepted.
    const definition = request.settings.definition;
    const settings = { strategy: request.settings.strategy, fencing: request.settings.fencing === true, ...(definition ? { definition } : {}) };
    const sim = new Simulation(this.db, scenario, settings);
    this.sim = sim;
    // A load starts the learner afresh: whatever had the database has lost it.
    this.lentTo = null;
    this.consoleView = null;
    this.lastWorker = undefined;
    let initialRuns: LoadResult['initialRuns'] = [];
    let initialWorkers: LoadResult['initialWorkers'] = [];
    const steps: TraceStep[] = [];
    const { refused } = await replayOnto(sim, request.schedule, {
      onInapplicable: request.onInapplicable,
      afterReset: () => {
        this.progress();
        initialRuns = sim.trace().finalRuns;
        initialWorkers = sim.workerStates();
      },
      beforeToken: () => this.progress(),
      applied: (token, taken) => {
        steps.push(...taken);
        this.noteWorker(token);
      },
    });
    const trace = sim.trace();
    return { scenarioId: scenario.id, settings, schedule: trace.schedule, refused, initialRuns, initialWorkers, steps, status: this.status() };
  }

  /**
   * Opens the learner's place again, the one policy for every way back (see ReopenAfter): the place is
   * replayed. If it plays the learner's SQL and the lab cannot follow a statement of it through it (a link,
   * or the steps before a refused one), the lab stands before its first step instead. If the learner's SQL
   * failed (told by the page, or PostgreSQL raising an error while a link is opened), the place is played
   * with the built-in strategy the SQL was chosen over. Any other failure is the caller's to handle.
   */
  async reopen(request: ReopenRequest): Promise<ReopenResult> {
    const { place, after, onInapplicable } = request;
    const { definition, ...builtIn } = place.settings;
    const opened = async (settings: LoadRequest['settings'], schedule: string[], why: ReopenWhy): Promise<ReopenResult> => {
      const result = await this.load({ type: 'load', ...place, settings, schedule, onInapplicable });
      const dropped = why.kind === 'claim-refused' ? place.schedule.map((token, index) => ({ index, token, reason: why.reason })) : result.refused;
      return { result, kept: result.schedule.length, dropped, why };
    };
    if (typeof after === 'object') return opened(builtIn, place.schedule, { kind: 'your-sql-failed', reason: after.yourSqlFailed });
    try {
      return await opened(place.settings, place.schedule, { kind: 'replayed' });
    } catch (error) {
      // A live server that went away is the Web Worker's to handle (it leaves live mode), not the SQL's doing.
      if (!definition || error instanceof BridgeFailure) throw error;
      const refused = yourSqlRefusalOf(error);
      if (refused !== null && (after === 'link' || after === 'refusal')) {
        return opened(place.settings, [], { kind: 'claim-refused', ...refused });
      }
      if (after !== 'link' || refused !== null) throw error;
      return opened(builtIn, place.schedule, { kind: 'your-sql-failed', reason: whyYourSqlFailed(messageOf(error), sqlStateOf(error)) });
    }
  }

  /**
   * A level above READ COMMITTED: the trace recorded on a real server for this scenario, claim and level,
   * played up to where the request's schedule leaves it (its tokens as far as they are the recording's).
   * Never run here: PGlite is one session, and the live bridge runs no level above READ COMMITTED either.
   */
  private async loadRecording(request: LoadRequest): Promise<LoadResult> {
    const id = recordingIdFor(request.scenarioId, request.settings);
    if (!id) {
      throw new Error(
        `no trace of this claim at ${request.settings.isolation} was recorded on PostgreSQL, and the page cannot run it: use npm run sim -- run ${request.scenarioId} --isolation ${request.settings.isolation} --db postgres://…`,
      );
    }
    // Fetched when a recording is first opened: every recorded step, most of a hundred kilobytes the engine's start does without.
    const { recording } = await import('../recordings/files');
    const played = recording(id);
    const refused: RefusedToken[] = [];
    let applied = 0;
    for (const [index, token] of request.schedule.entries()) {
      if (played.schedule[applied] === token.trim()) {
        applied += 1;
        continue;
      }
      refused.push({ index, token, reason: offTheRecording(played, played.schedule[applied]) });
      if (request.onInapplicable === 'stop') break;
    }
    this.sim = null;
    this.recorded = { recording: played, applied };
    this.lentTo = null;
    this.consoleView = null;
    return {
      scenarioId: played.scenarioId,
      settings: { ...played.settings },
      schedule: played.schedule.slice(0, applied),
      refused,
      initialRuns: played.initialRuns,
      initialWorkers: played.initialWorkers,
      steps: played.steps.filter((step) => step.tokenIndex < applied),
      status: this.status(),
      recorded: { serverVersion: played.serverVersion, schedule: [...played.schedule] },
    };
  }

  /** The recording's next token, if `candidates` name it (or `fallback` lets the recording choose): its steps. */
  private applyRecorded(play: RecordedPlay, request: ApplyRequest): ApplyResult {
    const next = play.recording.schedule[play.applied];
    const refused: RefusedToken[] = [];
    for (const [index, token] of request.candidates.entries()) {
      if (next !== undefined && token.trim() === next) return this.takeRecorded(play, next, refused);
      refused.push({ index, token, reason: offTheRecording(play.recording, next) });
    }
    if (request.fallback && next !== undefined) return this.takeRecorded(play, next, refused);
    return { token: null, refused, steps: [], status: this.status() };
  }

  private takeRecorded(play: RecordedPlay, token: string, refused: RefusedToken[]): ApplyResult {
    const steps = play.recording.steps.filter((step) => step.tokenIndex === play.applied);
    play.applied += 1;
    return { token, refused, steps, status: this.status() };
  }

  /**
   * Lends the learner's database to `borrower` for `work` (the lesson's own runs reset it and play their
   * schedule). The learner's simulation is replayed onto it before the learner's next move (takeBack).
   */
  async lendDatabase<T>(borrower: Borrower, work: (db: LabDatabase) => Promise<T>): Promise<T> {
    this.lend(borrower);
    return work(this.db);
  }

  private lend(borrower: Borrower): void {
    this.lentTo = borrower;
    this.consoleView = null;
  }

  /** Ends a loan: replays the learner's schedule from a reset (the same tokens give the same state). */
  private async takeBack(): Promise<void> {
    if (this.lentTo === null) return;
    this.lentTo = null;
    this.consoleView = null;
    const old = this.sim;
    if (!old) return;
    const { sim } = await replay(
      this.db,
      { scenario: old.scenario, settings: old.settings, schedule: old.trace().schedule },
      { beforeToken: () => this.progress() },
    );
    this.sim = sim;
  }

  async apply(request: ApplyRequest): Promise<ApplyResult> {
    if (this.recorded) return this.applyRecorded(this.recorded, request);
    await this.takeBack();
    const sim = this.current();
    const refused: RefusedToken[] = [];
    for (const [index, token] of request.candidates.entries()) {
      const steps = await this.tryApply(token, index, refused);
      if (steps) return { token, refused, steps, status: this.status() };
    }
    if (request.fallback) {
      const token = nextPolicyToken(sim, { kind: 'round-robin' }, this.lastWorker, () => 0);
      if (token !== null) {
        const steps = await this.tryApply(token, request.candidates.length, refused);
        if (steps) return { token, refused, steps, status: this.status() };
      }
    }
    return { token: null, refused, steps: [], status: this.status() };
  }

  /**
   * The learner's console statement, on the database as it stands after the first `upTo` tokens of the
   * learner's schedule. Refused statements never reach the database.
   */
  async console(request: ConsoleRequest): Promise<ConsoleResult> {
    const check = checkConsoleSql(request.sql);
    if (check.kind === 'refused') return check;
    if (this.recorded) {
      const { serverVersion } = this.recorded.recording;
      return {
        kind: 'refused',
        reason: `the console runs on the database in your browser, and this trace was recorded on PostgreSQL ${serverVersion}: its rows at each step are in the runs table`,
      };
    }
    if (!this.db.runConsole) throw new Error(`the SQL console is not available on ${this.db.kind}`);
    const view = await this.standAt(request.upTo);
    const answer = await this.db.runConsole(check, clockIso(view.sim.clock), request.maxRows);
    return { ...answer, at: { tokens: view.tokens, clockSeconds: view.sim.clock } };
  }

  /**
   * Makes the database stand after the first `tokens` tokens of the learner's schedule: as it is at the
   * end (taken back if lent), else lent to the console for a replay of that prefix (kept for the next
   * console statement at the same place) and taken back before the learner's next move.
   */
  private async standAt(tokens: number): Promise<{ sim: Simulation; tokens: number }> {
    const learner = this.current();
    const schedule = learner.trace().schedule;
    const upTo = Math.max(0, Math.min(schedule.length, Math.floor(tokens)));
    if (upTo === schedule.length) {
      await this.takeBack();
      return { sim: this.current(), tokens: upTo };
    }
    if (this.lentTo === 'console' && this.consoleView && this.consoleView.trace().schedule.length === upTo) return { sim: this.consoleView, tokens: upTo };
    this.lend('console');
    const { sim: view } = await replay(
      this.db,
      { scenario: learner.scenario, settings: learner.settings, schedule: schedule.slice(0, upTo) },
      { beforeToken: () => this.progress() },
    );
    this.consoleView = view;
    return { sim: view, tokens: upTo };
  }

  /** The learner's scenario, settings and schedule, so another database can take over by replaying them. */
  learnerView(): Pick<LoadRequest, 'scenarioId' | 'settings' | 'schedule'> | null {
    if (this.recorded) {
      const { recording: played, applied } = this.recorded;
      return { scenarioId: played.scenarioId, settings: { ...played.settings }, schedule: played.schedule.slice(0, applied) };
    }
    if (!this.sim) return null;
    return { scenarioId: this.sim.scenario.id, settings: { ...this.sim.settings }, schedule: [...this.sim.trace().schedule] };
  }

  private async tryApply(token: string, index: number, refused: RefusedToken[]): Promise<TraceStep[] | null> {
    try {
      const steps = await this.current().apply(token);
      this.noteWorker(token);
      return steps;
    } catch (error) {
      if (!(error instanceof ScheduleError)) throw error;
      refused.push({ index, token, reason: error.message });
      return null;
    }
  }

  private noteWorker(token: string): void {
    if (isWorkerToken(token.trim())) this.lastWorker = token.trim();
  }

  private current(): Simulation {
    if (!this.sim) throw new Error('no scenario is loaded yet');
    return this.sim;
  }

  private status(): EndStatus {
    if (this.recorded) {
      const { recording: played, applied } = this.recorded;
      const next = played.schedule[applied];
      const last = played.steps.filter((step) => step.tokenIndex < applied).at(-1);
      return {
        movable: next !== undefined && isWorkerToken(next) ? [next] : [],
        isOver: next === undefined,
        nextEventSeconds: null,
        clockSeconds: last?.clockSeconds ?? 0,
      };
    }
    const sim = this.current();
    return { movable: sim.movable(), isOver: sim.isOver(), nextEventSeconds: sim.nextEventSeconds(), clockSeconds: sim.clock };
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
