/**
 * A throwaway PostgreSQL server for the ground-truth tests, started from the machine's own binaries.
 *
 * Postgres refuses to run as root, so as root the data directory belongs to the `postgres` user and every
 * server command runs through `runuser`; as anyone else it runs as that user. The server listens on a
 * private unix-socket directory and on 127.0.0.1 at a free high port, with durability off (the data is
 * deleted at the end anyway). A server that cannot start is an error, never a reason to skip.
 */
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from '../../scripts/start-process';

export interface PostgresServer {
  /** Superuser URL of a fresh, empty database on the server. */
  url: string;
  /** The server's version, e.g. "15.18". */
  version: string;
  /** The directory of the server's unix socket (see onSocket). */
  socketDir: string;
  stop(): Promise<void>;
  /** Shuts the server down as an administrator would (pg_ctl stop -m fast): every client's connection ends. */
  pause(): void;
  /** Starts it again on the same port and data, after pause(): as a restart looks to the clients. */
  resume(): void;
}

const INSTALL_ROOT = '/usr/lib/postgresql';
const SERVER_USER = 'postgres';

export async function startPostgresServer(database = 'lease_lab'): Promise<PostgresServer> {
  const bin = findServerBinaries();
  const runAs = serverAccount();
  // In memory where the machine offers it: every reset TRUNCATEs, which creates and deletes files.
  const root = mkdtempSync(join(existsSync('/dev/shm') ? '/dev/shm' : tmpdir(), 'lease-lab-pg-'));
  const dataDir = join(root, 'data');
  const socketDir = join(root, 'socket');
  const logFile = join(root, 'server.log');
  mkdirSync(socketDir);
  if (runAs) for (const path of [root, socketDir]) chownSync(path, runAs.uid, runAs.gid);

  const run = (tool: string, args: string[]) => runTool(join(bin, tool), args, runAs !== null);
  let started = false;
  const stop = async () => {
    process.off('exit', stopNow);
    if (started) run('pg_ctl', ['stop', '-D', dataDir, '-m', 'immediate', '-w']);
    started = false;
    rmSync(root, { recursive: true, force: true });
  };
  // If the test process ends without running teardown, do not leave a server behind.
  const stopNow = () => void stop();
  process.on('exit', stopNow);

  try {
    run('initdb', ['-D', dataDir, '-U', SERVER_USER, '--auth=trust', '--no-sync', '--encoding=UTF8', '--locale=C']);
    const port = await freePort();
    const serverOptions = [
      `-p ${port}`,
      `-k ${socketDir}`,
      '-c listen_addresses=127.0.0.1',
      '-c fsync=off',
      '-c synchronous_commit=off',
      '-c full_page_writes=off',
      // A reset's TRUNCATE would queue behind an autovacuum worker; thousands of resets leave nothing to vacuum.
      '-c autovacuum=off',
      '-c max_connections=200',
    ].join(' ');
    const start = () => run('pg_ctl', ['start', '-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions]);
    start();
    started = true;
    const url = await createDatabase(`postgres://${SERVER_USER}@127.0.0.1:${port}/postgres`, database);
    const pause = () => {
      run('pg_ctl', ['stop', '-D', dataDir, '-m', 'fast', '-w']);
      started = false;
    };
    const resume = () => {
      start();
      started = true;
    };
    return { url, version: await serverVersion(url), socketDir, stop, pause, resume };
  } catch (error) {
    const log = existsSync(logFile) ? `\nserver log:\n${readFileSync(logFile, 'utf8').slice(-2000)}` : '';
    await stop();
    throw new Error(`could not start a PostgreSQL server for the ground-truth tests: ${(error as Error).message}${log}`);
  }
}

/** The newest installed major version's bin directory that has both initdb and the server. */
function findServerBinaries(): string {
  const versions = existsSync(INSTALL_ROOT) ? readdirSync(INSTALL_ROOT).filter((name) => /^\d+$/.test(name)) : [];
  const usable = versions
    .sort((a, b) => Number(b) - Number(a))
    .map((version) => join(INSTALL_ROOT, version, 'bin'))
    .filter((bin) => existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'postgres')));
  if (!usable[0]) {
    throw new Error(
      `no PostgreSQL server binaries under ${INSTALL_ROOT}/*/bin; install them with "bash scripts/ensure-deps.sh postgres" (apt-get install postgresql)`,
    );
  }
  return usable[0];
}

/** As root, the unprivileged account the server must run as; otherwise null (run as ourselves). */
function serverAccount(): { uid: number; gid: number } | null {
  if (process.getuid?.() !== 0) return null;
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${SERVER_USER}:`));
  if (!line) throw new Error(`running as root, but there is no "${SERVER_USER}" user to run the server as`);
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

function runTool(path: string, args: string[], asServerUser: boolean): void {
  const [command, fullArgs] = asServerUser ? ['runuser', ['-u', SERVER_USER, '--', path, ...args]] : [path, args];
  const result = spawnSync(command, fullArgs, { encoding: 'utf8', cwd: tmpdir() });
  if (result.error) throw new Error(`${command} ${fullArgs.join(' ')}: ${result.error.message}`);
  if (result.status !== 0) {
    const output = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-5).join('\n');
    throw new Error(`${path.split('/').pop()} exited with ${result.status}: ${output}`);
  }
}

export { freePort };

/**
 * Creates an empty database next to the one `url` names and returns its URL. Each test file takes its
 * own, so files that truncate `runs` can never see each other's rows.
 */
/**
 * The same database reached through the server's unix socket in `socketDir` instead of TCP on 127.0.0.1:
 * the server and the protocol are the same, but a round trip costs the client and the server about a third
 * less CPU than over loopback TCP (the ground truth makes millions of them).
 */
export function onSocket(url: string, socketDir: string): string {
  const target = new URL(url);
  target.searchParams.set('host', socketDir);
  return target.href;
}

export async function createDatabase(url: string, database: string): Promise<string> {
  if (!/^[a-z_][a-z0-9_]*$/.test(database)) throw new Error(`unexpected database name ${database}`);
  // PostgreSQL cuts a name to 63 bytes without a word, so two long names can meet as one (23505 on pg_database).
  if (database.length > 63) throw new Error(`database name ${database} is ${database.length} characters; PostgreSQL keeps 63`);
  await withClient(url, (client) => client.query(`CREATE DATABASE ${database}`));
  const target = new URL(url);
  target.pathname = `/${database}`;
  return target.href;
}

async function serverVersion(url: string): Promise<string> {
  const result = await withClient(url, (client) => client.query<{ server_version: string }>('SHOW server_version'));
  return result.rows[0]?.server_version.split(' ')[0] ?? 'unknown';
}

/** One short-lived connection to `url` for `use`, always ended. */
export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
