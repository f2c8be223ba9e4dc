/**
 * The worker thread side of pglite-thread.ts: the lab's PGlite database, answering one port call at a
 * time. The engine's note for a step travels with every answer (takeEngineFact is synchronous on the
 * other side), and so do the reads the database keeps in memory, where they changed since the last answer.
 */
import { parentPort } from 'node:worker_threads';
import { bootLabDatabase } from '../db/pglite-boot';
import type { PGliteLab } from '../db/pglite-lab';
import { UnreplayableWait } from '../db/unreplayable';
import type { ThreadAnswer, ThreadCall, KeptSinceLastAnswer } from './pglite-thread';

const port = parentPort;
if (!port) throw new Error('pglite-thread-worker.ts runs only as a worker thread');

const booting: Promise<PGliteLab> = bootLabDatabase();

/** The kept reads as the other side last heard of them (undefined: never told). */
let told: { runs: unknown; locks: unknown } = { runs: undefined, locks: undefined };

/** The kept reads that changed since the last answer: a table the other side already holds is not copied again. */
function keptSinceLastAnswer(db: PGliteLab | null): KeptSinceLastAnswer {
  if (!db) return {};
  const { runs, locks } = db.readsKept();
  const changed: KeptSinceLastAnswer = {};
  if (runs !== told.runs) changed.runs = runs;
  if (locks !== told.locks) changed.locks = locks;
  told = { runs, locks };
  return changed;
}

port.on('message', async (call: ThreadCall) => {
  let answer: ThreadAnswer;
  let db: PGliteLab | null = null;
  try {
    db = await booting;
    const method = db[call.method] as (...args: unknown[]) => Promise<unknown>;
    const value = call.method === 'kind' ? db.kind : await method.apply(db, call.args);
    answer = { id: call.id, ok: true, value, note: db.takeEngineFact(), kept: keptSinceLastAnswer(db) };
  } catch (error) {
    const e = error as { message?: unknown; name?: unknown; code?: unknown; detail?: unknown; severity?: unknown; userFacing?: unknown };
    answer = {
      id: call.id,
      ok: false,
      error: {
        message: typeof e?.message === 'string' ? e.message : String(error),
        name: typeof e?.name === 'string' ? e.name : 'Error',
        ...(typeof e?.code === 'string' ? { code: e.code } : {}),
        ...(typeof e?.detail === 'string' ? { detail: e.detail } : {}),
        ...(e?.userFacing === true ? { userFacing: true } : {}),
        stackOverflow: error instanceof RangeError,
        ...(error instanceof UnreplayableWait ? { unreplayable: { refused: error.refused, statementId: error.statementId, reason: error.reason } } : {}),
      },
      kept: keptSinceLastAnswer(db),
    };
  }
  port.postMessage(answer);
});
