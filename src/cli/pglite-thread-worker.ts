/**
 * The worker thread side of pglite-thread.ts: the lab's PGlite database, answering one port call at a
 * time. The engine's note for a step travels with every answer (takeEngineFact is synchronous on the
 * other side).
 */
import { parentPort } from 'node:worker_threads';
import { bootLabDatabase } from '../db/pglite-boot';
import type { LabDatabase } from '../db/port';
import type { ThreadAnswer, ThreadCall } from './pglite-thread';

const port = parentPort;
if (!port) throw new Error('pglite-thread-worker.ts runs only as a worker thread');

const booting: Promise<LabDatabase> = bootLabDatabase();

port.on('message', async (call: ThreadCall) => {
  let answer: ThreadAnswer;
  try {
    const db = await booting;
    const method = db[call.method] as (...args: unknown[]) => Promise<unknown>;
    const value = call.method === 'kind' ? db.kind : await method.apply(db, call.args);
    answer = { id: call.id, ok: true, value, note: db.takeEngineFact() };
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
      },
    };
  }
  port.postMessage(answer);
});
