/**
 * The engine's requests, each handled once, here: the Web Worker (engine.worker.ts) and the in-process host
 * (local-engine.ts) both answer a request by looking its type up in REQUESTS, and the request and result
 * types the page uses (protocol.ts's LabRequest and LabResultOf) are derived from this table. A new
 * request is its payload type in protocol.ts and one entry here.
 */
import { yourSqlRefusalOf } from '../db/custom-claim-guard';
import { sqlStateOf } from '../db/values';
import { playForQuestion, recordedTrace } from '../engine/recorded';
import type { BackpressureHost } from './backpressure-host';
import type { LabHost } from './host';
import type { ApplyRequest, BackpressureRequest, ConsoleRequest, FromWebWorker, LoadRequest, ReopenRequest, RunTraceRequest, SpecRequest } from './protocol';

/** What a handler runs on: the same parts in the worker and in-process. */
export interface HostParts {
  /** The learner's lab: one simulation on the lab's database. */
  host: LabHost;
  /** The backpressure lab, on the same Postgres in its own schema. */
  backpressure: BackpressureHost;
  /** The learner's lab runs on PGlite (not a live server). */
  labOnPGlite: boolean;
  /**
   * Waits until PGlite can run SQL the lab did not write (the console's, the backpressure lab's): its whole
   * file bundle must be in (a time zone, a text search dictionary). Resolves at once where it is (Node).
   */
  wholeBundle(): Promise<void>;
  /** Tells the page's watchdog that a long request is alive (a no-op where nothing watches). */
  progress(): void;
}

export const REQUESTS = {
  load: (parts: HostParts, request: LoadRequest) => parts.host.load(request),
  // Every way back to the learner's place (a refusal, a crash, a link, leaving live mode): one policy, LabHost.reopen.
  reopen: (parts: HostParts, request: ReopenRequest) => parts.host.reopen(request),
  apply: (parts: HostParts, request: ApplyRequest) => parts.host.apply(request),
  // The lesson's run borrows the learner's database: a visible loan, taken back before the learner's next move.
  // At a level above READ COMMITTED it is the trace recorded on a server (engine/recorded.ts): nothing is borrowed.
  'run-trace': (parts: HostParts, request: RunTraceRequest) =>
    request.settings.isolation
      ? recordedTrace(request.scenario, request.settings, request.schedule)
      : parts.host.lendDatabase('lesson', (db) => playForQuestion(db, request.scenario, request.settings, request.schedule)),
  console: async (parts: HostParts, request: ConsoleRequest) => {
    // On a live server the statement runs there; PGlite's files are not needed.
    if (parts.labOnPGlite) await parts.wholeBundle();
    return parts.host.console(request);
  },
  // Always on PGlite: in live mode, on the PGlite started beside the server.
  backpressure: async (parts: HostParts, request: BackpressureRequest) => {
    await parts.wholeBundle();
    return parts.backpressure.play(request);
  },
  // On a PGlite of its own, whatever the learner's lab runs on: the learner's database is never touched.
  // A chunk of its own, fetched on the first run: the worker's start does without it.
  spec: async (parts: HostParts, request: SpecRequest) => (await import('./spec-host')).runPastedSpec(request, () => parts.progress()),
};

type RequestTable = typeof REQUESTS;
/** Every request in the table, as the page sends it. */
export type TableRequest = { [K in keyof RequestTable]: Parameters<RequestTable[K]>[1] }[keyof RequestTable];
/** What the table's entry for a request answers. */
export type TableResultOf<R extends TableRequest> = Awaited<ReturnType<RequestTable[R['type']]>>;

/** Runs one request on `parts` by its entry in the table. */
export function handleRequest(parts: HostParts, request: TableRequest): Promise<TableResultOf<TableRequest>> {
  const handler = REQUESTS[request.type] as ((parts: HostParts, request: TableRequest) => Promise<TableResultOf<TableRequest>>) | undefined;
  if (!handler) return Promise.reject(new Error(`the engine has no request "${String((request as { type: unknown }).type)}"`));
  return handler(parts, request);
}

/**
 * A failed request's answer, as the Web Worker posts it and the in-process host throws it: the message, and,
 * typed so the page never reads words to tell them apart, a refusal of the learner's SQL or the SQLSTATE of an
 * error PostgreSQL raised (anything without one is the lab's own failure).
 */
export function errorAnswerOf(error: unknown): Omit<Extract<FromWebWorker, { kind: 'error' }>, 'kind' | 'id'> {
  const refused = yourSqlRefusalOf(error);
  const sqlState = sqlStateOf(error);
  return {
    message: error instanceof Error ? error.message : String(error),
    ...(refused !== null ? { refused } : {}),
    ...(sqlState !== null ? { sqlState } : {}),
  };
}
