/**
 * The live bridge's command line, as a pure function: what to do, or the one line that says why not.
 *
 *   npm run live -- [--port 4190] [--host 127.0.0.1] [--dist dist] postgres://user@host/db
 *   npm run live -- --drop postgres://user@host/db
 */
import { parseArgs } from 'node:util';

const DEFAULT_PORT = 4190;
/** The bridge holds open database connections and runs the lab's statements: only this machine may reach it. */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

export type LiveCommand =
  | { kind: 'serve'; url: string; host: string; port: number; dist: string }
  | { kind: 'drop'; url: string }
  | { kind: 'help' }
  | { kind: 'refused'; message: string };

export const USAGE = `usage: npm run live -- [--port ${DEFAULT_PORT}] [--host 127.0.0.1] [--dist dist] postgres://user@host/db
       npm run live -- --drop postgres://user@host/db   (removes the lease_lab schema the bridge created)`;

export function parseLiveArgs(argv: string[]): LiveCommand {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return { kind: 'refused', message: (error as Error).message };
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help' };
  if (positionals.length !== 1)
    return {
      kind: 'refused',
      message:
        positionals.length === 0
          ? 'give the PostgreSQL server as a URL, e.g. postgres://user@localhost/db'
          : `one URL, please (got ${positionals.length} arguments)`,
    };
  const url = positionals[0]!;
  const urlProblem = checkDatabaseUrl(url);
  if (urlProblem) return { kind: 'refused', message: urlProblem };
  if (values.drop) return { kind: 'drop', url };
  const host = values.host ?? '127.0.0.1';
  if (!LOOPBACK_HOSTS.has(host)) return { kind: 'refused', message: `the bridge listens on this machine only (127.0.0.1, ::1 or localhost), not on ${host}` };
  const port = values.port === undefined ? DEFAULT_PORT : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return { kind: 'refused', message: `--port needs a port number, not ${values.port}` };
  return { kind: 'serve', url, host, port, dist: values.dist ?? 'dist' };
}

function parse(argv: string[]) {
  return parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      dist: { type: 'string' },
      drop: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
}

/** A postgres:// or postgresql:// URL naming a database; null when it is one. */
export function checkDatabaseUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `"${hideSecret(url)}" is not a URL; expected postgres://user@host/db`;
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') return `"${hideSecret(url)}" is not a postgres:// URL`;
  if (parsed.pathname.replace(/^\//, '') === '') return `"${hideSecret(url)}" names no database; expected postgres://user@host/db`;
  return null;
}

/** Where the server is, as the page's banner says it: host[:port]/db, never the user or password. */
export function describeServer(url: string): string {
  const parsed = new URL(url);
  const socket = parsed.searchParams.get('host');
  const host = parsed.hostname ? `${parsed.hostname}${parsed.port ? `:${parsed.port}` : ''}` : (socket ?? 'localhost');
  return `${host}/${decodeURIComponent(parsed.pathname.replace(/^\//, ''))}`;
}

function hideSecret(text: string): string {
  return text.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
}
