/**
 * Runs a spec's permutations as PostgreSQL's isolation tester (14 and later) does, over a SpecDriver that owns
 * one connection per session and one control connection: the setup blocks on the control connection, each
 * session's setup, then the steps in order. A step is sent and awaited until it returns or its session waits
 * for a lock another session of the spec holds (then it is reported "<waiting ...>" and the next step is run);
 * after every step each waiting step is looked at again, and one that has returned is reported
 * "<... completed>". A step whose session is still waiting is held until that wait ends. Then the session
 * teardowns, the spec's checks (the lab's own addition) and the teardown. The output is the tester's text
 * (output.ts), so it can be diffed with PostgreSQL's expected/NAME.out.
 */
import { completedLine, formatReplies, noticeLine, parsedLine, permutationLine, type StepReply, stepLine, waitingLine } from './output';
import type { Blocker, PermutationStep, Spec, Step } from './parse';
import { stepsByName } from './parse';

/** What one connection gave back for one piece of SQL. */
export interface StepOutcome {
  replies: StepReply[];
}

export interface SessionNotice {
  severity: string;
  message: string;
}

/** What SQL on the control connection is: a setup block, the teardown, or a check. */
export type ControlRole = 'setup' | 'teardown' | 'check';

/** The connections a run drives. Sessions are named as in the spec; the control connection has none. */
export interface SpecDriver {
  /**
   * Runs SQL on the control connection (setup, teardown, checks) and waits for it. `role` lets a driver set
   * the spec's tables back its own way when that leaves the very state the teardown and setup would.
   */
  control(sql: string, role: ControlRole): Promise<StepOutcome>;
  /** Runs SQL on a session's connection and waits for it (its setup and teardown). */
  runOnSession(session: string, sql: string): Promise<StepOutcome>;
  /** Sends a step's SQL on its session's connection without waiting for it (`step`: its name, for messages). */
  send(session: string, sql: string, step?: string): void;
  /** The step's outcome if it returns within `ms`, else null (it is still running). */
  poll(session: string, ms: number): Promise<StepOutcome | null>;
  /** True when the session's statement waits for a lock held by another session of the spec. */
  isBlocked(session: string): Promise<boolean>;
  /**
   * True when the session's wait can still end by itself: something that holds what it waits for is itself
   * busy (a deadlock the server will break, a statement still running). False: only a step the permutation
   * has not reached yet could free it.
   */
  mayProgress(session: string): Promise<boolean>;
  /** Ends the session's running statement (pg_cancel_backend), for an invalid permutation or a time-out. */
  cancel(session: string): Promise<void>;
  /** The notices the session received since the last call, in order. */
  takeNotices(session: string): SessionNotice[];
  /** Rolls back whatever the session left open, so the next permutation starts clean. */
  reset(session: string): Promise<void>;
}

interface CheckResult {
  name: string;
  /** The rows that break it (none: it holds), or the error the query gave. */
  replies: StepReply[];
  broken: boolean;
}

/**
 * One step of a permutation as it ran, recorded at the moments its text is written (the lanes of the page
 * are drawn from it; the text stays the tester's). Columns are the permutation's steps, in the order sent.
 */
export interface StepTrace {
  session: string;
  step: string;
  /** The SQL as it was sent. */
  sql: string;
  /** Its column: the permutation's step it is (0 for the first). */
  sentAt: number;
  /** The column of the last step sent before it returned (its own when it did not wait); null: it never returned (the permutation stopped). */
  returnedAt: number | null;
  /** It was reported "<waiting ...>": it waited for a lock another session held (or for its markers). */
  waited: boolean;
  /**
   * A step that waited: the step sent last before it returned. On PGlite a wait ends only when a later step
   * frees the lock, so this is the step that freed it; on a server it can also be a deadlock broken or a
   * time-out. Null: it did not wait, or never returned.
   */
  releasedBy: string | null;
  /** What it gave back when it returned (rows, or the error). */
  replies: StepReply[];
}

export interface PermutationRun {
  names: string[];
  /** Each step sent, in order, with what it gave back: the same run as `output`, as data. */
  trace: StepTrace[];
  /** This permutation's part of the isolation tester's text. */
  output: string;
  /** Set when the permutation could not be followed to its end (a step needed a session still waiting). */
  invalid: string | null;
  /** Set when the driver could not follow it honestly (PermutationRefused): why, in one line. */
  refused: string | null;
  checks: CheckResult[];
  /** Teardowns that failed (the isolation tester prints these on stderr, not in its output). */
  teardownFailures: string[];
}

/**
 * A driver that emulates the sessions (PGlite) met something it cannot follow honestly: the permutation is
 * reported refused, with this one line (the step and why), and the run goes on with the next one.
 */
export class PermutationRefused extends Error {
  readonly userFacing = true;
}

/** The spec's setup, or a session's, failed: the run stops (one line, exit 2). */
class SpecSetupError extends Error {
  readonly userFacing = true;
}

export interface PermutationOptions {
  /** How often a running step is looked at (the isolation tester's 10 ms). */
  pollMs?: number;
  /** A step running this long without waiting for a lock is cancelled (PostgreSQL's tester: 300 s). */
  stepTimeoutMs?: number;
  /** Called after each permutation, e.g. to print it as it comes. */
  onPermutation?: (run: PermutationRun) => void;
}

/** "s1a(s2b)" as written, for the "starting permutation:" line (the tester prints the names only). */
const nameOf = (step: PermutationStep) => step.step;

class Transcript {
  text = '';
  write(part: string) {
    this.text += part;
  }
}

/** Runs every permutation in turn and returns what each printed and whether a check broke. */
export async function runPermutations(
  spec: Spec,
  permutations: PermutationStep[][],
  driver: SpecDriver,
  options: PermutationOptions = {},
): Promise<PermutationRun[]> {
  const runs: PermutationRun[] = [];
  for (const permutation of permutations) {
    const run = await runPermutation(spec, permutation, driver, options);
    runs.push(run);
    options.onPermutation?.(run);
  }
  return runs;
}

export function header(spec: Spec): string {
  return parsedLine(spec.sessions.length);
}

/** A spec's steps by name, built once per spec rather than once per permutation (a spec is never changed). */
const stepsBySpec = new WeakMap<Spec, Map<string, Step>>();
function stepsOf(spec: Spec): Map<string, Step> {
  let steps = stepsBySpec.get(spec);
  if (!steps) {
    steps = stepsByName(spec);
    stepsBySpec.set(spec, steps);
  }
  return steps;
}

interface Active {
  pstep: PermutationStep;
  step: Step;
  /** Notices its blockers' sessions must have sent before it may complete. */
  noticeTargets: Map<Blocker, number>;
  trace: StepTrace;
}

async function runPermutation(spec: Spec, permutation: PermutationStep[], driver: SpecDriver, options: PermutationOptions): Promise<PermutationRun> {
  const pollMs = options.pollMs ?? 10;
  const stepTimeoutMs = options.stepTimeoutMs ?? 300_000;
  const steps = stepsOf(spec);
  const out = new Transcript();
  const names = permutation.map(nameOf);
  out.write(permutationLine(names));
  const trace: StepTrace[] = [];
  const active = new Map<string, Active>();
  const totalNotices = new Map<string, number>(spec.sessions.map((s) => [s.name, 0]));
  let invalid: string | null = null;

  const flushNotices = (session: string) => {
    for (const notice of driver.takeNotices(session)) {
      totalNotices.set(session, (totalNotices.get(session) ?? 0) + 1);
      out.write(noticeLine(session, notice.severity, notice.message));
    }
  };
  const flushAllNotices = () => {
    for (const session of spec.sessions) flushNotices(session.name);
  };
  /** Answers that came back while a marker still held their step: the driver gives each answer once. */
  const held = new Map<string, StepOutcome>();
  const pollStep = async (session: string, ms: number): Promise<StepOutcome | null> => {
    const kept = held.get(session);
    if (kept) {
      held.delete(session);
      return kept;
    }
    return driver.poll(session, ms);
  };
  /** Cancels what a session still runs and waits for its answer, which is dropped. */
  const abandon = async (session: string) => {
    held.delete(session);
    await driver.cancel(session);
    while (!(await driver.poll(session, 50)));
    active.delete(session);
  };
  const blocked = (a: Active) =>
    a.pstep.blockers.some((blocker) => {
      if (blocker.kind === 'step') {
        const other = steps.get(blocker.step)!;
        return active.get(other.session)?.step.name === other.name;
      }
      if (blocker.kind === 'notices') return (totalNotices.get(steps.get(blocker.step)!.session) ?? 0) < a.noticeTargets.get(blocker)!;
      return false;
    });

  /**
   * The isolation tester's try_complete_step. 'nonblocking' (STEP_NONBLOCK): gives up, 'waiting', as soon as
   * the step waits for a lock another session holds. 'blocking': waits for the step to return, as the tester
   * does for a session's earlier step and at the end of a permutation, unless nothing can free its lock any
   * more ('stuck': only a later step could, so the permutation cannot be followed). A step that returned
   * while its markers still hold it is 'waiting' too. 'done': it completed and was reported.
   */
  const tryComplete = async (a: Active, mode: 'nonblocking' | 'blocking', retry: boolean): Promise<'waiting' | 'done' | 'stuck'> => {
    const session = a.step.session;
    if (!retry && a.pstep.blockers.some((b) => b.kind === 'once')) {
      flushNotices(session);
      out.write(waitingLine(a.step.name, a.step.sql));
      a.trace.waited = true;
      return 'waiting';
    }
    const started = Date.now();
    let outcome: StepOutcome | null = null;
    let cancelled = false;
    for (;;) {
      outcome = await pollStep(session, pollMs);
      if (outcome) break;
      if (await driver.isBlocked(session)) {
        // Nothing busy holds what it waits for, and it still waits: stuck. Asked again after mayProgress because a
        // wait can end between the two questions (the server broke a deadlock in the other session, whose
        // abort freed the lock) before the answer reaches us; then the holders are gone and so is the wait.
        const stuck = mode === 'blocking' && !(await driver.mayProgress(session)) && (await driver.isBlocked(session));
        // The answer may have come while we asked.
        outcome = await pollStep(session, 0);
        if (outcome) break;
        if (stuck) return 'stuck';
        if (mode === 'nonblocking') {
          flushNotices(session);
          if (!retry) out.write(waitingLine(a.step.name, a.step.sql));
          a.trace.waited = true;
          return 'waiting';
        }
      }
      if (!cancelled && Date.now() - started > stepTimeoutMs) {
        await driver.cancel(session);
        out.write(`isolationtester: canceling step ${a.step.name} after ${Math.round((Date.now() - started) / 1000)} seconds\n`);
        cancelled = true;
      }
    }
    flushNotices(session);
    if (blocked(a)) {
      // It returned, but its markers keep it reported as waiting: hold on to its answer.
      held.set(session, outcome);
      if (!retry) out.write(waitingLine(a.step.name, a.step.sql));
      a.trace.waited = true;
      return 'waiting';
    }
    out.write(retry ? completedLine(a.step.name) : stepLine(a.step.name, a.step.sql));
    out.write(formatReplies(outcome.replies));
    const last = trace.at(-1)!;
    Object.assign(a.trace, { returnedAt: last.sentAt, releasedBy: a.trace.waited ? last.step : null, replies: outcome.replies });
    active.delete(session);
    return 'done';
  };
  /** try_complete_steps: looks at every waiting step, again while markers may have been released. */
  const tryCompleteWaiting = async (waiting: Active[], mode: 'nonblocking' | 'blocking'): Promise<{ left: Active[]; stuck: Active | null }> => {
    let left = waiting;
    for (;;) {
      const before = left.length;
      const noticesBefore = [...totalNotices.values()].reduce((a, b) => a + b, 0);
      const still: Active[] = [];
      for (const a of left) {
        const result = await tryComplete(a, mode, true);
        if (result === 'stuck') return { left: [...still, ...left.slice(left.indexOf(a))], stuck: a };
        if (result === 'waiting') still.push(a);
      }
      left = still;
      const noticesAfter = [...totalNotices.values()].reduce((a, b) => a + b, 0);
      const markers = left.some((a) => a.pstep.blockers.length > 0);
      if (!(markers && (left.length < before || noticesAfter > noticesBefore))) return { left, stuck: null };
    }
  };

  /** A setup that fails stops the run, as it stops PostgreSQL's isolation tester ("setup failed"). */
  const setUp = (what: string, outcome: StepOutcome) => {
    const failed = outcome.replies.find((reply) => reply.kind === 'error');
    if (failed) throw new SpecSetupError(`${what} failed: ${failed.severity}:  ${failed.message}`);
    out.write(formatReplies(outcome.replies));
  };
  /** A teardown that fails is reported apart from the output (the tester prints it on stderr) and the run goes on. */
  const tearDown = (what: string, outcome: StepOutcome) => {
    const failed = outcome.replies.find((reply) => reply.kind === 'error');
    if (failed) teardownFailures.push(`${what} failed: ${failed.severity}:  ${failed.message}`);
    out.write(formatReplies(outcome.replies.filter((reply) => reply.kind === 'rows')));
  };
  const teardownFailures: string[] = [];
  let setUpDone = false;
  try {
    for (const setup of spec.setups) setUp('setup', await driver.control(setup.sql, 'setup'));
    setUpDone = true;
    for (const session of spec.sessions) {
      if (session.setup) setUp(`setup of session ${session.name}`, await driver.runOnSession(session.name, session.setup.sql));
    }
    let waiting: Active[] = [];
    for (const pstep of permutation) {
      const step = steps.get(pstep.step)!;
      const mine = active.get(step.session);
      if (mine) {
        // The session is still busy with an earlier step: wait for that one, as the tester does, but not
        // forever (markers that are never released).
        const since = Date.now();
        for (;;) {
          const result = await tryComplete(mine, 'blocking', true);
          waiting = waiting.filter((a) => a !== mine);
          if (result === 'stuck') {
            invalid = `step ${step.name} needs session ${step.session}, whose step ${mine.step.name} waits for a lock that only a later step could free`;
            break;
          }
          waiting = (await tryCompleteWaiting(waiting, 'nonblocking')).left;
          if (result === 'done') break;
          waiting.push(mine);
          if (Date.now() - since > stepTimeoutMs) {
            invalid = `step ${step.name} needs session ${step.session}, whose step ${mine.step.name} is still held by its markers after ${Math.round(stepTimeoutMs / 1000)} s`;
            break;
          }
        }
        if (invalid) break;
      }
      flushAllNotices();
      driver.send(step.session, step.sql, step.name);
      const a: Active = {
        pstep,
        step,
        noticeTargets: new Map(),
        trace: { session: step.session, step: step.name, sql: step.sql, sentAt: trace.length, returnedAt: null, waited: false, releasedBy: null, replies: [] },
      };
      trace.push(a.trace);
      for (const blocker of pstep.blockers) {
        if (blocker.kind === 'notices') a.noticeTargets.set(blocker, (totalNotices.get(steps.get(blocker.step)!.session) ?? 0) + blocker.count);
      }
      active.set(step.session, a);
      const mustWait = (await tryComplete(a, 'nonblocking', false)) === 'waiting';
      waiting = (await tryCompleteWaiting(waiting, 'nonblocking')).left;
      if (mustWait) waiting.push(a);
    }
    if (!invalid) invalid = await finishWaiting(waiting);
    if (invalid) {
      // The old isolation tester's words for a permutation it cannot follow; the waits are cancelled.
      out.write('invalid permutation detected\n');
      for (const session of [...active.keys()]) await abandon(session);
      flushAllNotices();
    }
    for (const session of spec.sessions) {
      if (session.teardown) tearDown(`teardown of session ${session.name}`, await driver.runOnSession(session.name, session.teardown.sql));
      await driver.reset(session.name);
    }
    flushAllNotices();
    const checks: CheckResult[] = [];
    // A permutation that could not be followed is no order the sessions can run in: nothing to check.
    for (const check of invalid ? [] : spec.checks) {
      const { replies } = await driver.control(check.sql, 'check');
      const broken = replies.some((r) => r.kind === 'error' || r.result.rows.length > 0);
      checks.push({ name: check.name, replies, broken });
      if (broken) out.write(`check "${check.name}" broken:\n${formatReplies(replies)}`);
    }
    if (spec.teardown) tearDown('teardown', await driver.control(spec.teardown.sql, 'teardown'));
    return { names, trace, output: out.text, invalid, refused: null, checks, teardownFailures };
  } catch (error) {
    if (error instanceof PermutationRefused) {
      // What it printed so far stays (it is not the tester's whole text); the sessions and the spec's
      // tables are cleaned up for the next permutation.
      for (const session of spec.sessions) await driver.reset(session.name);
      // Only what the setup made is torn down (a refused setup made nothing); a teardown the driver
      // refuses too leaves nothing more to report.
      if (spec.teardown && setUpDone) {
        try {
          tearDown('teardown', await driver.control(spec.teardown.sql, 'teardown'));
        } catch (again) {
          if (!(again instanceof PermutationRefused)) throw again;
        }
      }
      return { names, trace, output: out.text, invalid: null, refused: error.message, checks: [], teardownFailures };
    }
    for (const session of [...active.keys()]) await abandon(session).catch(() => undefined);
    throw error;
  }

  /**
   * The tester's last wait for the steps still running, each in turn until it returns; a wait nothing can end
   * any more (or markers never released) is reported, not awaited forever.
   */
  async function finishWaiting(waiting: Active[]): Promise<string | null> {
    let left = waiting;
    const since = Date.now();
    while (left.length > 0) {
      const before = left.length;
      const { left: still, stuck } = await tryCompleteWaiting(left, 'blocking');
      if (stuck) return `step ${stuck.step.name} still waits for a lock at the end of the permutation, and no step is left to free it`;
      left = still;
      if (left.length === before && Date.now() - since > stepTimeoutMs) {
        return `steps ${left.map((a) => a.step.name).join(', ')} are still held by their markers at the end of the permutation`;
      }
    }
    return null;
  }
}
