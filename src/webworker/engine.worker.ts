/**
 * The Web Worker that owns the lab's database and the engine, so Postgres never blocks the page. The page
 * orders the requests (its one queue, lab-queue.ts) and sends the next only once this one is answered;
 * each is handled by its entry in the request table (requests.ts); a request that arrives while Postgres
 * starts waits for it.
 *
 * The database is PGlite, unless the page was served by the live bridge (npm run live): then it is the
 * real PostgreSQL server behind the bridge (BridgeLab). If the bridge or its server fails, the worker
 * replays the learner's schedule on PGlite, runs the request that failed again, and tells the page (a
 * 'database' message). PGlite is started alongside live mode, before the worker says it is ready: once
 * the bridge is gone, so is the origin that served PGlite's files, and starting PGlite later would block
 * this worker for a second while the learner's requests wait behind it.
 */
/// <reference lib="webworker" />
// First: it requests PGlite's files before the modules below are evaluated.
import './engine-early';
import { BridgeFailure, BridgeLab, findLiveBridge, launchSecretOf } from '../db/bridge-lab';
import { PGliteBackpressure } from '../db/pglite-backpressure';
import { guardCustomClaim } from '../db/custom-claim-guard';
import { bootLab, markStart } from '../db/pglite-boot';
import type { PGliteLab } from '../db/pglite-lab';
import { defaultSettings, SCENARIOS } from '../scenarios';
import { seedJson } from '../sim/seed';
import { BackpressureHost } from './backpressure-host';
import { LabHost } from './host';
import type { LabRequest, FromWebWorker, ToWebWorker } from './protocol';
import { errorAnswerOf, type HostParts, handleRequest } from './requests';

const scope = self as unknown as DedicatedWorkerGlobalScope;
const post = (message: FromWebWorker) => scope.postMessage(message);
/** While a request waits for PGlite (starting, when live mode is left; its file bundle), the watchdog hears from us this often. */
const HEARTBEAT_MS = 250;
/**
 * How long after PGlite is up the start still waits for the live bridge's answer (findLiveBridge). The
 * bridge runs on this machine and answers in milliseconds; a slower answer is a network that hangs.
 */
const LIVE_BRIDGE_GRACE_MS = 2000;

interface BootedLab {
  host: LabHost;
  /** Null in live mode. */
  pglite: PGliteLab | null;
}

/**
 * The rest of PGlite's file bundle: the lab starts with only the files its own statements read (see
 * bootLab's `bundle`). Anything else that runs SQL on PGlite (the console, the backpressure lab) waits
 * for this; it is fetched once the learner pauses (see whenRequestsPause), or at once when something needs it.
 */
let completeBundle: () => Promise<void> = () => Promise.resolve();

/**
 * PGlite's turn: the page's one request, or a piece of the warm-up. Not a queue of learner actions (the
 * page sends one request at a time, see onmessage): it only keeps a warm-up piece and a request apart.
 */
let engineTurn: Promise<unknown> = Promise.resolve();
/** Live mode: PGlite, started, to carry on with if the bridge fails (null if it could not start). */
let standby: Awaited<ReturnType<typeof startPGlite>> | null = null;
let currentId = 0;

/**
 * The warm-up waits for this long a pause in the learner's requests. Its first piece is the costly one
 * (Postgres compiles the claim and PREPARE TRANSACTION paths: 80–150 ms in Chromium), and right after the
 * page is ready the learner may be clicking: the page needs the CPU then, and a click must not queue behind it.
 */
const WARM_UP_WHEN_IDLE_MS = 1000;
/**
 * When the last request was answered (or the worker became ready), and how many are queued or running.
 * From the answer, not the arrival: the page draws what a request brought (its first answer, the
 * page's own start) after it comes, and the learner reads it from then on.
 */
let lastRequestAt = 0;
let requestsInFlight = 0;

const started = performance.now();
markStart('engine-script');
let ready: Promise<BootedLab> = start();
ready.catch((error: unknown) => post({ kind: 'boot-failed', message: messageOf(error) }));
ready.then(
  ({ pglite }) => {
    lastRequestAt = performance.now();
    whenRequestsPause(() => {
      // Failures are reported to whatever needs the bundle, when it asks.
      completeBundle().catch(() => undefined);
      warmUp(pglite);
    });
  },
  () => undefined,
);

/** Runs `then` once no request has come for WARM_UP_WHEN_IDLE_MS and none is in flight. */
function whenRequestsPause(then: () => void): void {
  const wait = lastRequestAt + WARM_UP_WHEN_IDLE_MS - performance.now();
  if (wait > 0 || requestsInFlight > 0) setTimeout(() => whenRequestsPause(then), Math.max(wait, 50));
  else then();
}

/**
 * A step that first uses a statement path would otherwise compile it (the wasm compiles each of Postgres's
 * functions on first use): a claim's first PREPARE TRANSACTION took 80–150 ms instead of a few. So in idle
 * time the worker runs PGliteLab's warm-up, which leaves no trace, one small piece (one call into Postgres)
 * at a time, each in PGlite's turn: a request that arrives meanwhile goes before the next piece, so it
 * waits for one piece at most. (The boot's replay already warms the first scenario's opening steps.)
 */
function warmUp(lab: PGliteLab | null): void {
  if (!lab) return;
  const pieces = lab.warmUpPieces();
  const next = () => {
    const piece = pieces.shift();
    if (!piece) return;
    engineTurn = engineTurn.then(async () => {
      // Only while the lab is still on this PGlite (live mode never warms up; see leaveLive).
      if ((await ready).pglite === lab) await piece().catch(() => undefined);
    });
    // A macrotask between pieces lets a request that arrived take PGlite's turn first.
    engineTurn.then(() => setTimeout(next, 0));
  };
  next();
}

async function start(): Promise<BootedLab> {
  // Live or not, PGlite starts at once: it is the lab's database, or live mode's fallback.
  const pglite = startPGlite();
  // The bridge's answer is waited for until PGlite is up and a grace after (a hanging network must not
  // hold a start that needs nothing from it); a PGlite that failed to start leaves live mode all the time.
  const apiBase = await findLiveBridge(
    scope.location.href,
    pglite.then(
      () => new Promise((resolve) => setTimeout(resolve, LIVE_BRIDGE_GRACE_MS)),
      () => new Promise(() => undefined),
    ),
  );
  let liveProblem: string | null = null;
  if (apiBase) {
    pglite.catch(() => undefined);
    try {
      const lab = await BridgeLab.open(apiBase, launchSecretOf(scope.name));
      standby = await pglite.catch(() => null);
      post({
        kind: 'ready',
        bootMs: Math.round(performance.now() - started),
        database: { kind: 'live', version: lab.session.version, where: lab.session.where },
      });
      return { host: newHost(lab), pglite: null };
    } catch (error) {
      liveProblem = `live mode could not start: ${messageOf(error)}`;
    }
  }
  const { engine, source, fallbackReason, recovered } = await pglite;
  // 'initdb': the pre-built data directory was not used (a slow start); fallbackReason says why.
  post({
    kind: 'ready',
    bootMs: Math.round(performance.now() - started),
    bootSource: source,
    bootNote: fallbackReason,
    bootRecovered: recovered,
    database: { kind: 'pglite', liveProblem },
  });
  return engine;
}

async function startPGlite() {
  // bootLab marks 'files-in' and 'postgres-started' itself, as each happens (so a trace places them too).
  const { db: lab, source, fallbackReason, recovered, completeBundle: complete } = await bootLab({ bundle: 'lab' });
  completeBundle = complete;
  markStart('lab-open');
  // A learner's own claim ("Your SQL"): what the lab cannot play of it fails the step with the reason.
  const host = newHost(guardCustomClaim(lab));
  // A first, small replay compiles the query paths while the start is still being waited for, so the
  // learner's first request is not the one that pays for it (and is not mistaken for a hang). Three
  // steps of the first scenario's script: its two reads and its first claim, whose UPDATE took 8–10 ms
  // on a learner's first claim otherwise (2–3 ms once compiled); the boot takes a few ms longer.
  const first = SCENARIOS[0]!;
  await host.load({ type: 'load', scenarioId: first.id, settings: defaultSettings(first), schedule: first.script.slice(0, 3), onInapplicable: 'skip' });
  markStart('warmed-up');
  return { engine: { host, pglite: lab }, source, fallbackReason, recovered };
}

/**
 * The backpressure lab plays on the same PGlite as the race lab (one Postgres per tab). In live mode the
 * race lab is on the server and the backpressure lab on the PGlite started alongside it.
 */
const backpressure = new BackpressureHost(
  async () => {
    const engine = await ready;
    const lab = engine.pglite ?? standby?.engine.pglite ?? null;
    if (!lab) throw new Error('the backpressure lab needs PGlite, which could not start in this tab');
    return PGliteBackpressure.open(lab.pg);
  },
  () => post({ kind: 'progress', id: currentId }),
);

function newHost(lab: ConstructorParameters<typeof LabHost>[0]): LabHost {
  return new LabHost(lab, () => post({ kind: 'progress', id: currentId }));
}

/**
 * Live mode failed: carry the learner on with PGlite, at the same place. `view` is the learner's place
 * from before the request that failed, which may have got part of the way.
 */
function leaveLive(view: ReturnType<LabHost['learnerView']>, why: string): Promise<BootedLab> {
  return withHeartbeat(async () => {
    const { engine } = await (standby ?? startPGlite());
    if (view) await engine.host.reopen({ type: 'reopen', place: view, after: 'live-lost', onInapplicable: 'skip' });
    post({ kind: 'database', database: { kind: 'pglite', liveProblem: why } });
    return engine;
  });
}

/** Runs `work` while the page's watchdog hears every HEARTBEAT_MS that the current request is alive (it waits for PGlite, not for a runaway statement). */
async function withHeartbeat<T>(work: () => Promise<T>): Promise<T> {
  const heartbeat = setInterval(() => post({ kind: 'progress', id: currentId }), HEARTBEAT_MS);
  try {
    return await work();
  } finally {
    clearInterval(heartbeat);
  }
}

scope.onmessage = (event: MessageEvent<ToWebWorker>) => {
  const { id, request } = event.data;
  // The page's queue sends a request once the last is answered: a second one now would be a bug there.
  if (requestsInFlight > 0) {
    post({ kind: 'error', id, message: `request ${id} came before request ${currentId} was answered; the page sends one at a time` });
    return;
  }
  lastRequestAt = performance.now();
  requestsInFlight += 1;
  engineTurn = engineTurn.then(async () => {
    currentId = id;
    try {
      const engine = await ready;
      const place = engine.pglite === null ? engine.host.learnerView() : null;
      let result: Awaited<ReturnType<typeof handle>>;
      try {
        result = await handle(engine, request);
      } catch (error) {
        if (engine.pglite !== null || !(error instanceof BridgeFailure)) throw error;
        const next = leaveLive(place, error.message);
        ready = next;
        result = await handle(await next, request);
      }
      post({ kind: 'result', id, result });
    } catch (error) {
      post({ kind: 'error', id, ...errorAnswerOf(error) });
    } finally {
      requestsInFlight -= 1;
      lastRequestAt = performance.now();
    }
  });
};

/** A request, by its entry in the request table; the runaway check, which is not in it, by runaway(). */
function handle(lab: BootedLab, request: LabRequest) {
  if (request.type === 'runaway') return runaway(lab);
  return handleRequest(partsOf(lab), request);
}

/** What the request table's handlers run on, in this worker. */
function partsOf({ host, pglite }: BootedLab): HostParts {
  return { host, backpressure, labOnPGlite: pglite !== null, wholeBundle: withWholeBundle, progress: () => post({ kind: 'progress', id: currentId }) };
}

/**
 * A row locked by a parked transaction, then a plain FOR UPDATE on it: inside PGlite the second statement
 * waits for a lock nobody can release, spinning forever. The page's watchdog ends it.
 */
async function runaway({ pglite }: BootedLab): Promise<never> {
  if (!pglite) throw new Error('the runaway check needs PGlite; this tab runs on a live server');
  await pglite.reset(seedJson(SCENARIOS[0]!));
  await pglite.pg.exec(`BEGIN; SELECT run_id FROM runs FOR UPDATE; PREPARE TRANSACTION 'lease_lab_runaway'`);
  await pglite.pg.query('SELECT run_id FROM runs FOR UPDATE');
  throw new Error('the runaway statement returned; PGlite no longer spins on lock waits');
}

/**
 * Waits for the rest of PGlite's bundle (at once if it is there). Meanwhile the page's watchdog hears that
 * the request is alive: this is a download, which may take seconds on a slow network, not a statement
 * running away; and the statement's own time limit starts once the bundle is in.
 */
async function withWholeBundle(): Promise<void> {
  await withHeartbeat(completeBundle);
  post({ kind: 'progress', id: currentId });
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
