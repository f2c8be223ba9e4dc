/**
 * The backpressure lab's Web Worker: its own PGlite (the race lab's parks transactions; this one never
 * does), on which it plays each claim policy from a fresh table and streams the seconds as they come.
 * A newer request supersedes an older one at its next chunk.
 */
/// <reference lib="webworker" />
import { PGliteBackpressure } from '../../db/pglite-backpressure';
import { bootLab } from '../../db/pglite-boot';
import { playBackpressure } from '../../engine/backpressure';
import type { FromBackpressureWorker, SimulateRequest } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromBackpressureWorker) => scope.postMessage(message);
/** Seconds simulated between two messages to the page. */
const CHUNK_SECONDS = 40;

const started = performance.now();
const ready: Promise<PGliteBackpressure> = bootLab().then(async ({ db }) => {
  const lab = await PGliteBackpressure.open(db.pg);
  post({ kind: 'ready', bootMs: Math.round(performance.now() - started) });
  return lab;
});
ready.catch((error: unknown) => post({ kind: 'boot-failed', message: messageOf(error) }));

let latest = 0;
let chain: Promise<unknown> = Promise.resolve();

scope.onmessage = (event: MessageEvent<SimulateRequest>) => {
  latest = event.data.id;
  const request = event.data;
  chain = chain.then(() => simulate(request));
};

const yieldToMessages = () => new Promise((resolve) => setTimeout(resolve, 0));

async function simulate({ id, config, policies }: SimulateRequest): Promise<void> {
  try {
    const db = await ready;
    for (const policy of policies) {
      if (id !== latest) return;
      let sentTicks = 0;
      let sentClaims = 0;
      const lane = await playBackpressure(db, config, policy, {
        chunkSeconds: CHUNK_SECONDS,
        onChunk: async (so) => {
          post({ kind: 'chunk', id, policy, ticks: so.ticks.slice(sentTicks), claims: so.claims.slice(sentClaims), totalRuns: so.totalRuns, steps: so.steps, done: false, finished: so.finished });
          sentTicks = so.ticks.length;
          sentClaims = so.claims.length;
          // Let a newer request in; stop this one if it came.
          await yieldToMessages();
          return id === latest;
        },
      });
      if (id !== latest) return;
      post({ kind: 'chunk', id, policy, ticks: lane.ticks.slice(sentTicks), claims: lane.claims.slice(sentClaims), totalRuns: lane.totalRuns, steps: lane.steps, done: true, finished: lane.finished });
    }
  } catch (error) {
    post({ kind: 'error', id, message: messageOf(error) });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
