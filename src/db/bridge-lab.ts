/**
 * Live mode's database, seen from the engine's Web Worker: every LabDatabase call goes to the live bridge
 * (src/live/server.ts) on the page's own origin, which runs it on a real PostgreSQL server through
 * PostgresLab, one connection per worker. Statements travel by id, never as SQL text; the console's one
 * statement travels as text and is checked again by the bridge.
 *
 * A bridge that does not answer, or a server that fails, is a BridgeFailure: the worker then carries the
 * learner on with PGlite.
 */
import type { ConsoleStatement } from '../sql/console';
import type { BridgeOperation, BridgeOperations, StatementById } from './bridge-protocol';
import { LIVE_HEADER } from './live-header';
import type { LabDatabase, SessionId, StatementRequest } from './port';
import type { EngineFact } from '../sim/narration';

/** Long enough for a real server's slowest answer (a crash waits up to 5 s for the backend to exit). */
const REQUEST_TIMEOUT_MS = 10_000;

export interface LiveSession {
  version: string;
  /** host[:port]/db */
  where: string;
  schema: string;
  token: string;
}

/** The bridge or the server behind it stopped doing its job; the message says how, in one line. */
export class BridgeFailure extends Error {
  override name = 'BridgeFailure';
}

export class BridgeLab implements LabDatabase {
  readonly kind = 'postgres' as const;

  private constructor(
    private readonly apiBase: URL,
    readonly session: LiveSession,
  ) {}

  /** Opens a live session on the bridge at `apiBase` (…/live/); this tab takes the bridge over from any other. */
  static async open(apiBase: URL, launch: string | null): Promise<BridgeLab> {
    const session = (await post(apiBase, 'session', {}, null, launch)) as LiveSession;
    return new BridgeLab(apiBase, session);
  }

  async reset(seedJson: string, sessions: SessionId[]): Promise<void> {
    await this.call('reset', { seedJson, sessions });
  }

  execute(session: SessionId, request: StatementRequest) {
    return this.call('execute', byId(session, request));
  }

  executeClaim(session: SessionId, request: StatementRequest) {
    return this.call('execute-claim', byId(session, request));
  }

  retryBlocked(session: SessionId) {
    return this.call('retry', { session });
  }

  wakeOrder(waiting: SessionId[]) {
    return this.call('wake-order', { sessions: waiting });
  }

  commit(session: SessionId) {
    return this.call('commit', { session });
  }

  async crash(session: SessionId): Promise<void> {
    await this.call('crash', { session });
  }

  runs() {
    return this.call('runs', {});
  }

  locks() {
    return this.call('locks', {});
  }

  /** A real server needs no tricks: every statement is sent as shown. */
  takeEngineFact(): EngineFact | null {
    return null;
  }

  runConsole(statement: ConsoleStatement, clockIso: string, maxRows: number) {
    return this.call('console', { sql: statement.sql, clockIso, maxRows });
  }

  async close(): Promise<void> {
    // The bridge keeps its connections for the next tab; nothing to end from here.
  }

  /** One operation, its body and answer typed by bridge-protocol.ts (the bridge checks the body again). */
  private async call<Op extends BridgeOperation>(op: Op, body: BridgeOperations[Op]['body']): Promise<BridgeOperations[Op]['answer']> {
    return (await post(this.apiBase, op, body, this.session.token)) as BridgeOperations[Op]['answer'];
  }
}

async function post(apiBase: URL, op: string, body: unknown, token: string | null, launch: string | null = null): Promise<unknown> {
  let response: Response;
  try {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (token) headers['x-lease-lab-token'] = token;
    if (launch) headers['x-lease-lab-launch'] = launch;
    response = await fetch(new URL(op, apiBase), { method: 'POST', headers, body: JSON.stringify(body), signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    const timedOut = (error as { name?: string }).name === 'TimeoutError';
    throw new BridgeFailure(timedOut ? `the live bridge did not answer within ${REQUEST_TIMEOUT_MS / 1000} s` : 'the live bridge is not running any more');
  }
  const answer = (await response.json().catch(() => ({}))) as { value?: unknown; error?: string };
  if (response.ok) return answer.value;
  const why = answer.error ?? `HTTP ${response.status}`;
  // 400: the bridge refused what this page sent, which is a bug here, not a reason to leave live mode.
  if (response.status === 400) throw new Error(`the live bridge refused ${op}: ${why}`);
  if (response.status === 403) throw new BridgeFailure(why);
  throw new BridgeFailure(response.status === 409 ? 'another tab has taken over the live bridge' : `the PostgreSQL server failed: ${why}`);
}

/**
 * Was this script served by the live bridge? Asks for the script itself again (it exists on any server,
 * so no request can fail where there is no bridge) and looks for the bridge's header. Returns the API's
 * base URL, or null. The question is dropped (null) once `giveUp` settles: an offline network fails it at
 * once, but a hanging one (a captive portal, a dead Wi-Fi) would otherwise hold the lab's start although
 * its offline copy is on disk. The bridge serves the page from this machine and answers in milliseconds.
 */
export async function findLiveBridge(scriptUrl: string, giveUp: Promise<unknown>): Promise<URL | null> {
  const asking = new AbortController();
  giveUp.then(
    () => asking.abort(),
    () => asking.abort(),
  );
  try {
    const response = await fetch(scriptUrl, { method: 'HEAD', cache: 'no-store', signal: asking.signal });
    return response.headers.get(LIVE_HEADER) === '1' ? new URL('/live/', scriptUrl) : null;
  } catch {
    return null;
  }
}

/** Live mode's launch secret, as the page put it in the engine worker's name (src/webworker/spawn.ts). */
export function launchSecretOf(workerName: string): string | null {
  return /\blive=([A-Za-z0-9_-]+)$/.exec(workerName)?.[1] ?? null;
}

/** The page names the lab's statement by id; the bridge looks its text up itself (src/live/requests.ts). */
function byId(session: SessionId, request: StatementRequest): StatementById {
  return { session, sqlId: request.statement.id, params: request.params, clockIso: request.clockIso };
}
