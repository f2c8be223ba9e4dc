/** The lab's store: its state and actions, one interface per slice, combined once in lab-store.ts. */
import type { RunRow, Scenario, Settings, Strategy, Trace, TraceStep, WorkerState } from '../sim/types';
import type { LabClient } from '../webworker/client';
import type { ConsoleResult, ConsoleValue, DatabaseInfo, EndStatus, SpecResult } from '../webworker/protocol';
import type { Notice, NoticeTone } from './notices';
import type { StorageLike, ThemeChoice } from './persist';
import type { YourSqlRole } from './your-sql';
import type { SpecRunnerState } from './spec-slice';
import type { YourSqlEditor } from './your-sql-slice';
import type { StrategyDefinition } from '../strategies';
import type { RecordedSummary } from '../recordings';

type LabClientPhase = 'starting' | 'ready' | 'failed';

/**
 * A console statement's end: Postgres's answer (rows or error), refused before it was sent, stopped by
 * the watchdog (Postgres was restarted and the learner's steps replayed), or failed for another reason.
 */
/** One cell of a console answer, as the views show it. */
export type { ConsoleValue };

export type ConsoleOutcome = ConsoleResult | { kind: 'stopped'; reason: string } | { kind: 'failed'; reason: string };

export interface SessionSlice {
  enginePhase: LabClientPhase;
  /** Why the engine failed, or what it is doing ("Restarting Postgres…"). */
  engineMessage: string | null;
  /** The database the engine runs on (PGlite, or a live server through npm run live); null until it has started. */
  engineDatabase: DatabaseInfo | null;
  /** Requests queued or running. */
  pending: number;
  scenarioId: string;
  /** The settings the learner chose: they change at once, before the replay with them has arrived. */
  settings: Settings;
  /**
   * The settings the steps below were played with (the trace's own): they follow \`settings\` when the
   * replay arrives. Whatever reads the steps' workers reads these, never \`settings\`.
   */
  traceSettings: Settings;
  /** The schedule the trace was made from: every token in it applied. */
  schedule: string[];
  /** The schedule the learner built; replayed when a setting changes (tokens that no longer apply are skipped). */
  intended: string[];
  steps: TraceStep[];
  /** The steps are a recording made on a real server (recordings/): where it ran and its whole schedule; null for a trace played here. */
  recorded: RecordedSummary | null;
  initialRuns: RunRow[];
  initialWorkers: WorkerState[];
  /** What can happen after the last step of the trace. */
  status: EndStatus | null;
  /** Trace steps revealed (the cursor). */
  position: number;
  /** The step picked on the timeline; null follows the cursor. */
  selected: number | null;
  /** A trace for the current scenario and settings has arrived from the engine. */
  loaded: boolean;
  /** Step found nothing to play at the end of the trace: the script is done and no worker moves by itself. */
  stalled: boolean;
  /**
   * Why the page could not draw the view (a render error the lab's error boundary caught), or null. While
   * it is set, the view is neither written to the address nor saved as the learner's place (sync.ts).
   */
  drawFailure: string | null;

  /** Opens the view of a link, else the saved place, else the first scenario. Call once. */
  start(fragment: string): Promise<void>;
  /** A link pasted into the same tab. */
  openLink(fragment: string): Promise<void>;
  chooseScenario(id: string): Promise<void>;
  chooseStrategy(strategy: Strategy): Promise<void>;
  /** Plays a strategy built from the learner's own statements ("Your SQL"), replaying the schedule with it. */
  playDefinition(definition: StrategyDefinition): Promise<void>;
  setFencing(on: boolean): Promise<void>;
  /** Leaves a recording for the same scenario, claim and schedule at READ COMMITTED, run in the browser. */
  leaveRecording(): Promise<void>;
  /** Reveals the next step, or plays the script's next move, or lets the policy choose. False when nothing could happen. */
  step(): Promise<boolean>;
  /** Applies one schedule token at the cursor (cutting the schedule there if the learner went back). */
  applyToken(token: string): Promise<boolean>;
  stepWorker(worker: string): Promise<boolean>;
  advanceClock(seconds: number): Promise<boolean>;
  advanceToExpiry(): Promise<boolean>;
  back(): void;
  seek(position: number): void;
  reset(): Promise<void>;
  select(index: number | null): void;
  retryEngine(): void;
  /** The page could not draw the view: keep it from being saved (the boundary shows `message`). */
  drawFailed(message: string): void;
  /** After a view failed to draw: opens the place saved before it (or the lab's start when there is none). */
  backToLastGoodPlace(): Promise<void>;
  /**
   * Runs one statement from the SQL console, read-only, on the database as it stands at the cursor
   * (after Back, the engine replays to that point). A statement that runs away is stopped by the watchdog.
   */
  runConsole(sql: string): Promise<ConsoleOutcome>;
  /**
   * Runs a pasted spec in the engine's Web Worker, on a PGlite of its own, in the lab's queue. If the engine
   * must be replaced meanwhile, the learner's scenario is reopened on the new one, as after any hang.
   */
  checkSpec(text: string): Promise<SpecResult | { kind: 'failed'; reason: string }>;
  /** The learner opened the SQL console: a spare Postgres boots now, so a statement that runs away is recovered at once. */
  consoleOpened(): void;
  /** Sends a statement that never returns, to see the watchdog restart the engine. */
  simulateRunaway(): Promise<void>;
  /** The trace as the engine recorded it, for export. */
  trace(): Trace;
  /** Plays a whole schedule on its own (the lesson's questions); the learner's place is kept. */
  runTrace(scenario: Scenario, settings: Settings, schedule: readonly string[]): Promise<Trace>;
  /** Opens a scenario in the lab, played up to and including schedule token `upTo` (null: not started). */
  openScenarioAt(request: { scenarioId: string; settings: Settings; schedule: readonly string[]; upTo: number | null }): Promise<void>;
}

export interface PlaybackSlice {
  playing: boolean;
  /** Steps per second. */
  speed: number;
  play(): void;
  pause(): void;
  togglePlay(): void;
  setSpeed(speed: number): void;
}

export interface UiSlice {
  notices: Notice[];
  helpOpen: boolean;
  /** The docked tour: the lesson's current chapter step beside the timeline (its place is the lesson's progress). */
  tourOpen: boolean;
  theme: ThemeChoice;
  /** "All controls" (the free lab): every control shown, whatever the scenario needs (disclosure.ts). Remembered. */
  allControls: boolean;
  /** The start card is on screen: a first visit (no link, no saved place) whose card was never dismissed or done. */
  startCardOpen: boolean;
  /** The start card was dismissed or done: it does not come back. Remembered. */
  startCardDone: boolean;
  /** The moves of the level in play (its solution's tokens): the controls they use are shown (disclosure.ts). Empty outside a level. */
  levelMoves: readonly string[];
  /** `tiedTo`: see Notice.tiedTo. */
  notify(tone: NoticeTone, title: string, details?: string[], tiedTo?: Notice['tiedTo']): void;
  /** Drops the notices tied to the learner's place (Notice.tiedTo), when they move or edit. */
  dropPlaceNotices(): void;
  dismissNotice(id: number): void;
  setHelpOpen(open: boolean): void;
  setTourOpen(open: boolean): void;
  setTheme(theme: ThemeChoice): void;
  setAllControls(on: boolean): void;
  /** The start card was dismissed, or its first action taken: it closes for good. */
  closeStartCard(): void;
  setLevelMoves(moves: readonly string[]): void;
}

export interface YourSqlSlice {
  yourSql: YourSqlEditor;
  /** The picker chose "Your SQL": the editor opens with the saved draft, or the current strategy's statements. */
  openYourSql(): void;
  closeYourSql(): void;
  /** A role's text; null for a write: use the lab's own file. */
  editYourSql(role: YourSqlRole, text: string | null): void;
  /** A role's own parameter bindings (`2=worker`, `complete:1=run`), in place of the ones it had. */
  bindYourSql(role: YourSqlRole, flags: readonly string[]): void;
  /** Analyzes the draft and, if every statement is accepted, plays it. False when it was not. */
  applyYourSql(): Promise<boolean>;
}

export interface SpecSlice {
  specRunner: SpecRunnerState;
  /** Edits the spec (kept as a draft in the browser). */
  editSpec(text: string): void;
  /** Shows a link's spec (and the order it shows, once run) in an opened "Your SQL", without running or storing it. */
  openSpecFromLink(text: string, order: string | null, step?: number): void;
  /** The order of steps the learner opened (null: closed it), its lanes at their start; the link carries it. */
  showSpecOrder(order: string | null): void;
  /** Moves the opened order's lanes to a step (spec-lanes.ts); the link carries it. */
  showSpecStep(step: number): void;
  /** Runs every permutation of a pasted spec (checkSpec) and keeps what it answered. */
  runSpec(text: string): Promise<void>;
}

export type LabState = SessionSlice & PlaybackSlice & UiSlice & YourSqlSlice & SpecSlice;

export interface LabDeps {
  /** Where the lab's requests go: the Web Worker on the page, InProcessLabClient in Node. */
  lab: LabClient;
  storage: StorageLike | null;
  /** Waits between played steps; tests pass a faster one. */
  sleep?: (ms: number) => Promise<void>;
}
