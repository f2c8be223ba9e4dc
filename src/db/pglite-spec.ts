/**
 * `npm run sim -- spec FILE.spec` without --db: a spec's sessions emulated on one PGlite, which is one
 * backend (ARCHITECTURE.md §1). Only one session's transaction is open at a time; before another session's
 * step runs it is parked with PREPARE TRANSACTION, which keeps its row locks (until then it stays open). A statement that could wait for a row lock is
 * first run as its NOWAIT twin (src/sql/analyze/spec-statement.ts) in a savepoint: 55P03 means it would wait,
 * and it is not sent (a lock wait never returns inside PGlite); the runner reports it "<waiting ...>", and
 * it is tried again after each later step until its twin no longer fails, then completes.
 *
 * A parked transaction cannot run more statements. A step that only ends it (COMMIT, ROLLBACK) ends the
 * prepared transaction itself. A session that continues one otherwise is resumed by rolling the prepared
 * transaction back and replaying its earlier statements, and only if every one gives back exactly what it
 * gave the first time (and, when another session committed writes after one of them ran, only if that one's
 * answer shows every row it locks; a SKIP LOCKED one, not after another session's transaction ended). Everything this cannot follow honestly refuses the permutation
 * (PermutationRefused, one line naming the step and why): other isolation levels, savepoints, table locks,
 * transaction-level advisory locks, LISTEN/NOTIFY, a wait the twin cannot see (a unique-index insert against another
 * session's uncommitted key, a foreign key's or trigger's wait, one inside the spec's own function), two
 * sessions waiting at once (a deadlock is the server's to break), a replay that answers differently, and a
 * statement that waited while another session committed writes (PostgreSQL keeps the rows it found before
 * the wait and re-checks only the one it waited for; the lab would look afresh).
 *
 * Session-level advisory locks are the backend's, so PGlite would grant every session's request at once: the
 * driver keeps which emulated session holds which (key, mode), read from PGlite's pg_locks after each
 * statement that takes or releases one, and a statement that asks for one another session holds in a
 * conflicting mode waits, as a row-lock wait does. It is sent only when no other session holds the key, so
 * the backend's re-entrant count is the holder's. What would break that is refused: two sessions sharing
 * one key, releasing a lock another session holds, a try that PostgreSQL would answer false. A lock outlives
 * its permutation, as on a server, whose isolation tester keeps each session's connection for the whole spec.
 */
import type { PGlite } from '@electric-sql/pglite';
import type { StepReply } from '../spec/output';
import type { Spec } from '../spec/parse';
import { type ControlRole, PermutationRefused, type SessionNotice, type SpecDriver, type StepOutcome } from '../spec/run';
import type { AdvisoryCall } from '../sql/analyze/spec-advisory';
import type { RowReset } from '../sql/analyze/spec-reset';
import type { SpecStatement } from '../sql/analyze/spec-statement';
import { compiledPGliteWasm, startPrebuiltFreshCluster } from './pglite-boot';
import { createLabPGlite, labStartParams, loadPGlite } from './pglite-open';
import { exchangeRaw, MessageWriter, PGliteWire, type Reply, readReplies, type WireResult, type WirePiece } from './pglite-wire';

/**
 * Each spec runs on a cluster as initdb leaves it. initdb is most of a PGlite start (~2.5 s of ~3 s here);
 * starting from a copy of a fresh cluster takes ~0.5 s. In Node that copy is built ahead of time with the
 * lab's data directory (scripts/build-datadir.ts; a `spec` process opened in 4.5 s, most of it initdb, where
 * `check` starts from the lab's in 3.7 s all told). Without it (the page; Node before a build), the first
 * spec of a process starts from initdb; the command line runs one spec per process, which saving would only
 * slow down, so the second saves its cluster before running anything in it, and every later one starts from
 * that copy. The page, where a learner runs one spec after another, saves the first (`keepFreshCopy`),
 * gzipped: the copy stays in the tab's memory, 4.5 MB so rather than 40 MB (dumping took 0.8 s against 1.1 s here).
 */
let specsOpened = 0;
let savedFreshCluster: Promise<Blob> | null = null;

/**
 * Tests run the command line's spec many times in one process (tests/support/cli.ts simInProcess), and each
 * run started a cluster of its own: ~0.4 s of CPU, 48 in the spec tests. With reuse on, a cluster whose
 * driver closes it as it found it (spec-cluster-state.sql answers as it did when the cluster was fresh: no
 * object, grant, comment, setting, lock, prepared transaction or cursor left) waits for the next spec of
 * the same owner (a test file, as tests/support/lab.ts keeps one lab database per file). What it keeps that
 * a fresh one lacks are later oids and transaction ids and the catalogs' dead rows, as on a server where
 * specs run one after another (PostgreSQL's isolation schedule runs them all in one database). The command
 * line and the page never turn it on.
 */
let reuseOwner: (() => string) | null = null;
let spare: { owner: string; pg: PGlite } | null = null;
/** What spec-cluster-state.sql answered on each cluster while it was fresh (only with reuse on). */
const freshState = new WeakMap<PGlite, string>();

export function reuseSpecClusters(owner: () => string): void {
  reuseOwner = owner;
}

async function freshCluster(keepFreshCopy: boolean): Promise<PGlite> {
  if (reuseOwner) {
    const kept = spare;
    spare = null;
    if (kept?.owner === reuseOwner()) return kept.pg;
    await kept?.pg.close();
  }
  const [module, wasm] = await Promise.all([loadPGlite(), compiledPGliteWasm()]);
  const startParams = labStartParams(module.PGlite);
  const files = wasm ? { pgliteWasmModule: wasm } : {};
  specsOpened += 1;
  const saved = await savedFreshCluster?.catch(() => null);
  if (saved) return createLabPGlite(module, { ...files, startParams, loadDataDir: saved });
  const prebuilt = await startPrebuiltFreshCluster(module, files, startParams);
  if (prebuilt) return prebuilt;
  const pg = await createLabPGlite(module, { ...files, startParams });
  if (specsOpened >= 2 || keepFreshCopy) {
    savedFreshCluster = pg.dumpDataDir(keepFreshCopy ? 'gzip' : 'none');
    await savedFreshCluster.catch(() => {
      savedFreshCluster = null;
    });
  }
  return pg;
}

const LOCK_NOT_AVAILABLE = '55P03';
/** How every refusal ends: where the permutation runs instead. */
export const ELSEWHERE = 'run it on a server with --db postgres://…';
/** A statement whose rows depend on which rows other transactions held locked when it ran. */
const SKIP_LOCKED = /\bSKIP\s+LOCKED\b/i;
/** BEGIN with nothing more (no isolation level, no access mode): outside a transaction it answers nothing and holds nothing. */
const PLAIN_BEGIN = /^\s*(BEGIN(\s+(WORK|TRANSACTION))?|START\s+TRANSACTION)\s*;?\s*$/i;
/** COMMIT or ROLLBACK with nothing more (no AND CHAIN, no savepoint): it only ends the transaction. */
const PLAIN_END = /^\s*(COMMIT|END|ROLLBACK|ABORT)(\s+(WORK|TRANSACTION))?\s*;?\s*$/i;

interface Logged {
  statement: SpecStatement;
  replies: StepReply[];
  /** Commits that wrote, counted when it ran: a later one means a replay may meet other rows. */
  ranAfterCommits: number;
  /** Transactions ended (their locks let go), counted when it ran: a later one may free a row it skipped. */
  ranAfterEnds: number;
}

/** A step of a session, part done: what is left of it and what it answered so far. */
interface Job {
  label: string;
  remaining: SpecStatement[];
  replies: StepReply[];
  /** Set while it waits: the count of commits that wrote when it started waiting. */
  waitingSince: number | null;
  /** Whether it was found waiting at least once (its next statement is one that waited). */
  waited: boolean;
  /**
   * It waits for an advisory lock, and its statement locks or writes rows: on a server it may already hold
   * row locks on rows it reached before the call that waits (a condition that lets them pass without it).
   */
  waitsHoldingRows?: boolean;
  /** A session's teardown: every step has run. */
  teardown?: boolean;
}

interface Session {
  name: string;
  gid: string;
  /** Its open transaction's statements and answers (null: none open, or one that failed). */
  log: Logged[] | null;
  parked: boolean;
  /**
   * Whether its parked transaction is a prepared one in PGlite. A transaction that has run only its BEGIN
   * holds nothing (at READ COMMITTED not even a snapshot), so it is parked by rolling it back, and continued
   * by its BEGIN alone: two calls into Postgres fewer for every transaction a spec opens.
   */
  prepared: boolean;
  /** Its transaction block failed: it holds nothing until it ends. */
  failed: boolean;
  wrote: boolean;
  notices: SessionNotice[];
  job: Job | null;
  outcome: StepOutcome | null;
}

function repliesOf(reply: Reply): StepReply[] {
  const replies: StepReply[] = [];
  for (const done of reply.completed) {
    if (done.columns) replies.push({ kind: 'rows', result: { columns: done.columns.map((c) => c.name), rows: done.rows } });
  }
  if (reply.error) replies.push({ kind: 'error', severity: reply.error.severity, code: reply.error.code, message: reply.error.message });
  return replies;
}

const same = (a: StepReply[], b: StepReply[]) => JSON.stringify(a) === JSON.stringify(b);
/** A function that takes numbers from a sequence, which no rollback gives back. */
const drawsFromSequence = (name: string) => name === 'nextval' || name === 'setval';
/**
 * A statement that could make a prepared transaction other than a session's own: PREPARE TRANSACTION is a
 * keyword written out in top-level SQL (functions cannot run it), so text without the word makes none.
 */
const MAY_PREPARE = /prepare/i;

export class PGliteSpecDriver implements SpecDriver {
  private readonly wire: PGliteWire;
  /** The Simple Query messages', one at a time (`serial`). */
  private readonly writer = new MessageWriter();
  private readonly sessions = new Map<string, Session>();
  /** Transactions (or single statements) that committed writes, so far: what a replay must not have missed. */
  private commitsThatWrote = 0;
  /** Transactions that ended, committed or not, so far: each let go of the row locks it held. */
  private transactionsEnded = 0;
  /** PGlite's transaction status after the last statement: 'I', 'T' or 'E'. */
  private status = 'I';
  private queue: Promise<void> = Promise.resolve();
  private refusal: PermutationRefused | null = null;
  private classify: ((sql: string) => Promise<SpecStatement[]>) | null = null;
  /** The spec's setup, teardown or a check may have left a prepared transaction of its own (see MAY_PREPARE). */
  private foreignPrepared = false;
  /**
   * Session-level advisory locks held, "key mode" → the session holding it (PGlite's backend holds them all).
   * Kept from one permutation to the next, as the server's sessions keep theirs: the isolation tester opens
   * its connections once per spec, which is why specs let go of them in a session teardown.
   */
  private readonly advisoryHolders = new Map<string, string>();
  /**
   * Sessions whose advisory locks another session's teardown let go of on PGlite's one backend (its
   * `pg_advisory_unlock_all()`), which on a server they still hold until their own teardown lets go too.
   */
  private readonly advisoryLostInTeardown = new Set<string>();
  /**
   * Why the lab no longer knows which advisory locks the server's sessions would hold (null: it knows): a
   * permutation that may have taken some was refused, or a session kept some past its teardown.
   */
  private advisoryUnknown: string | null = null;
  /** Every session's teardown begins with pg_advisory_unlock_all(): after any permutation none holds one. */
  private teardownsLetGo = false;
  /** A step has been sent in this permutation: a session's SQL run now is its teardown. */
  private stepsSent = false;
  /** Sessions reset since the steps: once all are, the next permutation begins. */
  private readonly resetSinceSteps = new Set<string>();
  /** The permutation being reset was refused: the server would have run the rest of it and the teardowns. */
  private refusedPermutation = false;
  /**
   * How the spec's tables are set back between permutations without its teardown and setup (see
   * spec-reset.ts), or null: the teardown and setup run as written. Its `teardown` runs at close.
   */
  private rowReset: (RowReset & { teardown: string }) | null = null;
  /** The teardown was skipped (the tables kept): the next setup blocks empty them and refill them instead. */
  private tablesKept = false;
  /** Which setup block comes next while the tables are kept. */
  private nextSetup = 0;
  /**
   * The catalog's answers (spec-table-hazards, spec-own-functions) by query and parameters. Only DDL changes
   * them, which no session runs (spec-statement.ts refuses it): it is forgotten whenever the spec's own SQL
   * runs on the control connection, or a statement the parser could not read is sent as it is.
   */
  private readonly catalog = new Map<string, WireResult>();
  /**
   * A replayed plain BEGIN not sent yet (see resume): it travels in the next call into Postgres, before that
   * call's statements, as two calls would have sent it. `status` already says 'T'.
   */
  private pendingBegin: { text: string; label: string } | null = null;
  /**
   * The session whose transaction is left open after its step instead of parked (see advance): parked
   * before anything else runs, unless that is the same session's step that only ends it.
   */
  private open: Session | null = null;

  private constructor(
    private readonly pg: PGlite,
    sessionNames: string[],
  ) {
    // Every call into this PGlite is the driver's, one after another (`serial`): no query lock needed.
    this.wire = new PGliteWire(pg, true);
    sessionNames.forEach((name, index) => {
      this.sessions.set(name, {
        name,
        gid: `lease_lab_spec_${index}`,
        log: null,
        parked: false,
        prepared: false,
        failed: false,
        wrote: false,
        notices: [],
        job: null,
        outcome: null,
      });
    });
  }

  /**
   * `keepFreshCopy`: more specs will follow in this process, so save the fresh cluster from the first.
   * The sessions' teardowns tell whether a refused permutation leaves advisory locks; the spec's setup,
   * teardown and every other block whether its tables can be set back by their rows (spec-reset.ts).
   */
  static async open(spec: Spec, { keepFreshCopy = false } = {}): Promise<PGliteSpecDriver> {
    const pg = await freshCluster(keepFreshCopy);
    const driver = new PGliteSpecDriver(
      pg,
      spec.sessions.map((session) => session.name),
    );
    const [{ specStatements }, { rowReset }] = await Promise.all([import('../sql/analyze/spec-statement'), import('../sql/analyze/spec-reset')]);
    // A step's SQL is the same text in every permutation: parsed once (it was a seventh of a permutation's
    // time). Each call gets its own array, which a job consumes; the statements themselves are never changed.
    const parsed = new Map<string, Promise<SpecStatement[]>>();
    driver.classify = async (sql) => {
      let statements = parsed.get(sql);
      if (!statements) {
        statements = specStatements(sql);
        parsed.set(sql, statements);
      }
      return [...(await statements)];
    };
    const firsts = await Promise.all(spec.sessions.map(async (session) => (session.teardown ? (await driver.classify!(session.teardown.sql))[0] : undefined)));
    driver.teardownsLetGo = firsts.every((first) => first?.advisory?.unlocksAll === true && first.advisory.once && first.refusal === null);
    const others = [
      ...spec.sessions.flatMap((session) => [session.setup?.sql, ...session.steps.map((step) => step.sql), session.teardown?.sql]),
      ...spec.checks.map((check) => check.sql),
    ].filter((sql): sql is string => sql !== undefined);
    const reset = await rowReset(
      spec.setups.map((setup) => setup.sql),
      spec.teardown?.sql ?? null,
      others,
    );
    if (typeof reset !== 'string') driver.rowReset = { ...reset, teardown: spec.teardown!.sql };
    if (reuseOwner && !freshState.has(pg)) freshState.set(pg, await driver.clusterState());
    return driver;
  }

  /** Whether the spec's tables are set back by their rows between permutations (tests and the bench tell the two apart). */
  get resetsByRows(): boolean {
    return this.rowReset !== null;
  }

  private session(name: string): Session {
    const found = this.sessions.get(name);
    if (!found) throw new Error(`no session ${name}`);
    return found;
  }

  /** One after another: PGlite is one connection (and only the driver uses it, so no query lock is taken). */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const result = this.queue.then(work);
    this.queue = result.then(
      () => undefined,
      () => undefined,
    );
    return result;
  }

  private async simple(text: string): Promise<Reply> {
    const message = this.writer.empty();
    const begin = this.takePendingBegin();
    if (begin) message.query(begin.text);
    message.query(text);
    const bytes = await exchangeRaw(this.pg, message.bytes(), { syncToFs: false });
    const replies = readReplies(bytes);
    if (begin) this.begun(begin, repliesOf(replies[0]!));
    const reply = replies.at(-1)!;
    this.status = reply.status;
    return reply;
  }

  /** The lab's statements (src/sql/), after a pending BEGIN when there is one. */
  private async run(pieces: WirePiece[]): Promise<WireResult[]> {
    const begin = this.takePendingBegin();
    if (!begin) return this.wire.run(pieces);
    const [first, ...results] = await this.wire.run([{ command: begin.text }, ...pieces]);
    this.begun(begin, first!.error ? [{ kind: 'error', severity: first!.error.severity, code: first!.error.code, message: first!.error.message }] : []);
    return results;
  }

  private takePendingBegin(): { text: string; label: string } | null {
    const begin = this.pendingBegin;
    this.pendingBegin = null;
    return begin;
  }

  /** A replayed BEGIN must answer as it did the first time: nothing (see resume). */
  private begun(begin: { text: string; label: string }, replies: StepReply[]): void {
    if (replies.length > 0) {
      this.refuse(
        `${begin.label}: replaying its session's earlier \`${begin.text}\` (to continue the parked transaction) answered differently than it did the first time`,
      );
    }
  }

  private async lab(id: Parameters<PGliteWire['one']>[0], params: Parameters<PGliteWire['one']>[1] = []) {
    const [result] = await this.run([{ sqlId: id, params }]);
    return result!;
  }

  control(sql: string, role: ControlRole = 'check'): Promise<StepOutcome> {
    return this.serial(async () => {
      await this.parkOpen();
      const reset = this.rowReset;
      // No session holds a lock after every session's reset; if one did, TRUNCATE would wait for it for ever.
      if (reset && role === 'teardown' && !this.anotherHoldsLocks()) {
        Object.assign(this, { tablesKept: true, nextSetup: 0 });
        return { replies: [] };
      }
      if (reset && role === 'setup' && this.tablesKept) {
        const index = this.nextSetup++;
        if (this.nextSetup === reset.rows.length) this.tablesKept = false;
        const text = [index === 0 ? reset.truncate : '', reset.rows[index] ?? ''].filter((part) => part !== '').join('\n');
        return { replies: text === '' ? [] : repliesOf(await this.simple(text)) };
      }
      this.catalog.clear();
      const statements = await this.classify!(sql);
      if (statements.some((statement) => statement.changesSettings)) {
        this.refuse("the spec's setup, teardown or a check changes a setting: on a server that is its own connection's, on PGlite every session's");
      }
      if (statements.some((statement) => statement.advisory)) {
        this.refuse(
          "the spec's setup, teardown or a check takes or releases an advisory lock: on a server that is its own connection's, on PGlite the backend every session shares",
        );
      }
      if (MAY_PREPARE.test(sql)) this.foreignPrepared = true;
      return { replies: repliesOf(await this.simple(sql)) };
    });
  }

  runOnSession(session: string, sql: string): Promise<StepOutcome> {
    return this.serial(async () => {
      const s = this.session(session);
      const job: Job = {
        label: `session ${session}'s setup or teardown`,
        remaining: await this.classify!(sql),
        replies: [],
        waitingSince: null,
        waited: false,
        teardown: this.stepsSent,
      };
      try {
        if ((await this.advance(s, job)) === 'waiting') this.refuse(`${job.label} would wait for a lock another session holds`);
      } catch (error) {
        await this.stopOnRefusal(error);
        throw error;
      }
      return { replies: job.replies };
    });
  }

  send(session: string, sql: string, step = `of session ${session}`): void {
    void this.serial(async () => {
      const s = this.session(session);
      this.stepsSent = true;
      this.resetSinceSteps.clear();
      s.job = { label: `step ${step}`, remaining: await this.classify!(sql), replies: [], waitingSince: null, waited: false };
      try {
        if ((await this.advance(s, s.job)) === 'done') this.finish(s);
        await this.retryWaiting(s);
      } catch (error) {
        await this.stopOnRefusal(error);
      }
    });
  }

  async poll(session: string): Promise<StepOutcome | null> {
    await this.queue;
    if (this.refusal) throw this.refusal;
    const s = this.session(session);
    const outcome = s.outcome;
    s.outcome = null;
    return outcome;
  }

  async isBlocked(session: string): Promise<boolean> {
    await this.queue;
    if (this.refusal) throw this.refusal;
    return this.session(session).job?.waitingSince != null;
  }

  /** Nothing moves by itself on one backend: only a later step frees a lock. */
  async mayProgress(): Promise<boolean> {
    return false;
  }

  cancel(session: string): Promise<void> {
    return this.serial(async () => {
      await this.parkOpen();
      const s = this.session(session);
      if (!s.job) return;
      s.job = null;
      s.outcome = { replies: [{ kind: 'error', severity: 'ERROR', code: '57014', message: 'canceling statement due to user request' }] };
      // A statement cancelled inside a transaction block fails the transaction, which gives its locks back.
      if (s.parked) {
        await this.endParked(s, 'ROLLBACK');
        this.transactionsEnded += 1;
        Object.assign(s, { failed: true, log: null });
      }
    });
  }

  takeNotices(session: string): SessionNotice[] {
    const s = this.session(session);
    const taken = s.notices;
    s.notices = [];
    return taken;
  }

  reset(session: string): Promise<void> {
    return this.serial(async () => {
      await this.parkOpen();
      const s = this.session(session);
      if (this.status !== 'I') await this.simple('ROLLBACK');
      if (s.parked) await this.endParked(s, 'ROLLBACK');
      Object.assign(s, { log: null, failed: false, wrote: false, notices: [], job: null, outcome: null });
      if (this.refusal) this.refusedPermutation = true;
      this.refusal = null;
      this.resetSinceSteps.add(session);
      if (this.resetSinceSteps.size === this.sessions.size) await this.betweenPermutations();
    });
  }

  async close(): Promise<void> {
    await this.queue;
    await this.parkOpen();
    const fresh = freshState.get(this.pg);
    if (reuseOwner && fresh !== undefined && (await this.leftAsFound(fresh))) {
      await spare?.pg.close();
      spare = { owner: reuseOwner(), pg: this.pg };
      return;
    }
    await this.pg.close();
  }

  private async clusterState(): Promise<string> {
    return String((await this.lab('spec-cluster-state')).rows[0]?.state);
  }

  /** Whether the cluster is back as it was fresh (see reuseSpecClusters), after the teardown the row reset kept back. */
  private async leftAsFound(fresh: string): Promise<boolean> {
    try {
      if (this.status !== 'I') return false;
      if (this.tablesKept && (await this.simple(this.rowReset!.teardown)).error) return false;
      return (await this.clusterState()) === fresh;
    } catch {
      return false;
    }
  }

  /** A catalog query's answer, read once until the catalog may have changed (see `catalog`). */
  private async catalogRead(id: 'spec-table-hazards' | 'spec-own-functions', params: Parameters<PGliteWire['one']>[1]) {
    const key = `${id} ${JSON.stringify(params)}`;
    let found = this.catalog.get(key);
    if (!found) {
      found = await this.lab(id, params);
      this.catalog.set(key, found);
    }
    return found;
  }

  private refuse(why: string): never {
    throw new PermutationRefused(`${why}; ${ELSEWHERE}`);
  }

  /**
   * After every session's reset: the advisory locks the server's sessions hold into the next permutation.
   * After a refused one the server would have run the rest of it and the teardowns, which the lab did not:
   * it knows what they hold only when every teardown lets go of all of them. (It takes that the rest would
   * not leave a session's transaction failed, where the teardown's pg_advisory_unlock_all() would fail too:
   * PostgreSQL's specs end each transaction they begin.)
   */
  private async betweenPermutations(): Promise<void> {
    const refused = this.refusedPermutation;
    Object.assign(this, { stepsSent: false, refusedPermutation: false });
    this.resetSinceSteps.clear();
    if (refused && this.teardownsLetGo) {
      if (this.advisoryHolders.size > 0) await this.lab('spec-advisory-release-all');
      this.advisoryHolders.clear();
      this.advisoryLostInTeardown.clear();
      return;
    }
    if (refused)
      this.advisoryUnknown ??=
        "an earlier permutation was refused and not every session's teardown lets go of its advisory locks, so which ones the server's sessions hold now is unknown";
    const kept = [...this.advisoryLostInTeardown][0];
    if (kept)
      this.advisoryUnknown ??= `session ${kept} keeps advisory locks past its teardown on a server, which on PGlite another session's teardown let go of`;
    this.advisoryLostInTeardown.clear();
    if (this.advisoryUnknown && this.advisoryHolders.size > 0) {
      await this.lab('spec-advisory-release-all');
      this.advisoryHolders.clear();
    }
  }

  /** A refusal ends the permutation: the open transaction is rolled back, the rest is the reset's. */
  private async stopOnRefusal(error: unknown): Promise<void> {
    if (!(error instanceof PermutationRefused)) throw error;
    this.refusal ??= error;
    if (this.status !== 'I') await this.simple('ROLLBACK');
  }

  private finish(s: Session): void {
    s.outcome = { replies: s.job!.replies };
    s.job = null;
  }

  /** After a step, the waiting step (at most one) is tried again: its holder may have finished. */
  private async retryWaiting(after: Session): Promise<void> {
    for (const s of this.sessions.values()) {
      if (s === after || !s.job || s.job.waitingSince === null) continue;
      if ((await this.advance(s, s.job)) === 'done') this.finish(s);
    }
  }

  /** Runs what is left of a job in its session's transaction, until it ends or a statement would wait. */
  private async advance(s: Session, job: Job): Promise<'done' | 'waiting'> {
    await this.parkOpen(s, job);
    if (await this.endedAsParked(s, job)) return 'done';
    await this.resume(s, job.label);
    if (this.begunAsParked(s, job)) return 'done';
    let completed = false;
    try {
      while (job.remaining.length > 0) {
        const statement = job.remaining[0]!;
        if (statement.refusal) this.refuse(`${job.label}: ${statement.refusal}`);
        if (job.remaining.length > 1 && this.status === 'I' && statement.kind !== 'begin') {
          this.refuse(
            `${job.label}: several statements outside a transaction block run as one implicit transaction on a server, which the lab does not follow`,
          );
        }
        // In a failed transaction every statement fails at once, taking nothing.
        const advisoryWait = statement.advisory !== null && this.status !== 'E' && this.waitsForAdvisory(s, job, statement);
        if (advisoryWait || (await this.wouldWait(statement, job.label))) {
          if (job.waitingSince === null) {
            const other = [...this.sessions.values()].find((o) => o !== s && o.job?.waitingSince != null);
            if (other)
              this.refuse(
                `${job.label} would wait while ${other.job!.label} waits too: who waits for whom (a deadlock the server breaks after deadlock_timeout) is not followed on PGlite`,
              );
            job.waitingSince = this.commitsThatWrote;
          }
          job.waited = true;
          job.waitsHoldingRows = advisoryWait && statement.locksRows;
          return 'waiting';
        }
        const holder = statement.locksRows
          ? [...this.sessions.values()].find((o) => o !== s && o.job?.waitingSince != null && o.job.waitsHoldingRows)
          : undefined;
        if (holder)
          this.refuse(
            `${job.label} locks or writes rows while ${holder.job!.label} waits for an advisory lock: on a server the waiting statement may already hold locks on rows it reached before the call that waits, and the lab has not sent it`,
          );
        if (job.waited && job.waitingSince !== null && this.commitsThatWrote > job.waitingSince) {
          this.refuse(
            `${job.label} waited while another session committed writes: PostgreSQL then re-checks only the row it waited for and keeps the other rows it found before the wait, where the lab would look afresh`,
          );
        }
        job.waitingSince = null;
        job.waited = false;
        job.waitsHoldingRows = false;
        const before = this.status;
        // PGlite's parser is no newer than the analyzer's, so it should reject the text too; if not, it may be DDL.
        if (statement.unparsed) this.catalog.clear();
        const reply = await this.simple(statement.text);
        const replies = repliesOf(reply);
        s.notices.push(...reply.notices);
        job.replies.push(...replies);
        job.remaining.shift();
        if (statement.advisory) await this.readAdvisoryHolds(s, job, statement);
        this.record(s, statement, replies, before, reply);
        if (reply.error) job.remaining = [];
      }
      completed = true;
      return 'done';
    } finally {
      if (completed && this.status === 'T' && this.pendingBegin === null && !(s.log?.length === 1 && s.log[0]!.statement.kind === 'begin')) this.open = s;
      else await this.park(s);
    }
  }

  /**
   * Parks the transaction left open after its session's step (see advance), unless what runs next is that
   * session's step that only ends it (a plain COMMIT or ROLLBACK): that one then ends it as it is, as the
   * server's session does, where parking would have ended it with COMMIT PREPARED or ROLLBACK PREPARED, to
   * the same rows, locks and answer (nothing), in two calls into Postgres more. Nothing else ran in between.
   */
  private async parkOpen(next?: Session, job?: Job): Promise<void> {
    const open = this.open;
    if (!open) return;
    // Another session's plain BEGIN with no transaction of its own sends nothing (begunAsParked).
    if (next && job && open !== next && next.log === null && !next.parked && !next.failed && this.beginsOnly(job)) return;
    this.open = null;
    if (open === next && job && this.endsOnly(job)) return;
    await this.park(open);
  }

  /** A step that only opens a transaction: a plain BEGIN, alone. */
  private beginsOnly(job: Job): boolean {
    const [statement, ...rest] = job.remaining;
    return statement !== undefined && rest.length === 0 && statement.kind === 'begin' && PLAIN_BEGIN.test(statement.text);
  }

  /** A step that only ends its transaction: a plain COMMIT or ROLLBACK, alone. */
  private endsOnly(job: Job): boolean {
    const [statement, ...rest] = job.remaining;
    return statement !== undefined && rest.length === 0 && PLAIN_END.test(statement.text) && (statement.kind === 'commit' || statement.kind === 'rollback');
  }

  /** A statement of an open transaction as its log keeps it: what it answered, and what had ended before it ran. */
  private logged(statement: SpecStatement, replies: StepReply[]): Logged {
    return { statement, replies, ranAfterCommits: this.commitsThatWrote, ranAfterEnds: this.transactionsEnded };
  }

  /** Keeps a session's transaction log, the count of commits that wrote and that of transactions ended. */
  private record(s: Session, statement: SpecStatement, replies: StepReply[], before: string, reply: Reply): void {
    const ok = !reply.error;
    if (before === 'I' && this.status === 'T') {
      s.log = [this.logged(statement, replies)];
      s.wrote = false;
    } else if (this.status === 'T') {
      s.log?.push(this.logged(statement, replies));
      if (statement.kind === 'write' && ok) s.wrote = true;
    } else if (this.status === 'E') {
      s.log = null;
    } else if (before !== 'I') {
      // The transaction ended: a COMMIT of one that wrote makes its rows everyone's.
      this.transactionsEnded += 1;
      if (reply.completed.at(-1)?.tag === 'COMMIT' && s.wrote) this.commitsThatWrote += 1;
      s.log = null;
      s.wrote = false;
    } else if (statement.kind === 'write' && ok) {
      this.commitsThatWrote += 1;
    }
  }

  /**
   * A step that only ends a parked transaction (a plain COMMIT or ROLLBACK) ends it as it was parked, with
   * COMMIT PREPARED or ROLLBACK PREPARED: the very writes and locks of its first run, as the server's
   * session commits or rolls back its own, so nothing is replayed and nothing needs to answer the same.
   */
  private async endedAsParked(s: Session, job: Job): Promise<boolean> {
    const statement = job.remaining[0];
    if (!s.parked || !statement || !this.endsOnly(job)) return false;
    const commit = statement.kind === 'commit';
    const reply = await this.endParked(s, commit ? 'COMMIT' : 'ROLLBACK');
    if (reply?.error) this.refuse(`${job.label}: ending its parked transaction failed on PGlite (${reply.error.message})`);
    if (commit && s.wrote) this.commitsThatWrote += 1;
    this.transactionsEnded += 1;
    Object.assign(s, { log: null, wrote: false });
    job.remaining = [];
    return true;
  }

  /**
   * A step that only opens a transaction (a plain BEGIN, no transaction open) is parked at once, as `park`
   * would after sending it: such a transaction holds nothing, so it is parked by not being open, and its
   * BEGIN is sent when the session continues (see Session.prepared). A plain BEGIN there answers no rows and
   * no notice, and uses up no transaction id: two calls into Postgres fewer per transaction.
   */
  private begunAsParked(s: Session, job: Job): boolean {
    // Postgres's transaction, when one is open, is then another session's left open (see parkOpen).
    const idle = this.status === 'I' || (this.open !== null && this.open !== s);
    if (!idle || !this.beginsOnly(job)) return false;
    s.log = [this.logged(job.remaining[0]!, [])];
    Object.assign(s, { wrote: false, parked: true, prepared: false });
    job.remaining = [];
    return true;
  }

  /** Makes a session's transaction the open one again: its failed state, or its parked one replayed. */
  private async resume(s: Session, label: string): Promise<void> {
    if (s.failed) {
      await this.lab('transaction-begin');
      await this.lab('spec-enter-failed-transaction');
      this.status = 'E';
      s.failed = false;
      return;
    }
    if (!s.parked) return;
    const log = s.log!;
    // Only a statement that ran before some commit that wrote can meet other rows when replayed: one that
    // ran after every such commit sees on replay the rows it saw the first time.
    const hidden = log.find(
      (entry) => entry.statement.kind !== 'begin' && !entry.statement.answerShowsItsLocks && this.commitsThatWrote > entry.ranAfterCommits,
    );
    if (hidden) {
      this.refuse(
        `${label} continues a transaction that ran \`${hidden.statement.text}\` before another session committed writes: replaying it could lock or write other rows with the same answer`,
      );
    }
    for (const entry of log) {
      const advisory = entry.statement.advisory;
      if (advisory && (!advisory.once || advisory.unlocksAll)) {
        this.refuse(
          `${label} continues a transaction whose \`${entry.statement.text}\` took or released advisory locks a replay could not undo one for one (the lab replays a parked transaction)`,
        );
      }
      // A sequence is not rolled back: a replay would draw other numbers than the first run got.
      const table =
        entry.statement.inserts && entry.statement.writes
          ? (await this.catalogRead('spec-table-hazards', [entry.statement.writes.schema, entry.statement.writes.name])).rows[0]
          : null;
      if (entry.statement.functions.some(drawsFromSequence) || table?.draws_sequence) {
        this.refuse(`${label} continues a transaction whose \`${entry.statement.text}\` drew from a sequence: a replay would draw other numbers`);
      }
    }
    await this.endParked(s, 'ROLLBACK');
    for (const entry of log) {
      if (await this.relocked(entry, label)) continue;
      if (SKIP_LOCKED.test(entry.statement.text) && this.transactionsEnded > entry.ranAfterEnds) {
        this.refuse(
          `${label} continues a transaction whose \`${entry.statement.text}\` skipped locked rows: another session's transaction has ended since, and a replay could take a row it skipped`,
        );
      }
      if (await this.wouldWait(entry.statement, label)) this.refuse(`${label}: replaying its session's earlier \`${entry.statement.text}\` would wait`);
      const calls = entry.statement.advisory?.calls ?? [];
      if (
        this.status === 'I' &&
        entry.statement.kind === 'begin' &&
        entry.replies.length === 0 &&
        calls.length === 0 &&
        PLAIN_BEGIN.test(entry.statement.text)
      ) {
        // It answers nothing and takes nothing: sent with the next call into Postgres, one call fewer.
        this.pendingBegin = { text: entry.statement.text, label };
        this.status = 'T';
        continue;
      }
      for (const call of calls) if (call.action === 'unlock') await this.undoAdvisory(call);
      const replies = repliesOf(await this.simple(entry.statement.text));
      for (const call of calls) if (call.action !== 'unlock') await this.undoAdvisory(call);
      if (!same(replies, entry.replies)) {
        this.refuse(
          `${label}: replaying its session's earlier \`${entry.statement.text}\` (to continue the parked transaction) answered differently than it did the first time`,
        );
      }
    }
  }

  /**
   * A locking SELECT whose answer names its rows by their primary key is replayed by locking those rows
   * again (relockByKey), not by looking again: it locked exactly those, and no other session can have
   * changed them since (they were locked). False: it has no such shape, and is replayed as it was.
   */
  private async relocked(entry: Logged, label: string): Promise<boolean> {
    const locks = entry.statement.locksAnswered;
    const answer = entry.replies.length === 1 ? entry.replies[0]! : null;
    if (!locks || answer?.kind !== 'rows') return false;
    const found = await this.catalogRead('spec-table-hazards', [locks.table.schema, locks.table.name]);
    const key = found.rows[0]?.primary_key;
    const at = typeof key === 'string' ? answer.result.columns.indexOf(key) : -1;
    if (at < 0 || answer.result.columns.lastIndexOf(key as string) !== at) return false;
    const keys = answer.result.rows.map((row) => row[at]);
    if (keys.some((value) => value === null)) return false;
    const { relockByKey } = await import('../sql/analyze/spec-statement');
    const reply = await this.simple(relockByKey(locks, key as string, keys as string[]));
    if (reply.error || reply.completed[0]?.rows.length !== new Set(keys).size) {
      this.refuse(
        `${label}: locking again the rows its session's earlier \`${entry.statement.text}\` locked (to continue the parked transaction) did not lock the same rows`,
      );
    }
    return true;
  }

  /** Parks the open transaction (PREPARE TRANSACTION keeps its locks); a failed one is ended (it holds none). */
  private async park(s: Session): Promise<void> {
    if (this.status === 'T' && s.log?.length === 1 && s.log[0]!.statement.kind === 'begin') {
      // A BEGIN still pending was never sent: nothing to roll back.
      if (this.takePendingBegin()) this.status = 'I';
      else await this.simple('ROLLBACK');
      Object.assign(s, { parked: true, prepared: false });
    } else if (this.status === 'T') {
      const reply = await this.simple(`PREPARE TRANSACTION '${s.gid}'`);
      if (reply.error) this.refuse(`its transaction cannot be parked on PGlite (PREPARE TRANSACTION: ${reply.error.message})`);
      Object.assign(s, { parked: true, prepared: true });
    } else if (this.status === 'E') {
      await this.simple('ROLLBACK');
      this.transactionsEnded += 1;
      s.failed = true;
    }
  }

  /** Ends a parked transaction as it was parked; null when it held nothing to end (see Session.prepared). */
  private async endParked(s: Session, end: 'COMMIT' | 'ROLLBACK'): Promise<Reply | null> {
    const reply = s.prepared ? await this.simple(`${end} PREPARED '${s.gid}'`) : null;
    Object.assign(s, { parked: false, prepared: false });
    return reply;
  }

  /** Whether the statement would wait for another session's lock; refuses a wait the probe cannot see. */
  private async wouldWait(statement: SpecStatement, label: string): Promise<boolean> {
    // In a failed transaction every statement fails at once.
    if (this.status === 'E') return false;
    if (statement.functions.length > 0) {
      const own = await this.catalogRead('spec-own-functions', [JSON.stringify(statement.functions)]);
      const name = own.rows[0]?.name;
      if (name) this.refuse(`${label}: it calls ${String(name)}(), the spec's own function: a wait inside it is one the NOWAIT probe cannot see`);
    }
    let keyUpdate = false;
    if (statement.writes) {
      const found = await this.catalogRead('spec-table-hazards', [statement.writes.schema, statement.writes.name]);
      const table = found.rows[0];
      // No such table: the statement fails by itself.
      if (!table) return false;
      const name = statement.writes.name;
      if (table.relkind !== 'r')
        this.refuse(
          `${label}: it writes ${name}, which is no plain table (a view or a partitioned table writes through rules, triggers or partitions the lab does not probe)`,
        );
      if (table.has_triggers)
        this.refuse(`${label}: ${name} has triggers (a foreign key's checks are triggers too), and a wait inside one is one the NOWAIT probe cannot see`);
      if (table.has_rules) this.refuse(`${label}: ${name} has rules, which the NOWAIT probe does not follow`);
      const keys = table.key_columns as string[];
      keyUpdate = statement.setColumns.some((column) => keys.includes(column));
      if ((statement.inserts || keyUpdate) && table.has_unique && (await this.writtenByParked(Number(table.oid)))) {
        this.refuse(
          `${label}: it writes a key of a unique index of ${name}, which another session's open transaction has written: a wait for that session's uncommitted key is one the NOWAIT probe cannot see`,
        );
      }
    }
    const probes = statement.probes;
    if (!probes || !this.anotherHoldsLocks()) return false;
    // The twin evaluates the statement's WHERE as the statement does, and a sequence is not rolled back:
    // on PGlite the numbers the statement then draws would be others than the server's (seen: 0 rows
    // updated where the server updated 3, and a later nextval 7 where it gave 4).
    if (statement.functions.some(drawsFromSequence)) {
      this.refuse(
        `${label}: it draws from a sequence, and the NOWAIT probe that finds whether it would wait draws from it too (a sequence is not rolled back)`,
      );
    }
    if ('plain' in probes) return this.probe(probes.plain);
    const noKey = await this.probe(probes.noKey);
    if (!keyUpdate) return noKey;
    const key = await this.probe(probes.key);
    if (key !== noKey) {
      this.refuse(`${label}: it sets a key column, and whether it waits depends on whether the value changes (another session holds a key-share lock)`);
    }
    return key;
  }

  /**
   * Whether the statement would wait for an advisory lock another session holds in a conflicting mode
   * (PostgreSQL grants shared with shared only); refuses what one backend's count cannot follow.
   */
  private waitsForAdvisory(s: Session, job: Job, statement: SpecStatement): boolean {
    const advisory = statement.advisory!;
    if (this.advisoryUnknown) this.refuse(`${job.label}: it takes or releases an advisory lock, but ${this.advisoryUnknown}`);
    const others = [...this.advisoryHolders].filter(([, holder]) => holder !== s.name);
    // In a teardown every step has run: nothing later sees the other sessions' locks go with it.
    if (advisory.unlocksAll && others.length > 0 && !job.teardown) {
      this.refuse(`${job.label}: pg_advisory_unlock_all() on PGlite's one backend would also let go of the advisory lock session ${others[0]![1]} holds`);
    }
    let waits = false;
    for (const call of advisory.calls) {
      const written = `${call.name}(${call.args.join(', ')})`;
      if (call.action === 'unlock') {
        if (this.advisoryHolders.get(`${call.key} ${call.mode}`) !== s.name)
          this.refuse(
            `${job.label}: ${written} by a session that does not hold it (PostgreSQL answers false with a WARNING; PGlite's one backend may hold it for another session)`,
          );
        continue;
      }
      for (const [held, holder] of others) {
        const [key, mode] = held.split(' ');
        if (key !== call.key) continue;
        if (mode === 'ShareLock' && call.mode === 'ShareLock')
          this.refuse(`${job.label}: ${written} shares an advisory lock session ${holder} holds too, which PGlite's one backend would count as one`);
        if (call.action === 'try')
          this.refuse(`${job.label}: ${written} would answer false on a server (session ${holder} holds it), where PGlite's one backend grants it`);
        waits = true;
      }
    }
    // PostgreSQL holds the locks a statement took before the one it waits for; the lab sends none until it can send all.
    if (waits && advisory.calls.filter((call) => call.action !== 'unlock').length > 1) {
      this.refuse(
        `${job.label} would wait for one of the several advisory locks it takes, holding the others meanwhile on a server, which the lab does not follow`,
      );
    }
    return waits;
  }

  /** After a statement that took or released advisory locks: which the backend now holds, each the holder's. */
  private async readAdvisoryHolds(s: Session, job: Job, statement: SpecStatement): Promise<void> {
    const held = new Set((await this.lab('spec-advisory-held')).rows.map((row) => `${String(row.key)} ${String(row.mode)}`));
    // Its own teardown let go of all of them, as on a server.
    if (job.teardown && statement.advisory!.unlocksAll) this.advisoryLostInTeardown.delete(s.name);
    for (const [lock, holder] of [...this.advisoryHolders]) {
      if (held.has(lock)) continue;
      if (holder !== s.name && !job.teardown) this.refuse(`${job.label}: it let go of an advisory lock session ${holder} holds`);
      if (holder !== s.name) this.advisoryLostInTeardown.add(holder);
      this.advisoryHolders.delete(lock);
    }
    for (const lock of held) if (!this.advisoryHolders.has(lock)) this.advisoryHolders.set(lock, s.name);
  }

  /** Undoes one advisory call of a replayed statement: the backend keeps what the first run took or let go. */
  private async undoAdvisory(call: AdvisoryCall): Promise<void> {
    const inverse = call.action === 'unlock' ? call.name.replace('unlock', 'lock') : call.name.replace('pg_try_', 'pg_').replace('_lock', '_unlock');
    const done = (await this.lab('spec-advisory-undo', [inverse, call.args[0]!, call.args[1] ?? null])).rows[0]?.done;
    if (done === 'false') throw new Error(`${inverse}(${call.args.join(', ')}) found no lock to let go while undoing a replay`);
  }

  /**
   * Whether any transaction but the open one may hold a lock. On PGlite's one backend the only others are
   * prepared ones: the sessions' parked transactions, and any the spec's own SQL prepared. With none, every
   * NOWAIT twin would succeed, so it is not run: skipping it changes no row, lock or answer (the twin's
   * locks and writes are rolled back), only the transaction ids it would have used up.
   */
  private anotherHoldsLocks(): boolean {
    return this.foreignPrepared || [...this.sessions.values()].some((s) => s.prepared);
  }

  /** Whether another session's parked transaction wrote the table (none can while none is prepared). */
  private async writtenByParked(tableOid: number): Promise<boolean> {
    if (!this.anotherHoldsLocks()) return false;
    return (await this.lab('spec-table-written-by-parked', [tableOid])).rows[0]?.written_by_parked === true;
  }

  /** Runs a NOWAIT twin and gives back whatever it took: true when it met a lock another session holds. */
  private async probe(text: string): Promise<boolean> {
    // A transaction whose BEGIN is still pending (resume) has run nothing: the twin runs in a transaction of
    // its own, rolled back, and the BEGIN stays pending, rather than sending it for a savepoint to undo.
    const beginPending = this.pendingBegin !== null;
    const inBlock = this.status === 'T' && !beginPending;
    // One call into Postgres for the four statements (each still runs on its own, an error ending only
    // itself): the probe was four round trips, a quarter of a permutation's.
    const around: [WirePiece[], WirePiece[]] = inBlock
      ? [[{ sqlId: 'spec-probe-savepoint' }], [{ sqlId: 'spec-probe-undo' }, { sqlId: 'spec-probe-release' }]]
      : [[{ sqlId: 'transaction-begin' }], [{ sqlId: 'transaction-rollback' }]];
    const pieces = [...around[0], { command: text }, ...around[1]];
    const results = beginPending ? await this.wire.run(pieces) : await this.run(pieces);
    this.status = inBlock || beginPending ? 'T' : 'I';
    return results[around[0].length]!.error?.code === LOCK_NOT_AVAILABLE;
  }
}
