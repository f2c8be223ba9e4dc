/**
 * What a claim strategy is, as data. A strategy is the statements a worker runs in each role, the words
 * the lessons and the picker use for it, and, per statement, whether it can wait for a row lock, how the
 * lab probes that on PGlite (which never returns from a wait), and what it does once the lock is free.
 *
 * A statement is a value with its text, not only a file's id, so a strategy whose statements the learner
 * typed (with its probe and after-wait behaviour derived from PostgreSQL's parse tree) fits the same shape.
 */

/** The values a worker can pass to a statement; a statement takes some of them, in $n order. */
export type ParamName = 'worker' | 'leaseSeconds' | 'run' | 'generation' | 'costCents' | 'result';

/**
 * Where a statement's $n gets its value: one of the worker's values at that step, or a constant someone
 * bound to it (`check --param 1=5`, a batch size), sent as text for PostgreSQL to read as the type it infers.
 */
export type ParamSource = ParamName | { constant: string };

/** The values for `params`, from the worker's values at this step. */
export function paramValues<V>(params: readonly ParamSource[], values: Readonly<Record<ParamName, V>>): (V | string)[] {
  return params.map((source) => (typeof source === 'string' ? values[source] : source.constant));
}

/** The values of a statement run for no worker (a rescuer's sweep): only constants someone bound can be given. */
export function constantValues(params: readonly ParamSource[]): string[] {
  return params.map((source) => {
    if (typeof source === 'string') throw new Error(`a statement run for no worker was given the worker's ${source}`);
    return source.constant;
  });
}

/** A statement's text and the id that names it (in a trace, a PGlite prepared statement, the live bridge). */
export interface StatementText {
  /** Unique among the lab's statements: a file's name without `.sql` for the lab's own. */
  id: string;
  /** The text executed and shown, exactly. */
  text: string;
  /** Where the learner finds it in the repository; null for a statement typed in the browser. */
  file: string | null;
}

/**
 * What a statement that waited for a row lock does once the holder's transaction ends, and so what the
 * lab must do on PGlite, where the wait itself cannot happen. After a wait a READ COMMITTED statement
 * keeps the rows it found before waiting and re-checks the locked row's newest version (EvalPlanQual).
 */
export type AfterWait =
  /** It takes no lock another transaction could hold (SKIP LOCKED, NOWAIT, a plain SELECT): never waits. */
  | { kind: 'cannot-wait' }
  /**
   * It waits on the one row its $1 names and re-checks that row's newest version: the same answer as
   * running it again once the lock is free, which is what the lab does on PGlite.
   */
  | { kind: 'recheck-row' }
  /**
   * A claim that locks the first qualifying row of a list (a plain FOR UPDATE under LIMIT): once free it
   * locks the rows it had found, in order, re-checking each, keeps every lock it took, and claims the first
   * that still qualifies. `candidates` reads that list as the claim sees it; `relock` locks one row by id
   * ($1) with NOWAIT and says whether it still qualifies.
   */
  | { kind: 'relock-found'; candidates: StatementText; relock: StatementText }
  /**
   * A statement whose finder (a CTE or sub-select) takes no lock, so only its UPDATE waits: once free it
   * keeps what the finder found before waiting and re-evaluates its WHERE on the newest version of each
   * row it had matched. `found` (the statement's parameters) reads, when the wait begins, the finder's
   * values as JSON (`frozen_1`…`frozen_<frozenCount>`) and the runs the UPDATE matched (`targets`);
   * `resume` is the UPDATE with those values frozen in and restricted to those runs, taking
   * [...parameters, ...frozen, targets]; `resumeProbe` is its NOWAIT twin, with the same parameters.
   */
  | { kind: 'resume-found'; found: StatementText; resume: StatementText; resumeProbe: StatementText; frozenCount: number }
  /**
   * What it does after a wait is one the lab cannot replay on PGlite (`why`): it runs only where the wait is
   * real, on a PostgreSQL server (`check --db`); PGlite refuses it with `why` the moment it would wait.
   */
  | { kind: 'server-only'; why: string };

export interface LabStatement extends StatementText {
  /** The values it takes: $1 is params[0], and so on. */
  params: readonly ParamSource[];
  /**
   * The same row test under NOWAIT, run (and rolled back) before the statement where it might wait:
   * 55P03 means it would. It takes a prefix of the statement's parameters. Null when it cannot wait.
   */
  probe: StatementText | null;
  afterWait: AfterWait;
  /**
   * A completion that deletes its run (someone's own, `check --complete`): the run is gone once it commits, and
   * the worker reads how many rows it deleted (1: completed; 0: the write missed), not a row it got back.
   */
  deletesRun?: true;
  /**
   * The advisory try-locks it calls (pg_try_advisory_lock, pg_try_advisory_xact_lock), played on a server only:
   * a session-level one stays with the worker's connection after its transaction, until the connection ends.
   */
  advisoryLocks?: readonly string[];
}

/** A write that exists with the fence (it checks the lease generation) and without. */
export interface FencedPair {
  fenced: LabStatement;
  unfenced: LabStatement;
}

/**
 * How a strategy claims. One statement: BEGIN, the claim, and the transaction stays open (its row lock
 * held) until the worker's next step commits it. Select then update: a plain read of a pending run, then
 * an autocommit UPDATE of that run by id.
 */
export type ClaimShape =
  | {
      shape: 'one-statement';
      claim: LabStatement;
      /**
       * A claim in two statements (someone's `SELECT … \gset` then UPDATE, sql/analyze/gset.ts): this SELECT is
       * the worker's first step, in the claim's transaction, and `claim` its second, in the same transaction,
       * given the SELECT's run_id as its `run` parameter. What the SELECT locks stays locked between the two
       * steps, and until the worker's next step commits, as with one statement. `locks`: the SELECT locks the row
       * it returns (FOR UPDATE, with or without SKIP LOCKED or NOWAIT); `runColumn`: its column that carries the
       * run's id (run_id, or the alias \gset names the variable after); `written`: the two as written, psql's
       * form, which the page's editor and link give back. Absent: one statement.
       */
      readFirst?: { statement: LabStatement; locks: boolean; runColumn: string; written: string };
      /**
       * A claim that holds its transaction for the whole job (check --hold-for-job; gue's and neoq's way): `claim`
       * is someone's `SELECT … \gset` alone, begun in a transaction that its row lock (the lease) keeps open
       * while the worker calls the model, until the completion runs in it and commits. No lease column is
       * written and no heartbeat is sent: the lock is the lease, and it ends with the transaction (a crash
       * rolls it back). `locks`, `runColumn`, `written` as readFirst's.
       */
      holdForJob?: { locks: boolean; runColumn: string; written: string };
    }
  | {
      shape: 'select-then-update';
      select: LabStatement;
      update: LabStatement;
      /** The trace's name for the update step (the union of these is derived in index.ts). */
      action: string;
      /** The timeline's word under the update step's mark (a few letters). */
      markWord: string;
      /** Its WHERE re-checks that the run is still pending, so losing the race matches 0 rows. */
      checksPending: boolean;
    };

/** How a claim's locking clause meets a row another transaction has locked (the lessons' wait/fail/skip question). */
type WhenLocked = 'waits' | 'errors' | 'skips';

export interface StrategyDefinition {
  id: string;
  /** The strategy picker's label. */
  label: string;
  /** The claim as a sentence's object: "Workers A and B poll using <inWords>." */
  inWords: string;
  /** The claim's locking clause as the lessons name it, and what it does on a locked row; null when its claim locks no row it chose. */
  lock: { clause: string; whenLocked: WhenLocked } | null;
  /** Two workers polling at once under this claim make a good "which run does B get" question. */
  raceQuestion: boolean;
  claim: ClaimShape;
  /** The owner's writes; most strategies share the lab's (see shared.ts). */
  heartbeat: FencedPair;
  work: FencedPair;
  complete: FencedPair;
  cancelAck: FencedPair;
  /** For a production queue's claim: what the lab follows and what it leaves out (see src/strategies/<queue>/definition.ts). */
  queue?: QueueFacts;
  /** A queue whose rescue of stuck runs is a process of its own, played where a scenario has a rescuer. */
  rescuer?: RescuerDefinition;
  /** A queue whose process recovers its own work at launch, played by a scenario's recovery lanes (WorkerSpec.recovery). */
  recovery?: RecoveryDefinition;
  /**
   * A claim that enforces a limit takes fewer than every pending or expired run: which runs it takes, as
   * the note of a claim that found none says it ("no run was pending or expired <whose tenant…>").
   */
  limitedTo?: string;
  /**
   * A claim that caps how many runs of one tenant may be running at once: that number. A tenant with more
   * running runs than this, leases live, is the anomaly `tenant-over-cap` (sim/anomalies.ts).
   */
  tenantCap?: number;
}

/**
 * A queue's rescuer as its own process (a scenario with `rescuer` steps it with `rescue` tokens, on its own
 * session). Where a scenario has no rescuer the queue's claim keeps the rescue folded in.
 */
export type RescuerDefinition = {
  /** The claim with the rescue left to the rescuer: it takes pending runs only. */
  claim: LabStatement;
  /** What the rescuer's write checks, and what the fencing switch changes for it. */
  inWords: string;
} & (
  | {
      /**
       * It reads the stuck runs, then writes each one back to pending, a statement per step, so a worker's
       * write can land between its read and its write (River's JobGetStuck then JobRescueMany).
       */
      shape: 'read-then-write';
      /** Reads the stuck runs: run_id and lease_generation of each (a plain read, never waits). */
      fetch: LabStatement;
      /** Writes one fetched run back to pending ($1 its id, $2 the generation the fetch saw). */
      rescue: FencedPair;
    }
  | {
      /**
       * One UPDATE puts every stuck run back to pending, purely on time, in one step (Oban's Lifeline): no
       * read comes first, so nothing lands between a read and a write, and it has no generation to check.
       */
      shape: 'one-statement';
      /** The UPDATE, without parameters; RETURNING run_id, status. */
      sweep: LabStatement;
    }
);

/**
 * A process's recovery of its own work at launch (DBOS Transact): a lane of the process reads the runs its
 * executor id still holds, then writes one of them again by id and runs it itself, as a worker does. Between
 * the read and the write the fixed version looks in the process's memory (`skipActive`, a text that is a
 * comment: nothing is sent) and skips a run another lane of the same process is running.
 */
export interface RecoveryDefinition {
  /** Reads the runs to recover: run_id and lease_generation of each, for the executor id ($1, the worker's name). */
  read: LabStatement;
  /** Writes the first run read, by id ($1) under the executor id ($2); returns the claim's columns and the run's status. */
  write: LabStatement;
  /** The fixed version's look in the process's memory, shown where it skips a run: a comment, never sent. */
  skipActive: LabStatement;
}

/**
 * What a production queue's strategy stands for: the queue, the public code it follows, and in the lab's
 * words how ownership ends, whether anything renews it, what its completion write checks, and what the
 * fencing switch changes for it. Every sentence must hold for that queue's code at `source`.
 */
interface QueueFacts {
  /** The queue's name as its users write it. */
  name: string;
  /** owner/repo@commit of the code the lab's SQL follows. */
  source: string;
  /** The files at that commit the lab's statements follow. */
  files: readonly string[];
  /** How a worker's ownership of a run ends. */
  ownershipEnds: string;
  /** What renews ownership, if anything. */
  heartbeat: string;
  /** What its completion write checks: the lab's unfenced writes use exactly this guard. */
  completionGuard: string;
  /** What the fencing switch changes for this queue. */
  fencingSwitch: string;
  /** Where the lab's statements differ from the queue's, and why that does not change what the lab shows. */
  inTheLab: string;
}

/**
 * Each role's parameters and the columns its RETURNING gives the worker (the worker reads these). Unfenced
 * writes take the same parameters without `generation`.
 */
export const ROLE_CONTRACTS = {
  claim: { params: ['worker', 'leaseSeconds'], returning: ['run_id', 'lease_generation', 'lease_expires_at', 'cancel_requested'] },
  select: { params: [], returning: ['run_id', 'lease_generation'] },
  'claim-update': { params: ['run', 'worker', 'leaseSeconds'], returning: ['run_id', 'lease_generation', 'lease_expires_at', 'cancel_requested'] },
  heartbeat: { params: ['run', 'worker', 'generation', 'leaseSeconds'], returning: ['lease_expires_at', 'cancel_requested'] },
  work: { params: ['run', 'generation', 'costCents'], returning: ['progress', 'cancel_requested'] },
  complete: { params: ['run', 'generation', 'result'], returning: ['status', 'result'] },
  'cancel-ack': { params: ['run', 'generation'], returning: ['status'] },
} as const satisfies Record<string, { params: readonly ParamName[]; returning: readonly string[] }>;

export type StatementRole = keyof typeof ROLE_CONTRACTS;

/** The parameters a role's statement takes, fenced or not. */
export function roleParams(role: StatementRole, fenced: boolean): readonly ParamName[] {
  const params: readonly ParamName[] = ROLE_CONTRACTS[role].params;
  return fenced ? params : params.filter((name) => name !== 'generation');
}
