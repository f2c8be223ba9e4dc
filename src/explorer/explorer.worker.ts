/**
 * The explorer's Web Worker: its own PGlite, booted exactly as the lab's engine boots, on which it plays
 * every schedule of a scenario (or a seeded sample of a large one) and reports progress as it goes.
 * The page ends this worker to cancel; nothing here needs to be interruptible.
 */
/// <reference lib="webworker" />
import { guardCustomClaim } from '../db/custom-claim-guard';
import { bootLab } from '../db/pglite-boot';
import type { PGliteLab } from '../db/pglite-lab';
import { exploreForLab } from '../engine/explore';
import { findScenario } from '../scenarios';
import { adoptAuthored } from '../scenarios/authored';
import type { ExploreRequest, FromExplorer } from './protocol';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromExplorer) => scope.postMessage(message);

const started = performance.now();
const ready: Promise<PGliteLab> = bootLab().then(({ db }) => {
  post({ kind: 'ready', bootMs: Math.round(performance.now() - started) });
  // A learner's own claim ("Your SQL") is explored here too: what the lab cannot play of it fails with the reason.
  return guardCustomClaim(db);
});
ready.catch((error: unknown) => post({ kind: 'boot-failed', message: messageOf(error) }));

let chain: Promise<unknown> = Promise.resolve();

scope.onmessage = (event: MessageEvent<ExploreRequest>) => {
  const request = event.data;
  chain = chain.then(() => explore(request));
};

async function explore({ id, scenarioId, settings, authored }: ExploreRequest): Promise<void> {
  try {
    const db = await ready;
    const scenario = findScenario(scenarioId) ?? (authored?.id === scenarioId ? adoptAuthored(authored) : undefined);
    if (!scenario) throw new Error(`there is no scenario ${scenarioId}`);
    const begun = performance.now();
    const exploration = await exploreForLab(db, scenario, settings, { onProgress: (progress) => post({ kind: 'progress', id, progress }) });
    post({ kind: 'result', id, exploration, ms: Math.round(performance.now() - begun) });
  } catch (error) {
    post({ kind: 'error', id, message: messageOf(error) });
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
