/**
 * Opening connections to a real PostgreSQL server, and saying in one line, without the password, why
 * it did not work: the CLI prints that line and exits with code 2.
 */
import pg from 'pg';
import { sqlText } from '../sql/registry';

/** pg_terminate_backend(pid, timeout) waits for the backend to be gone: PostgreSQL 14 and later. */
const MIN_SERVER_VERSION = 140000;
const CONNECT_TIMEOUT_MS = 5000;

export async function openClient(url: string, applicationName: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, application_name: applicationName, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // Until a session installs its own handler, a dropped connection must not crash the process.
  client.on('error', () => undefined);
  try {
    await client.connect();
    return client;
  } catch (error) {
    await client.end().catch(() => undefined);
    throw unreachable(url, error);
  }
}

export async function checkServerVersion(observer: pg.Client, url: string): Promise<void> {
  const result = await observer.query<{ version_num: number; version: string }>(sqlText('server-version'));
  const found = result.rows[0];
  if (found && found.version_num < MIN_SERVER_VERSION) {
    throw userFacing(`the PostgreSQL server at ${redactUrl(url)} is version ${found.version}; the lab needs 14 or newer`);
  }
}

/** One line for the person at the terminal: which server (without its password) and why it did not answer. */
function unreachable(url: string, error: unknown): Error {
  const e = error as { code?: unknown; message?: unknown };
  const where = redactUrl(url);
  const reasons: Record<string, string> = {
    ECONNREFUSED: 'connection refused',
    ENOTFOUND: 'host not found',
    EAI_AGAIN: 'host not found',
    EHOSTUNREACH: 'host unreachable',
    ENETUNREACH: 'network unreachable',
    ETIMEDOUT: 'no answer',
    ENOENT: 'no server socket there',
  };
  const code = typeof e.code === 'string' ? e.code : '';
  const message = firstLine(error, url);
  const timedOut = /timeout/i.test(message);
  const reason = reasons[code] ?? (timedOut ? `no answer within ${CONNECT_TIMEOUT_MS / 1000} s` : message);
  // A network failure never reached a server; anything else is the server saying no (login, database).
  const verb = code in reasons || timedOut ? 'cannot reach' : 'cannot connect to';
  return userFacing(`${verb} PostgreSQL at ${where}: ${reason}`);
}

/** A driver error's first line, never repeating the password. */
export function firstLine(error: unknown, url: string): string {
  const message = (error as { message?: unknown }).message;
  return stripSecret(typeof message === 'string' ? message.split('\n')[0]! : String(error), url);
}

export function userFacing(message: string): Error {
  return Object.assign(new Error(message), { userFacing: true });
}

/** The URL as it may be printed: any password replaced by ***. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.href;
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}

/** A driver message never repeats the password, but make sure. */
function stripSecret(text: string, url: string): string {
  let password = '';
  try {
    password = decodeURIComponent(new URL(url).password);
  } catch {
    // Unparseable URL: nothing to strip that redactUrl did not already hide.
  }
  return password ? text.split(password).join('***') : text;
}

/**
 * Resolves once the backend has finished with the statement that just failed on this client. PostgreSQL
 * sends the error before it aborts the transaction (releasing its row locks and clearing its backend_xid)
 * and says ReadyForQuery only after; pg rejects at the error and hands that ReadyForQuery to no query. So
 * a look at pg_locks or pg_stat_activity right after the error may still see the failed transaction's locks
 * (CI saw B's lock after B's COMMIT failed 40001). An empty query is sent only after that ReadyForQuery and
 * answers after it: awaiting it is waiting for the cleanup. A closed connection has nothing left to clean.
 */
export async function settledAfterError(client: pg.Client): Promise<void> {
  await client.query('').catch(() => undefined);
}
