/**
 * The live bridge: one process on this machine that holds the lab's connections to a real PostgreSQL
 * server (one per worker, through PostgresLab) and offers them to the page as a small JSON API, next to
 * the built app, on one loopback origin.
 *
 * What it refuses: a session to a request without the launch secret of the URL it printed (403), any Host
 * other than its own loopback name (a web page elsewhere cannot reach it by DNS
 * rebinding), a cross-origin or non-JSON request (so another site's form or fetch cannot drive it), a
 * statement that is not one of the lab's (by id) or that the console's rules refuse, and any request from
 * a tab that another tab has since taken the bridge over from.
 */
import { randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { openClient, redactUrl, userFacing } from '../db/postgres-connection';
import { dropLabSchema, PostgresLab } from '../db/postgres-lab';
import { OPERATOR_SESSION } from '../sim/types';
import { describeServer } from './args';
import { dropConsoleRole, PostgresConsole } from '../db/postgres-console';
import { type CheckedRequest, checkRequest, isOperation, RefusedRequest } from './requests';
import { headerContentSecurityPolicy } from './page-policy';
import { securityHeaders, serveFile } from './static';

/** The API answers JSON only: nothing in it may load, run or be framed. */
const API_HEADERS = securityHeaders("default-src 'none'; frame-ancestors 'none'");

/** What the page learns when it opens a live session; shown in its banner. */
interface LiveInfo {
  version: string;
  /** host[:port]/db, never the user or the password. */
  where: string;
  schema: 'lease_lab';
}

/** The part of the lab the API drives: the LabDatabase port and the console. A test can stand in for it. */
/** The bridge's connection to its server, as the page's banner shows it. */
type LiveHealth = { state: 'up' } | { state: 'reconnecting'; attempts: number; problem: string | null };

export interface LiveBackend {
  info: LiveInfo;
  run(request: CheckedRequest): Promise<unknown>;
  /** Answered at once, without the queue: while the server is away the page says that the bridge is reconnecting. */
  health?(): LiveHealth;
  close(): Promise<void>;
}

const API_PREFIX = '/live/';
const TOKEN_HEADER = 'x-lease-lab-token';
/** The header carrying the bridge's launch secret, which only its printed URL holds (?live=…). */
const LAUNCH_HEADER = 'x-lease-lab-launch';
const LAUNCH_PARAMETER = 'live';
const MAX_BODY_BYTES = 256 * 1024;
/** The most an answer may hold as JSON; a larger one (a console row of huge values) is refused with 413. */
const MAX_REPLY_BYTES = 8 * 1024 * 1024;

/** Connects to the server, creates (or checks) the lab's schema and proves the role can use it. */
export async function connectBackend(url: string): Promise<LiveBackend> {
  const lab = await PostgresLab.connect(url, ['A', 'B'], { schema: 'lease_lab', lockEvidence: true });
  let sqlConsole: PostgresConsole | null = null;
  try {
    sqlConsole = await PostgresConsole.open(url);
    const version = sqlConsole.serverVersion;
    // A role that may read but not write the lab's table fails here, at start, not at the learner's first step.
    await lab.reset('[]', ['A', 'B', OPERATOR_SESSION]).catch((error: unknown) => {
      throw userFacing(`cannot use the lab's table lease_lab.runs in ${redactUrl(url)}: ${(error as Error).message.split('\n')[0]}`);
    });
    const open = sqlConsole;
    return {
      info: { version, where: describeServer(url), schema: 'lease_lab' },
      run: (request) => runOnLab(lab, open, request),
      health: () => lab.connectionState(),
      async close() {
        await Promise.all([lab.close(), open.close()]);
      },
    };
  } catch (error) {
    await Promise.all([lab.close(), sqlConsole?.close()]);
    throw error;
  }
}

async function runOnLab(lab: PostgresLab, sqlConsole: PostgresConsole, request: CheckedRequest): Promise<unknown> {
  switch (request.op) {
    case 'reset':
      return lab.reset(request.seedJson, request.sessions);
    case 'execute':
      return lab.execute(request.session, request.statement);
    case 'execute-claim':
      return lab.executeClaim(request.session, request.statement);
    case 'retry':
      return lab.retryBlocked(request.session);
    case 'wake-order':
      return lab.wakeOrder(request.sessions);
    case 'commit':
      return lab.commit(request.session);
    case 'crash':
      return lab.crash(request.session);
    case 'runs':
      return lab.runs();
    case 'locks':
      return lab.locks();
    case 'console':
      return sqlConsole.run(request.statement, request.clockIso, request.maxRows);
  }
}

/**
 * `npm run live -- --drop`, and the bridge's stop: removes the lab's schema from the server, then the
 * console's role (each only if the lab made it). 'absent': there was no schema.
 */
export async function dropSchema(url: string): Promise<'dropped' | 'absent'> {
  const client = await openClient(url, 'lease_lab_drop');
  try {
    const schema = await dropLabSchema(client, url);
    await dropConsoleRole(client, url);
    return schema;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface Bridge {
  /** The app's URL with the bridge's launch secret, e.g. http://127.0.0.1:4190/?live=… */
  url: string;
  server: Server;
  close(): Promise<void>;
}

/** Serves the app in `dist` and the API on host:port (0: a free port). The backend is closed with the bridge. */
export async function startBridge(backend: LiveBackend, options: { host: string; port: number; dist: string; log?: (line: string) => void }): Promise<Bridge> {
  const root = resolve(options.dist);
  const pageHeaders = securityHeaders(headerContentSecurityPolicy(root, 'none'));
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let token: string | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let allowedHosts = new Set<string>();
  // A random secret in the URL the bridge prints: a local process or page that does not know it gets no session.
  const launch = randomBytes(24).toString('base64url');
  const knowsLaunch = (value: unknown) =>
    typeof value === 'string' && value.length === launch.length && timingSafeEqual(Buffer.from(value), Buffer.from(launch));

  const server = createServer((request, response) => {
    // Whatever a request holds, its errors stay in it: the bridge answers 500 and keeps serving.
    try {
      handle(request, response);
    } catch (error) {
      failed(response, error);
    }
  });

  function failed(response: ServerResponse, error: unknown): void {
    const message = error instanceof Error ? error.message.split('\n')[0]! : 'the request failed';
    log(`live bridge: a request failed: ${message}`);
    if (!response.headersSent) reply(response, 500, { error: message });
    else response.destroy();
  }

  function handle(request: IncomingMessage, response: ServerResponse): void {
    const host = String(request.headers.host ?? '');
    if (!allowedHosts.has(host)) {
      reply(response, 421, { error: `this bridge answers only to ${[...allowedHosts][0]}` });
      return;
    }
    let pathname: string;
    try {
      pathname = new URL(request.url ?? '/', `http://${host}`).pathname;
    } catch {
      reply(response, 400, { error: 'the request target is not a valid URL' });
      return;
    }
    if (!pathname.startsWith(API_PREFIX)) {
      serveFile(root, request, response, pathname, pageHeaders);
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== `http://${host}`) {
      reply(response, 403, { error: 'requests from other origins are refused' });
      return;
    }
    if (request.method !== 'POST' || !String(request.headers['content-type'] ?? '').startsWith('application/json')) {
      reply(response, 405, { error: 'the API takes POST requests with a JSON body' });
      return;
    }
    const name = pathname.slice(API_PREFIX.length);
    void readJson(request)
      .then(
        (body) => {
          if (name === 'session') {
            if (!knowsLaunch(request.headers[LAUNCH_HEADER])) {
              reply(response, 403, { error: "open the lab at the URL the bridge printed: this page does not carry the bridge's secret" });
              return;
            }
            // The newest tab takes the bridge over: one learner, one set of workers on the server.
            token = randomUUID();
            reply(response, 200, { value: { ...backend.info, token } });
            return;
          }
          // Nothing secret: whether the bridge is reconnecting to its server. Any tab of the bridge may ask.
          if (name === 'health') {
            reply(response, 200, { value: backend.health?.() ?? { state: 'up' } });
            return;
          }
          if (!isOperation(name)) {
            reply(response, 404, { error: `there is no operation "${name.slice(0, 40)}"` });
            return;
          }
          if (token === null || request.headers[TOKEN_HEADER] !== token) {
            reply(response, 409, { error: 'another tab has taken over the live bridge' });
            return;
          }
          let checked: CheckedRequest;
          try {
            checked = checkRequest(name, body);
          } catch (error) {
            if (!(error instanceof RefusedRequest)) throw error;
            reply(response, 400, { error: error.message });
            return;
          }
          // One statement at a time, in the order they came: the engine's own order.
          const run = chain.then(() => backend.run(checked));
          chain = run.catch(() => undefined);
          run.then(
            (value) => reply(response, 200, { value: value ?? null }),
            (error: unknown) => {
              const message = error instanceof Error ? error.message.split('\n')[0]! : String(error);
              log(`live bridge: ${name} failed: ${message}`);
              reply(response, 500, { error: message, failed: true });
            },
          );
        },
        (error: Error) => {
          // The rest of a body that is too large is read and thrown away (see readJson); the connection then closes.
          if (error instanceof BodyTooLarge) response.setHeader('Connection', 'close');
          reply(response, error instanceof BodyTooLarge ? 413 : 400, { error: error.message });
        },
      )
      .catch((error: unknown) => failed(response, error));
  }

  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(options.port, options.host, () => done());
  });
  const port = (server.address() as AddressInfo).port;
  const names = options.host === '::1' ? ['[::1]'] : options.host === 'localhost' ? ['localhost', '127.0.0.1'] : ['127.0.0.1', 'localhost'];
  allowedHosts = new Set(names.map((name) => `${name}:${port}`));
  return {
    url: `http://${names[0]}:${port}/?${LAUNCH_PARAMETER}=${launch}`,
    server,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
      await chain;
      await backend.close();
    },
  };
}

function reply(response: ServerResponse, status: number, body: unknown): void {
  let text: string;
  try {
    text = JSON.stringify(body);
  } catch {
    text = JSON.stringify({ error: 'the answer could not be sent as JSON' });
    status = 500;
  }
  if (Buffer.byteLength(text) > MAX_REPLY_BYTES) {
    text = JSON.stringify({ error: `the answer is larger than ${MAX_REPLY_BYTES / 1024 / 1024} MB; ask for fewer or smaller columns` });
    status = 413;
  }
  response.writeHead(status, { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', ...API_HEADERS }).end(text);
}

/** A request body over MAX_BODY_BYTES: answered with 413, the rest of it read and thrown away. */
class BodyTooLarge extends Error {
  override name = 'BodyTooLarge';
}

/**
 * How much of a too-large body is read and thrown away so that the client, still sending, gets the 413
 * (a connection reset before it finished sending would hide the answer); past this it is cut off.
 */
const MAX_DISCARDED_BYTES = 16 * 1024 * 1024;

function readJson(request: IncomingMessage): Promise<unknown> {
  return new Promise((done, fail) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY_BYTES + MAX_DISCARDED_BYTES) request.destroy();
      else if (size > MAX_BODY_BYTES && !tooLarge) {
        tooLarge = true;
        chunks.length = 0;
        fail(new BodyTooLarge(`the request is larger than ${MAX_BODY_BYTES / 1024} KB`));
      } else if (!tooLarge) chunks.push(chunk);
    });
    request.on('end', () => {
      if (tooLarge) return;
      const text = Buffer.concat(chunks).toString('utf8');
      try {
        done(text === '' ? {} : JSON.parse(text));
      } catch {
        fail(new Error('the body is not JSON'));
      }
    });
    request.on('error', fail);
  });
}
