/**
 * PGlite for the command line, in a worker thread with a watchdog. PGlite runs a statement inside one
 * synchronous WebAssembly call: a claim that never ends (a sub-select cross-joining ten VALUES lists)
 * would hold the process for ever, and no timer of its own could fire. Here the lab's database lives in a
 * worker thread, each port call is timed on this side, and a call that runs past the statement timeout
 * ends the thread (as the page's watchdog ends its Web Worker) and fails with one line. Nothing is
 * rebuilt afterwards: the command line stops there (exit 2).
 */
import { Worker } from 'node:worker_threads';
import type { KeptReads } from '../db/pglite-lab';
import type { HeldLock, LabDatabase } from '../db/port';
import type { RunRow } from '../sim/types';
import { StatementTimedOut } from './failure';
import { UnreplayableWait } from '../db/unreplayable';
import type { EngineFact } from '../sim/narration';

type PortMethod = 'reset' | 'execute' | 'executeClaim' | 'retryBlocked' | 'commit' | 'crash' | 'runs' | 'locks' | 'close';

export interface ThreadCall {
  id: number;
  method: PortMethod | 'kind';
  args: unknown[];
}

/** The database's kept reads (PGliteLab.readsKept) that changed since the thread's last answer; absent: unchanged. */
export interface KeptSinceLastAnswer {
  runs?: RunRow[] | null;
  locks?: HeldLock[] | null;
}

/** What an UnreplayableWait is made of, to make it again on this side of the thread. */
interface UnreplayableFields {
  refused: string;
  statementId: string;
  reason: string;
}

export type ThreadAnswer =
  | { id: number; ok: true; value: unknown; note: EngineFact | null; kept: KeptSinceLastAnswer }
  | {
      id: number;
      ok: false;
      error: { message: string; name: string; code?: string; detail?: string; userFacing?: true; stackOverflow: boolean; unreplayable?: UnreplayableFields };
      kept: KeptSinceLastAnswer;
    };

/** Booting PGlite (the first call waits for it) on a loaded machine: bounded, but far past a statement's timeout. */
const BOOT_TIMEOUT_MS = 120_000;

/**
 * Tests call the command line many times in one process (tests/support/cli.ts simInProcess), and each
 * call's thread would start Node's loaders, tsx and PGlite again: ~2.3 s of CPU, more than most of the
 * runs it serves. With reuse on, a thread closed in good order (no call in flight, none timed out) waits
 * idle for the next call, whose reset gives it the scenario's rows afresh as a new thread's would. A
 * process of the command line opens one thread and never turns this on.
 */
let reuseThreads = false;
let spare: PgliteThread | null = null;

export function reusePgliteThreads(): void {
  reuseThreads = true;
}

class PgliteThread {
  readonly kind = 'pglite' as const;
  private readonly worker = new Worker(new URL('./pglite-thread-entry.mjs', import.meta.url));
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();
  private nextId = 1;
  private note: EngineFact | null = null;
  /** Why the thread is gone: every later call fails with it. */
  private ended: Error | null = null;
  /**
   * What the thread's database answers runs() and locks() with from memory, as of its last answer. Between
   * calls nothing changes it there, so a read needs no round trip: the engine reads both after every
   * step, two thirds of all calls (heartbeat's check: 18,232 of 27,350).
   */
  private readonly kept: KeptReads = { runs: null, locks: null };

  constructor(public timeoutSeconds: number) {
    this.worker.on('message', (answer: ThreadAnswer) => this.answer(answer));
    this.worker.on('error', (error) => this.end(error));
    this.worker.on('exit', () => this.end(new Error('the PGlite thread exited')));
  }

  call<T>(method: ThreadCall['method'], args: unknown[], timeoutMs = this.timeoutSeconds * 1000): Promise<T> {
    if (this.ended) return Promise.reject(this.ended);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.end(new StatementTimedOut(this.timeoutSeconds));
        void this.worker.terminate();
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      this.worker.postMessage({ id, method, args } satisfies ThreadCall);
    });
  }

  /** runs() or locks(): from the kept copy when the thread would answer from memory and no call is in flight, else asked. */
  read<T extends RunRow[] | HeldLock[]>(method: 'runs' | 'locks'): Promise<T> {
    const kept = this.kept[method];
    if (kept && !this.ended && this.pending.size === 0) return Promise.resolve(kept as T);
    return this.call<T>(method, []);
  }

  takeNote(): EngineFact | null {
    const note = this.note;
    this.note = null;
    return note;
  }

  /** Kept for the next open when reuse is on and the thread is sound; otherwise closed. */
  async release(): Promise<void> {
    if (reuseThreads && spare === null && !this.ended && this.pending.size === 0) {
      this.note = null;
      this.worker.unref();
      spare = this;
      return;
    }
    await this.close();
  }

  /** The spare thread, taken for an open, or a new one. */
  static take(timeoutSeconds: number): PgliteThread {
    const thread = spare;
    spare = null;
    if (!thread) return new PgliteThread(timeoutSeconds);
    thread.worker.ref();
    thread.timeoutSeconds = timeoutSeconds;
    return thread;
  }

  async close(): Promise<void> {
    // A thread busy with a statement (a signal came during a runaway claim) is ended at once; an idle one closes PGlite first.
    if (!this.ended && this.pending.size === 0) await this.call('close', []).catch(() => undefined);
    this.end(new Error('the PGlite thread was closed'));
    await this.worker.terminate();
  }

  private answer(answer: ThreadAnswer): void {
    const waiting = this.pending.get(answer.id);
    if (!waiting) return;
    this.pending.delete(answer.id);
    clearTimeout(waiting.timer);
    if (answer.kept.runs !== undefined) this.kept.runs = answer.kept.runs;
    if (answer.kept.locks !== undefined) this.kept.locks = answer.kept.locks;
    if (answer.ok) {
      if (answer.note !== null) this.note = answer.note;
      waiting.resolve(answer.value);
      return;
    }
    const { stackOverflow, unreplayable, ...fields } = answer.error;
    // A wait PGlite cannot replay crosses as itself, so that the engine can have its line name the step.
    if (unreplayable) {
      waiting.reject(new UnreplayableWait(unreplayable.refused, unreplayable.statementId, unreplayable.reason));
      return;
    }
    // The same error as in this thread: its SQLSTATE and userFacing mark say what it was (see failure.ts).
    const error = stackOverflow ? new RangeError(fields.message) : new Error(fields.message);
    waiting.reject(Object.assign(error, fields));
  }

  private end(why: Error): void {
    this.ended ??= why;
    for (const [id, waiting] of this.pending) {
      clearTimeout(waiting.timer);
      waiting.reject(this.ended);
      this.pending.delete(id);
    }
  }
}

/** The lab's PGlite database behind the port, in a worker thread whose every call is bounded by `timeoutSeconds`. */
export async function openPgliteThread(timeoutSeconds: number): Promise<LabDatabase> {
  const thread = PgliteThread.take(timeoutSeconds);
  try {
    await thread.call('kind', [], BOOT_TIMEOUT_MS);
  } catch (error) {
    await thread.close();
    throw error;
  }
  // Once closed, this port reaches the thread no more, though a later open may be using it.
  let closed: Error | null = null;
  const call = <T>(method: ThreadCall['method'], args: unknown[]): Promise<T> => (closed ? Promise.reject(closed) : thread.call<T>(method, args));
  const port: LabDatabase = {
    kind: 'pglite',
    reset: (seedJson, sessions) => call('reset', [seedJson, sessions]),
    execute: (session, request) => call('execute', [session, request]),
    executeClaim: (session, request) => call('executeClaim', [session, request]),
    retryBlocked: (session) => call('retryBlocked', [session]),
    commit: (session) => call('commit', [session]),
    crash: (session) => call('crash', [session]),
    runs: () => (closed ? Promise.reject(closed) : thread.read<RunRow[]>('runs')),
    locks: () => (closed ? Promise.reject(closed) : thread.read<HeldLock[]>('locks')),
    takeEngineFact: () => (closed ? null : thread.takeNote()),
    close: async () => {
      if (closed) return;
      closed = new Error('the PGlite thread was closed');
      await thread.release();
    },
  };
  return port;
}
