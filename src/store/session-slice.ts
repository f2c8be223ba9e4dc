/**
 * The session: which scenario, which settings, the schedule and its trace, and the cursor. Every
 * learner action takes its turn in the lab's one queue (webworker/lab-queue.ts) and sends its requests
 * with the `send` it is given there; a request that hangs ends in a new engine (a
 * spare booted in advance, or a restart) and a replay of the schedule there (see webworker/client.ts),
 * told to the learner in a notice.
 */
import type { StateCreator } from 'zustand/vanilla';
import { findScenario } from '../scenarios';
import { authoredFor, rememberAuthored } from '../scenarios/authored';
import { lanedFrom, type ReaperScenario, reaperScenario, ScheduleAsWritten, withRescueSteps } from '../scenarios/reaper-lane';
import { anomaliesAfter } from '../sim/anomalies';
import { isClockToken, isWorkerToken } from '../sim/schedule';
import { STRATEGY_LABELS, type Settings, type Strategy } from '../sim/types';
import { CONSOLE_ROWS_SHOWN } from '../sql/console';
import { ownReaperOf } from '../strategies/custom';
import type { YourSqlRefusal } from '../strategies/custom';
import { LabHostError, refusalIn, WatchdogError } from '../webworker/client';
import type { Send } from '../webworker/lab-queue';
import {
  type ApplyResult,
  type LoadResult,
  type RefusedToken,
  type ReopenAfter,
  type ReopenResult,
  type ReopenWhy,
  type SpecResult,
  whyYourSqlFailed,
} from '../webworker/protocol';
import { movableWorkers, secondsToNextExpiry, snapshotAfter, unshowableTime } from './derive';
import { listRefused } from './notices';
import { decodeLink } from './permalink';
import { decodeSpecLink, specLinkValue, specOrderOf, specStepOf } from './spec-link';
import { loadPlace } from './persist';
import { branchFor, scriptCandidates, tokensRevealed } from './script';
import type { ConsoleOutcome, LabDeps, LabState, SessionSlice } from './types';
import { type CheckedView, defaultView, fitPosition, isStartView, type View } from './view';
import { buildYourSql, describeProblem, ROLE_NAMES, type YourSqlTexts } from './your-sql';

type Basis = Pick<View, 'scenarioId' | 'settings' | 'schedule'>;

/**
 * The place as the lab plays it: a reaper of the learner's own runs at the rescue steps of a rescuer's lane, so
 * a built-in scenario without one is played as its copy with the lane check --reaper gives it
 * (scenarios/reaper-lane.ts), its steps so far with the rescue steps the lane adds; the trace, the link and the
 * scenario shown are then the copy's. Without the reaper (a built-in strategy chosen, the reaper removed), the
 * copy goes back to the scenario it copies.
 */
function onReaperLane<T extends Basis>(place: T): T {
  if (ownReaperOf(place.settings.definition) === null) {
    // The copy was made for the reaper: without one, the built-in scenario it copies, without the rescuer's steps.
    const copied = lanedFrom(place.scenarioId);
    return copied === undefined ? place : { ...place, scenarioId: copied.id, schedule: place.schedule.filter((token) => token !== 'rescue') };
  }
  const laned = laneAdded(place);
  if (laned === null) return place;
  rememberAuthored(laned.scenario);
  // The learner's steps so far, as check would have played them on the lane: the reaper's turn after each step of the clock.
  return { ...place, scenarioId: laned.id, schedule: withRescueSteps(place.schedule) };
}

/** The copy with a rescuer's lane that onReaperLane plays `place` on, when it adds the lane; null when it adds none. */
function laneAdded(place: Basis): ReaperScenario | null {
  if (ownReaperOf(place.settings.definition) === null) return null;
  const scenario = findScenario(place.scenarioId);
  const laned = scenario === undefined ? null : reaperScenario(scenario);
  return laned === null || laned.spec === null ? null : laned;
}

/**
 * The trace position a link's step=N lands on (`steps`: the trace's length). A link written by hand without the
 * lane the lab adds for a reaper, or by the page on the lane and its reaper cut out (`written`), counts its
 * steps as it has them. Past its last step it shows the last one, and `problems` says so; null when the notice
 * already says the schedule was cut short.
 */
function linkedPosition(asked: number | null, steps: number, written: ScheduleAsWritten | null, problems: string[] | null): number {
  const counted = written?.stepCount ?? steps;
  const fitted = problems === null ? Math.min(asked ?? counted, counted) : fitPosition(asked, counted, problems);
  if (written === null) return fitted;
  return asked === null || asked > counted ? steps : written.position(fitted);
}

/** Why the link's schedule stops at a step, in the link's own numbers (`schedule`: its steps as written). */
function cannotHappen(stop: RefusedToken, schedule: readonly string[], written: ScheduleAsWritten | null): string {
  const index = written?.writtenIndex(stop.index) ?? stop.index;
  const added = written?.added(stop.index) ?? false;
  const what = added ? `The reaper's turn the lab adds after step ${index + 1} ("${schedule[index]}")` : `Step ${index + 1} ("${stop.token}")`;
  const kept = added ? index + 1 : index;
  const dropped = written?.droppedBefore(stop.index) ?? 0;
  const unplayed = dropped === 0 ? '' : `, ${dropped === 1 ? "the reaper's turn" : `the reaper's ${dropped} turns`} among them not played: ${NO_REAPER}`;
  return `${what} cannot happen at that point: ${stop.reason}. The lab kept the ${kept} step${kept === 1 ? '' : 's'} before it${unplayed}.`;
}

/** Why a link written on the lane, its reaper cut out, has no reaper's turns. */
const NO_REAPER = 'there is no reaper of your own to play them';

/** A link's step=N that names a reaper's turn the lab dropped (written off the lane): one line, or null. */
function droppedTurnNamed(asked: number | null, schedule: readonly string[], written: ScheduleAsWritten | null): string | null {
  const before = asked === null || written === null || asked > written.stepCount ? null : written.droppedTurn(asked);
  if (before === null || asked === null) return null;
  const after = before < 0 ? 'at the start' : `after step ${before + 1} ("${schedule[before]}")`;
  const shown = before < 0 ? 'the start' : `step ${before + 1}`;
  return `It asks for step ${asked}, the reaper's turn ${after}; without a reaper of your own there is no such turn, so the lab shows ${shown}.`;
}

/** Whether `place` is a copy made for a reaper whose link has no reaper: onReaperLane plays it without its `rescue` steps. */
function laneDropped(place: Basis): boolean {
  return ownReaperOf(place.settings.definition) === null && lanedFrom(place.scenarioId) !== undefined && place.schedule.includes('rescue');
}

/** A held-down key must not queue minutes of work: past this many learner actions, another is dropped. */
const MOST_ACTIONS_WAITING = 20;

/**
 * A trace the engine played but the page cannot draw: a time its clock cannot show (a claim that sets
 * lease_expires_at to 'infinity'). Such a trace never reaches the store, so it is never drawn or saved.
 */
class UndrawableTrace extends Error {}

/** Throws UndrawableTrace when a step holds a time the lab's clock cannot show. */
function checkDrawable(steps: LoadResult['steps']): void {
  const why = unshowableTime(steps);
  if (why !== null) throw new UndrawableTrace(`${why}, a time the lab's clock and timeline cannot show`);
}

/** The settings at READ COMMITTED: a move that needs a new run leaves a recording (the page runs no other level). */
function readCommitted(settings: Settings): Settings {
  const { isolation: _recorded, ...rest } = settings;
  return rest;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Why a request that played the learner's own SQL failed, as the rest of a sentence: an error PostgreSQL
 * raised running it (a misspelt column, a missing $1: its SQLSTATE crosses the Web Worker typed), a time the
 * lab cannot draw, or the lab's own failure while playing it, said as such. null for what is handled on its
 * own: a hang, the engine gone, or a refusal (typed).
 */
function failureOfYourSql(error: unknown, engineFailed: boolean): string | null {
  if (error instanceof WatchdogError || engineFailed || refusalIn(error) !== null) return null;
  if (error instanceof UndrawableTrace) return error.message;
  return whyYourSqlFailed(messageOf(error), error instanceof LabHostError ? error.sqlState : null);
}

/** What the learner is told when the watchdog ends a request: a title and why (the replay is added). */
interface Explanation {
  title: string;
  why: string;
}

/** How long one console statement may run before the engine's worker is replaced (the console says so). */
export { STATEMENT_LIMIT_MS } from '../webworker/client';

/** How a token reads in "while …" and "… cannot happen now". */
function describeToken(token: string): string {
  if (isWorkerToken(token)) return `stepping worker ${token}`;
  if (isClockToken(token)) return `moving the clock ${token.slice(1)} s`;
  const [kind, target] = token.split(':');
  switch (kind) {
    case 'pause':
      return `pausing worker ${target}`;
    case 'resume':
      return `resuming worker ${target}`;
    case 'crash':
      return `crashing worker ${target}`;
    case 'restart':
      return `restarting worker ${target}`;
    case 'cancel':
      return `cancelling run ${target}`;
    case 'kill':
      return `killing the worker of run ${target}`;
    default:
      return `applying "${token}"`;
  }
}

/** "1.5 s", "2 s". */
function seconds(ms: number): string {
  return `${ms / 1000} s`;
}

/** What the lab did after ending the stuck worker, as the rest of a sentence. */
function carriedOn(error: WatchdogError): string {
  return error.replacement === 'spare' ? 'carried on with a spare Postgres, started in advance in another Web Worker' : 'started Postgres again in a new one';
}

export function createSessionSlice(deps: LabDeps): StateCreator<LabState, [], [], SessionSlice> {
  return (set, get) => {
    /** Learner actions waiting or running (the store shows that the lab is working). */
    let actions = 0;
    /** Counts the settings the learner chose (changeSettings shows them at once, before their replay). */
    let settingsWanted = 0;

    /**
     * Runs a learner action in its turn; `fallback` is its result when too many wait or it failed. If the
     * engine hangs during it, `redo` rebuilds the view on the new engine, still in the action's turn:
     * by default the trace the learner had (the task's own change is dropped); a task that loads a
     * view passes itself, so the view it was opening is opened after all.
     */
    function enqueue<T>(
      label: string,
      task: (send: Send) => Promise<T>,
      fallback: T,
      redo?: (send: Send) => Promise<unknown>,
      explain?: (error: WatchdogError) => Explanation,
    ): Promise<T> {
      if (actions >= MOST_ACTIONS_WAITING) return Promise.resolve(fallback);
      set({ pending: ++actions });
      return deps.lab.act(async (send) => {
        try {
          return await task(send);
        } catch (error) {
          await recover(send, label, error, redo, explain);
          return fallback;
        } finally {
          set({ pending: --actions });
        }
      });
    }

    /** `wanted`: the settingsWanted count its settings were chosen at (default: now, as the load starts). */
    async function load(send: Send, chosen: Basis, mode: 'skip' | 'stop', wanted = settingsWanted): Promise<LoadResult> {
      const basis = onReaperLane(chosen);
      const result = await send({
        type: 'load',
        scenarioId: basis.scenarioId,
        settings: basis.settings,
        schedule: basis.schedule,
        onInapplicable: mode,
        ...authoredFor(basis.scenarioId),
      });
      checkDrawable(result.steps);
      show(result, settingsWanted !== wanted);
      return result;
    }

    /**
     * A loaded trace becomes the learner's. `superseded`: the learner changed a setting while it loaded; that
     * change's own replay is queued behind, so the controls keep showing what was chosen rather than flipping
     * back to this trace's settings until it comes.
     */
    function show(result: LoadResult, superseded = false): void {
      set({
        scenarioId: result.scenarioId,
        settings: superseded ? get().settings : result.settings,
        traceSettings: result.settings,
        schedule: result.schedule,
        steps: result.steps,
        recorded: result.recorded ?? null,
        initialRuns: result.initialRuns,
        initialWorkers: result.initialWorkers,
        status: result.status,
        loaded: true,
        stalled: false,
        selected: null,
      });
    }

    /**
     * Opens `place` again by the engine's one policy (LabHost.reopen), which says what it kept and why; the
     * store only shows it. A trace the page cannot draw is checked here, where it is drawn: when the learner's
     * SQL made it, the engine is told so and reopens with the built-in strategy.
     */
    async function reopen(send: Send, place: Basis, after: ReopenAfter, mode: 'skip' | 'stop'): Promise<ReopenResult> {
      const played = onReaperLane(place);
      const opened = await send({ type: 'reopen', place: { ...played, ...authoredFor(played.scenarioId) }, after, onInapplicable: mode });
      const undrawable = unshowableTime(opened.result.steps);
      if (undrawable !== null) {
        const why = `${undrawable}, a time the lab's clock and timeline cannot show`;
        if (after !== 'link' || !opened.result.settings.definition) throw new UndrawableTrace(why);
        return reopen(send, played, { yourSqlFailed: why }, mode);
      }
      show(opened.result);
      return opened;
    }

    /**
     * The one place a reopening is told: the editor gets why the learner's SQL was not played, and a step
     * that failed midway gets a notice; for a link, the sentence its notice lists is returned instead.
     * `refused` is the refusal the learner met midway (the engine's reopening may meet another), `step` the
     * number the timeline gives the step it refused (the CLI names it so too).
     */
    function showReopened(why: ReopenWhy, at: 'midway' | 'link', refused: YourSqlRefusal | null = null, step: number | null = null): string | null {
      const refusal = refused ?? (why.kind === 'claim-refused' ? { role: why.role, reason: why.reason } : null);
      const reason = refusal?.reason ?? (why.kind === 'your-sql-failed' ? why.reason : null);
      if (reason === null) return null;
      const sentence = `${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`;
      const label = STRATEGY_LABELS[get().settings.strategy];
      if (why.kind === 'your-sql-failed' || refusal === null) {
        set({ yourSql: { ...get().yourSql, open: true, checking: false, problem: { role: null, kind: 'invalid', message: reason } } });
        if (at === 'link') return `Its SQL was not played: ${reason}. The lab used "${label}"; your statements are in the editor.`;
        get().notify('warning', `Your SQL was not played, so the lab plays "${label}".`, [
          sentence,
          `Your statements are in the editor; your steps were replayed with "${label}".`,
        ]);
        return null;
      }
      const { role } = refusal;
      const whose = `Your ${ROLE_NAMES[role]}`;
      set({ yourSql: { ...get().yourSql, open: true, checking: false, problem: { role, kind: 'refused', reason } } });
      if (at === 'link') return `${whose} cannot play this schedule in the lab: ${reason}. The lab opened it before its first step.`;
      // Tied to the place it was met (ui-slice.ts notify): Step pressed again there shows it once, moving on or editing ends it.
      if (why.kind === 'replayed')
        get().notify(
          'warning',
          `${whose} cannot take ${step === null ? 'that step' : `step ${step}`} in the lab.`,
          [sentence, 'The lab kept your steps before it.'],
          'place',
        );
      else get().notify('warning', `${whose} cannot play this schedule in the lab.`, [sentence, 'The lab started the scenario afresh with your SQL.'], 'place');
      return null;
    }

    function basis(): Basis {
      const { scenarioId, settings, schedule } = get();
      return { scenarioId, settings, schedule };
    }

    /** The trace the learner had, replayed on a fresh engine (after a restart). */
    async function replayCurrent(send: Send): Promise<void> {
      const { position } = get();
      const { result } = await reopen(send, basis(), 'crash', 'skip');
      set({ position: Math.min(position, result.steps.length) });
    }

    /** After a failed request: restart-and-replay for a hang, a notice for anything else. */
    async function recover(
      send: Send,
      label: string,
      error: unknown,
      redo: (send: Send) => Promise<unknown> = replayCurrent,
      explain?: (error: WatchdogError) => Explanation,
    ): Promise<void> {
      set({ playing: false });
      const refusal = get().settings.definition ? refusalIn(error) : null;
      if (refusal !== null) return refusedMidway(send, refusal);
      const failure = get().settings.definition ? failureOfYourSql(error, get().enginePhase === 'failed') : null;
      if (failure !== null) return failedMidway(send, failure);
      if (!(error instanceof WatchdogError)) {
        if (error instanceof LabHostError && get().enginePhase === 'failed') return; // the banner already says so
        get().notify('error', `Something went wrong while ${label}.`, [error instanceof Error ? error.message : String(error)]);
        return;
      }
      const { title, why } = explain?.(error) ?? {
        title: `Postgres stopped answering while ${label}, so the lab restarted it.`,
        why: `No answer came within ${seconds(error.limitMs)}. Inside PGlite a statement that waits for a row lock never returns, so the lab ended its Web Worker and ${carriedOn(error)}.`,
      };
      try {
        await redo(send);
        const n = get().schedule.length;
        get().notify('warning', title, [`${why} It replayed your ${n} step${n === 1 ? '' : 's'}: you are where you were.`]);
      } catch (again) {
        if (!(again instanceof WatchdogError)) throw again;
        get().notify('error', title, [why, 'Replaying your schedule hung as well, so the lab started this scenario afresh.']);
        await load(send, { ...basis(), schedule: [] }, 'stop');
        set({ position: 0, intended: [] });
      }
    }

    /**
     * The engine stopped a step of the learner's own SQL that the lab cannot play (db/custom-claim-guard.ts):
     * the engine reopens the steps before it, or, if even those cannot be played with it (the SQL was just
     * applied to a schedule), the scenario before its first step. The editor shows the reason.
     */
    async function refusedMidway(send: Send, refusal: YourSqlRefusal): Promise<void> {
      const { position } = get();
      const { result, why } = await reopen(send, basis(), 'refusal', 'skip');
      if (why.kind === 'replayed') set({ position: Math.min(position, result.steps.length), intended: result.schedule });
      else set({ position: 0, intended: [] });
      // The steps before it were kept, so the refused one is the timeline's next.
      showReopened(why, 'midway', refusal, result.steps.length + 1);
    }

    /**
     * The learner's own SQL failed while the lab played it (Apply, a step, a new fencing setting): the engine
     * reopens the learner's steps with the built-in strategy it was chosen over, as a link whose SQL cannot be
     * played opens with the scenario's own strategy. The editor keeps the SQL.
     */
    async function failedMidway(send: Send, why: string): Promise<void> {
      const { scenarioId, settings, intended, position, steps } = get();
      const atEnd = position >= steps.length;
      const opened = await reopen(send, { scenarioId, settings, schedule: intended }, { yourSqlFailed: why }, 'skip');
      const { result } = opened;
      set({ position: atEnd ? result.steps.length : Math.min(position, result.steps.length), intended: result.schedule });
      showReopened(opened.why, 'midway');
    }

    /**
     * Opens a link's view and the spec it carries (spec-link.ts), shown in "Your SQL" and not run; a spec
     * that cannot be read adds one line to the link's notice and changes nothing else.
     */
    async function openLinkView(fragment: string, checked: CheckedView): Promise<void> {
      const value = specLinkValue(fragment);
      const decoded = value === null ? null : await decodeSpecLink(value);
      const linkedStep = specStepOf(fragment);
      const problems = [
        ...checked.problems,
        ...(decoded?.problem ? [decoded.problem] : []),
        ...(decoded?.text != null && linkedStep.problem ? [linkedStep.problem] : []),
      ];
      // openView takes the view's settings at once, so the editor opened beside the spec starts from them.
      const opening = openView({ ...checked, problems }, 'This link could not be opened exactly as written.');
      if (decoded?.text != null) get().openSpecFromLink(decoded.text, specOrderOf(fragment), linkedStep.step);
      await opening;
    }

    async function openView(checked: CheckedView, title: string, from: 'link' | 'saved' = 'link'): Promise<void> {
      const { problems } = checked;
      let view = checked.view;
      set({ playing: false, scenarioId: view.scenarioId, settings: view.settings, loaded: false, steps: [], schedule: [], position: 0, selected: null });
      // A link that names a built-in strategy closes the editor (its draft stays), as choosing one does: open, it
      // would keep the picker on "Your SQL" while the link's strategy plays. A spec in the link opens it again.
      if (from === 'link' && !checked.yourSql && get().yourSql.open) set({ yourSql: { ...get().yourSql, open: false } });
      const task = async (send: Send) => {
        const all = [...problems];
        if (checked.yourSql) view = await withYourSql(view, checked.yourSql, all, from);
        // Written without the lane the lab adds for a reaper, the link counts its steps as written.
        // Written on the lane, its reaper cut out, it counts the reaper's turns the lab drops.
        const lane = laneAdded(view) === null ? null : withRescueSteps(view.schedule);
        const dropped = laneDropped(view);
        const { result, why } = await reopen(send, view, 'link', 'stop');
        const told = showReopened(why, 'link');
        if (told !== null) all.push(told);
        const stop = result.refused[0];
        const written =
          lane !== null
            ? ScheduleAsWritten.onLane(lane, result.steps)
            : dropped
              ? ScheduleAsWritten.offLane(view.schedule, result.steps, stop?.index ?? null)
              : null;
        let position: number;
        if (why.kind === 'claim-refused') {
          position = 0;
        } else {
          if (stop) all.push(cannotHappen(stop, view.schedule, written));
          const turn = droppedTurnNamed(view.position, view.schedule, written);
          if (turn !== null) all.push(turn);
          position = linkedPosition(view.position, result.steps.length, written, stop ? null : all);
        }
        set({ position, intended: result.schedule });
        if (all.length > 0) get().notify('warning', title, all);
      };
      await enqueue('opening the scenario', task, undefined, task);
    }

    /**
     * The view with the link's or saved place's own statements built in; when they cannot be played, the
     * view keeps its built-in strategy and `problems` says why. The editor shows a link's statements, but
     * after a reload (the saved place) the learner's own draft, which may be newer than what they applied.
     */
    async function withYourSql(view: View, texts: YourSqlTexts, problems: string[], from: 'link' | 'saved'): Promise<View> {
      const built = await buildYourSql(texts);
      const draft = from === 'saved' ? (get().yourSql.draft ?? texts) : texts;
      set({ yourSql: { ...get().yourSql, open: true, draft, checking: false, problem: built.ok ? null : built.problem } });
      if (built.ok) return { ...view, settings: { ...view.settings, definition: built.definition } };
      problems.push(
        `Its SQL was not played: ${describeProblem(built.problem)}. The lab used "${STRATEGY_LABELS[view.settings.strategy]}"; your statements are in the editor.`,
      );
      return view;
    }

    async function changeSettings(settings: Settings, what: string): Promise<void> {
      // Too many actions wait: the change is dropped as enqueue would drop its replay, so the controls do not show a setting no trace will have.
      if (actions >= MOST_ACTIONS_WAITING) return;
      const wanted = ++settingsWanted;
      set({ playing: false, settings });
      const task = async (send: Send) => {
        const { scenarioId, intended, position, steps } = get();
        const atEnd = position >= steps.length;
        const result = await load(send, { scenarioId, settings, schedule: intended }, 'skip', wanted);
        set({ position: atEnd ? result.steps.length : Math.min(position, result.steps.length) });
        if (result.refused.length > 0) {
          const n = result.refused.length;
          get().notify(
            'info',
            `${what}, ${n} step${n === 1 ? '' : 's'} of your schedule no longer appl${n === 1 ? 'ies' : 'y'} and ${n === 1 ? 'was' : 'were'} skipped.`,
            listRefused(result.refused),
          );
        }
      };
      await enqueue('replaying the schedule with the new setting', task, undefined, task);
    }

    function append(result: ApplyResult & { token: string }, reveal: 'first' | 'all'): void {
      checkDrawable(result.steps);
      const { steps, schedule } = get();
      const nextSchedule = [...schedule, result.token];
      set({
        steps: [...steps, ...result.steps],
        schedule: nextSchedule,
        intended: nextSchedule,
        status: result.status,
        stalled: false,
        position: steps.length + (reveal === 'first' ? Math.min(1, result.steps.length) : result.steps.length),
        selected: null,
      });
    }

    return {
      enginePhase: 'starting',
      engineMessage: null,
      engineDatabase: null,
      pending: 0,
      scenarioId: defaultView().scenarioId,
      settings: defaultView().settings,
      traceSettings: defaultView().settings,
      schedule: [],
      intended: [],
      steps: [],
      recorded: null,
      initialRuns: [],
      initialWorkers: [],
      status: null,
      position: 0,
      selected: null,
      loaded: false,
      stalled: false,
      drawFailure: null,

      async start(fragment) {
        deps.lab.subscribe((event) => {
          if (event.kind === 'starting') set({ enginePhase: 'starting', engineMessage: event.restart ? 'Restarting Postgres…' : null });
          else if (event.kind === 'ready') {
            set({ enginePhase: 'ready', engineMessage: null, engineDatabase: event.database ?? null });
            const recovered = event.recovered ?? [];
            if (recovered.length > 0)
              get().notify(
                'warning',
                "The lab's saved copy in this browser was damaged, so the lab started from the network.",
                recovered.map((why) => `${why[0]?.toUpperCase()}${why.slice(1)}.`),
              );
          } else if (event.kind === 'database') {
            set({ engineDatabase: event.database });
            const why = event.database.kind === 'pglite' ? event.database.liveProblem : null;
            if (why)
              get().notify('warning', 'The live PostgreSQL server is gone, so the lab went back to PGlite in this tab.', [
                `${why[0]?.toUpperCase()}${why.slice(1)}.`,
                'Your steps were replayed on PGlite: you are where you were.',
              ]);
          } else set({ enginePhase: 'failed', engineMessage: event.message, playing: false });
        });
        const saved = loadPlace(deps.storage);
        // A link that names no real scenario opens the saved place instead of overwriting it.
        const fromLink = decodeLink(fragment, saved && saved.problems.length === 0 ? { view: saved.view, kind: 'saved' } : null);
        if (fromLink) return openLinkView(fragment, fromLink);
        // Not from a link, at the lab's start (a first visit, or one that left before its first step): the
        // start card opens the story, unless it was dismissed or done before.
        set({ startCardOpen: !get().startCardDone && isStartView((saved ?? { view: defaultView() }).view) });
        if (saved) return openView(saved, 'Your saved place could not be restored exactly.', 'saved');
        return openView({ view: defaultView(), problems: [] }, '');
      },

      async openLink(fragment) {
        const { loaded, scenarioId, settings, schedule, position } = get();
        const checked = decodeLink(fragment, loaded ? { view: { scenarioId, settings, schedule, position }, kind: 'current' } : null);
        if (checked) await openLinkView(fragment, checked);
      },

      async chooseScenario(id) {
        const scenario = findScenario(id);
        if (!scenario) return;
        const view = defaultView(id);
        // Your SQL goes with the learner to the next scenario (with that scenario's fencing).
        const { definition } = get().settings;
        if (definition) view.settings = { ...view.settings, definition };
        await openView({ view: { ...view, position: 0 }, problems: [] }, '');
      },

      chooseStrategy(strategy: Strategy) {
        // A built-in strategy replaces "Your SQL" (its statements stay in the editor's draft); a new claim leaves a recording.
        const { definition: _yours, isolation: _recorded, ...settings } = get().settings;
        set({ yourSql: { ...get().yourSql, open: false } });
        return changeSettings({ ...settings, strategy }, `With "${STRATEGY_LABELS[strategy]}"`);
      },

      playDefinition(definition) {
        return changeSettings({ ...readCommitted(get().settings), definition }, 'With your SQL');
      },

      setFencing(on) {
        return changeSettings({ ...readCommitted(get().settings), fencing: on }, `With fencing ${on ? 'on' : 'off'}`);
      },

      leaveRecording() {
        return changeSettings(readCommitted(get().settings), 'At READ COMMITTED');
      },

      step() {
        return enqueue(
          'taking the next step',
          async (send) => {
            const { loaded, position, steps, scenarioId, schedule } = get();
            if (!loaded) return false;
            if (position < steps.length) {
              set({ position: position + 1, selected: null });
              return true;
            }
            const script = findScenario(scenarioId)?.script ?? [];
            const result = await send({ type: 'apply', candidates: scriptCandidates(script, schedule), fallback: true });
            if (result.token === null) {
              set({ status: result.status, stalled: true });
              return false;
            }
            append({ ...result, token: result.token }, 'first');
            return true;
          },
          false,
        );
      },

      applyToken(token) {
        const label = describeToken(token);
        return enqueue(
          label,
          async (send) => {
            const before = get();
            if (!before.loaded) return false;
            if (isWorkerToken(token)) {
              const state = snapshotAfter(before.steps, before.position, before.initialRuns, before.initialWorkers);
              if (!movableWorkers(state.workers).includes(token)) {
                const worker = state.workers.find((w) => w.id === token);
                get().notify('info', `Worker ${token} cannot take a step now.`, worker ? [`${token} is ${worker.paused ? 'paused' : worker.phase}.`] : []);
                return false;
              }
            }
            const branch = branchFor(before.schedule, before.steps, before.position, token);
            if (branch.kind === 'reveal') {
              set({ position: branch.position, selected: null });
              return true;
            }
            const cut = branch.kind === 'truncate' && branch.schedule.length < before.schedule.length;
            if (cut) await load(send, { ...basis(), schedule: branch.schedule }, 'stop');
            const result = await send({ type: 'apply', candidates: [token], fallback: false });
            if (result.token === null) {
              if (cut) {
                // Nothing new happened: put the trace the learner had back.
                await load(send, { ...basis(), schedule: before.schedule }, 'stop');
                set({ position: before.position });
              }
              const reason = result.refused[0]?.reason;
              get().notify('info', `That cannot happen now (${label}).`, reason ? [`${reason.charAt(0).toUpperCase()}${reason.slice(1)}.`] : []);
              return false;
            }
            append({ ...result, token: result.token }, 'all');
            return true;
          },
          false,
        );
      },

      stepWorker(worker) {
        return get().applyToken(worker);
      },

      advanceClock(seconds) {
        return get().applyToken(`+${Math.max(1, Math.round(seconds))}`);
      },

      advanceToExpiry() {
        const { steps, position, initialRuns, initialWorkers } = get();
        const state = snapshotAfter(steps, position, initialRuns, initialWorkers);
        const seconds = secondsToNextExpiry(state.runs, state.clockSeconds);
        if (seconds === null) {
          get().notify('info', 'No lease is running, so there is no expiry to move the clock to.');
          return Promise.resolve(false);
        }
        return get().applyToken(`+${seconds}`);
      },

      back() {
        const { position } = get();
        set({ playing: false, position: Math.max(0, position - 1), selected: null });
      },

      seek(position) {
        const { steps } = get();
        set({ playing: false, position: Math.max(0, Math.min(steps.length, Math.round(position))), selected: null });
      },

      reset() {
        set({ playing: false });
        return enqueue(
          'resetting the scenario',
          async (send) => {
            await load(send, { ...basis(), schedule: [] }, 'stop');
            set({ position: 0, intended: [] });
          },
          undefined,
        );
      },

      select(index) {
        set({ selected: index });
      },

      drawFailed(message) {
        if (get().drawFailure === null) set({ drawFailure: message, playing: false });
      },

      async backToLastGoodPlace() {
        // The failed view was taken out of storage already (sync.ts), so the saved place is the one before it.
        const saved = loadPlace(deps.storage);
        // openView empties the trace at once; only then may the lab be drawn again.
        const opening = saved
          ? openView(saved, 'Your saved place could not be restored exactly.', 'saved')
          : openView({ view: defaultView(), problems: [] }, '');
        set({ drawFailure: null });
        await opening;
      },

      retryEngine() {
        deps.lab.restart();
        const { scenarioId, settings, intended, position } = get();
        void openView({ view: { scenarioId, settings, schedule: intended, position }, problems: [] }, '');
      },

      runTrace(scenario, settings, schedule) {
        return deps.lab.request({ type: 'run-trace', scenario, settings, schedule: [...schedule] });
      },

      async openScenarioAt({ scenarioId, settings, schedule, upTo }) {
        const played = upTo === null ? [] : schedule.slice(0, upTo + 1);
        await openView({ view: { scenarioId, settings, schedule: played, position: null }, problems: [] }, "The lesson's example could not be opened exactly.");
      },

      async runConsole(sql) {
        // Refused before it is queued: such a statement never reaches Postgres (the engine checks again).
        // The checker comes with the console's own code (a chunk the page's first load leaves out).
        const { checkConsoleSql } = await import('../sql/console');
        const check = checkConsoleSql(sql);
        if (check.kind === 'refused') return check;
        let stopped = null as WatchdogError | null;
        const outcome = await enqueue<ConsoleOutcome | null>(
          'running your console statement',
          async (send) => {
            const { loaded, steps, position } = get();
            if (!loaded) return { kind: 'failed', reason: 'Postgres is not ready yet: wait until the scenario has loaded.' };
            try {
              return await send({ type: 'console', sql, upTo: tokensRevealed(steps, position), maxRows: CONSOLE_ROWS_SHOWN });
            } catch (error) {
              if (error instanceof WatchdogError) {
                stopped = error;
                throw error; // the queue's recovery restarts Postgres and replays the learner's steps
              }
              return { kind: 'failed', reason: error instanceof Error ? error.message : String(error) };
            }
          },
          null,
          async (send) => {
            // Back to the learner's exact place: the same trace, cursor and selected step.
            const { selected } = get();
            await replayCurrent(send);
            if (selected !== null && selected < get().position) set({ selected });
          },
          (error) => ({
            title: `Your console statement ran for more than ${seconds(error.limitMs)}, so the lab stopped it.`,
            why: `Nothing can interrupt a statement inside PGlite (statement_timeout never fires there), so the lab ended the Web Worker that runs Postgres and ${carriedOn(error)}.`,
          }),
        );
        if (outcome) return outcome;
        return stopped
          ? {
              kind: 'stopped',
              reason: `The statement did not finish within ${seconds(stopped.limitMs)}, so the lab stopped it and ${stopped.replacement === 'spare' ? 'switched to a spare Postgres' : 'restarted Postgres'}. Your steps were replayed: you are where you were.`,
            }
          : { kind: 'failed', reason: 'The lab is busy: too many requests are waiting. Try again in a moment.' };
      },

      async checkSpec(text) {
        let failure: string | null = null;
        const result = await enqueue<SpecResult | null>(
          'running your spec',
          async (send) => {
            try {
              return await send({ type: 'spec', text });
            } catch (error) {
              if (error instanceof WatchdogError) {
                failure = `The spec gave no sign of life for ${seconds(error.limitMs)}, so the lab stopped it and ${error.replacement === 'spare' ? 'switched to a spare Postgres' : 'restarted Postgres'}. Your steps were replayed: you are where you were.`;
                throw error; // the queue's recovery puts the learner's scenario back on the new engine (LabHost.reopen)
              }
              failure = error instanceof Error ? error.message : String(error);
              return null;
            }
          },
          null,
          undefined,
          (error) => ({
            title: `Your spec gave no sign of life for ${seconds(error.limitMs)}, so the lab stopped it.`,
            why: `The lab ended the Web Worker that runs Postgres and ${carriedOn(error)}.`,
          }),
        );
        return result ?? { kind: 'failed', reason: failure ?? 'The lab is busy: too many requests are waiting. Try again in a moment.' };
      },

      consoleOpened() {
        deps.lab.prepareSpare?.();
      },

      simulateRunaway() {
        return enqueue(
          'running a statement that never returns',
          async (send) => {
            await send({ type: 'runaway' });
          },
          undefined,
        );
      },

      trace() {
        const { scenarioId, traceSettings, schedule, steps, initialRuns, engineDatabase, recorded } = get();
        return {
          scenario: scenarioId,
          settings: { ...traceSettings },
          schedule: [...schedule],
          steps,
          anomalies: anomaliesAfter(steps, steps.length),
          finalRuns: steps.at(-1)?.runs ?? initialRuns,
          // Where the steps ran: in live mode, or for a recording, a real PostgreSQL server, not the tab's PGlite.
          database: engineDatabase?.kind === 'live' || recorded !== null ? 'postgres' : 'pglite',
        };
      },
    };
  };
}
