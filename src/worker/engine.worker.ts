/**
 * The Web Worker that owns PGlite and the engine, so Postgres never blocks the page. Requests are
 * handled one at a time, in order; a request that arrives while Postgres starts waits for it.
 */
/// <reference lib="webworker" />
import { bootLab } from '../db/pglite-boot';
import { defaultSettings } from '../engine/run';
import type { PGliteLab } from '../db/pglite-lab';
import { SCENARIOS } from '../scenarios';
import { seedJson } from '../sim/seed';
import { EngineHost } from './host';
import type { EngineRequest, FromWorker, ToWorker } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWorker) => scope.postMessage(message);

let chain: Promise<unknown> = Promise.resolve();
let currentId = 0;

const started = performance.now();
const ready: Promise<{ lab: PGliteLab; host: EngineHost }> = bootLab().then(async ({ db: lab, source, fallbackReason }) => {
  const host = new EngineHost(lab, () => post({ kind: 'progress', id: currentId }));
  // A first, small replay compiles the query paths while the start is still being waited for, so the
  // learner's first request is not the one that pays for it (and is not mistaken for a hang).
  const first = SCENARIOS[0]!;
  await host.load({ type: 'load', scenarioId: first.id, settings: defaultSettings(first), schedule: first.script.slice(0, 2), onInapplicable: 'skip' });
  // 'initdb': the pre-built data directory was not used (a slow start); fallbackReason says why.
  post({ kind: 'ready', bootMs: Math.round(performance.now() - started), bootSource: source, bootNote: fallbackReason });
  return { lab, host };
});
ready.catch((error: unknown) => post({ kind: 'boot-failed', message: error instanceof Error ? error.message : String(error) }));

scope.onmessage = (event: MessageEvent<ToWorker>) => {
  const { id, request } = event.data;
  chain = chain.then(async () => {
    currentId = id;
    try {
      const { lab, host } = await ready;
      const result = await handle(lab, host, request);
      post({ kind: 'result', id, result });
    } catch (error) {
      post({ kind: 'error', id, message: error instanceof Error ? error.message : String(error) });
    }
  });
};

async function handle(lab: PGliteLab, host: EngineHost, request: EngineRequest) {
  switch (request.type) {
    case 'load':
      return host.load(request);
    case 'apply':
      return host.apply(request);
    case 'run-trace':
      return host.runTrace(request);
    case 'console':
      return host.console(request);
    case 'runaway':
      // A row locked by a parked transaction, then a plain FOR UPDATE on it: inside PGlite the second
      // statement waits for a lock nobody can release, spinning forever. The page's watchdog ends it.
      await lab.reset(seedJson(SCENARIOS[0]!));
      await lab.pg.exec(`BEGIN; SELECT run_id FROM runs FOR UPDATE; PREPARE TRANSACTION 'lease_lab_runaway'`);
      await lab.pg.query('SELECT run_id FROM runs FOR UPDATE');
      throw new Error('the runaway statement returned; PGlite no longer spins on lock waits');
  }
}
