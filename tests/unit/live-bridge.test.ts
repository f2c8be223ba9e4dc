/**
 * The live bridge's refusals, over real HTTP against a stand-in backend: only its own loopback Host, only
 * same-origin JSON, only the lab's statements by id, only the console's read-only statements, and only
 * the tab that took it over last. What it refuses never reaches the backend.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest } from 'node:http';
import { type AddressInfo, connect, createServer as createNetServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { findLiveBridge } from '../../src/db/bridge-lab';
import { BRIDGE_OPERATIONS, type BridgeOperation, type OPERATION_OF_METHOD } from '../../src/db/bridge-protocol';
import { LIVE_HEADER } from '../../src/db/live-header';
import { LAB_SCHEMA_NOTE, labTableStatements } from '../../src/db/postgres-lab';
import { type CheckedRequest, checkRequest, isOperation, RefusedRequest } from '../../src/live/requests';
import { type Bridge, type LiveBackend, startBridge } from '../../src/live/server';
import { sqlText } from '../../src/sql/registry';
import { PAGE_STATEMENTS } from '../../src/strategies';

const received: CheckedRequest[] = [];
const backend: LiveBackend = {
  info: { version: '15.18', where: '127.0.0.1:5432/lab', schema: 'lease_lab' },
  async run(request) {
    received.push(request);
    if (request.op === 'locks') return { rows: ['x'.repeat(9 * 1024 * 1024)] };
    return request.op === 'execute' ? { status: 'ok', rows: [], rowCount: 0 } : null;
  },
  async close() {},
};

/** A page policy as index.html would declare it: the bridge must send exactly this (plus no framing). */
const PAGE_POLICY = "default-src 'self'; connect-src 'self'";
let bridge: Bridge;
let origin: string;

beforeAll(async () => {
  const dist = mkdtempSync(join(tmpdir(), 'lease-lab-live-'));
  writeFileSync(join(dist, 'index.html'), `<!doctype html><meta http-equiv="Content-Security-Policy" content="${PAGE_POLICY}" /><title>lab</title>`);
  bridge = await startBridge(backend, { host: '127.0.0.1', port: 0, dist, log: () => undefined });
  origin = new URL(bridge.url).origin;
});

afterAll(() => bridge.close());

interface Sent {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A raw request, so the test can send any Host and Origin a hostile page or a DNS-rebinding trick would. */
function send(path: string, options: { method?: string; headers?: Record<string, string>; body?: unknown } = {}): Promise<Sent> {
  const url = new URL(path, bridge.url);
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: options.method ?? 'POST',
        headers: { 'content-type': 'application/json', ...options.headers },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The launch secret the bridge put in the URL it prints. */
const launch = () => new URL(bridge.url).searchParams.get('live')!;

async function openSession(): Promise<string> {
  const answer = await send('/live/session', { body: {}, headers: { 'x-lease-lab-launch': launch() } });
  expect(answer.status).toBe(200);
  return JSON.parse(answer.body).value.token as string;
}

const claim = { session: 'A', sqlId: 'claim-skip-locked', params: ['A', 60], clockIso: '2030-01-01T15:00:00.000Z' };

describe('the live bridge', () => {
  it('runs one of the lab statements, by id, for the tab holding the session', async () => {
    const token = await openSession();
    received.length = 0;
    const answer = await send('/live/execute', { body: claim, headers: { 'x-lease-lab-token': token } });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ value: { status: 'ok', rows: [], rowCount: 0 } });
    expect(received).toEqual([
      { op: 'execute', session: 'A', statement: { statement: PAGE_STATEMENTS.get('claim-skip-locked'), params: ['A', 60], clockIso: claim.clockIso } },
    ]);
  });

  it("refuses a statement id that is not one of the workers' statements, and never runs it", async () => {
    const token = await openSession();
    received.length = 0;
    for (const sqlId of ['live-schema-drop', 'truncate-runs', 'DROP TABLE runs', 'no-such-statement']) {
      const answer = await send('/live/execute', { body: { ...claim, sqlId }, headers: { 'x-lease-lab-token': token } });
      expect(answer.status, sqlId).toBe(400);
      expect(JSON.parse(answer.body).error).toContain("is not one of the lab's statements");
    }
    const console = await send('/live/console', {
      body: { sql: 'DROP SCHEMA lease_lab CASCADE', clockIso: claim.clockIso, maxRows: 10 },
      headers: { 'x-lease-lab-token': token },
    });
    expect(console.status).toBe(400);
    expect(JSON.parse(console.body).error).toContain('read-only');
    expect(received).toEqual([]);
  });

  it('answers only to its own loopback Host and to same-origin JSON requests', async () => {
    const token = await openSession();
    received.length = 0;
    const rebound = await send('/live/execute', { body: claim, headers: { host: `evil.example:${new URL(bridge.url).port}`, 'x-lease-lab-token': token } });
    expect(rebound.status).toBe(421);
    const page = await send('/', { method: 'GET', headers: { host: 'evil.example' } });
    expect(page.status).toBe(421);
    const crossOrigin = await send('/live/execute', { body: claim, headers: { origin: 'https://evil.example', 'x-lease-lab-token': token } });
    expect(crossOrigin.status).toBe(403);
    const form = await send('/live/execute', { body: claim, headers: { 'content-type': 'text/plain', 'x-lease-lab-token': token } });
    expect(form.status).toBe(405);
    const sameOrigin = await send('/live/runs', { body: {}, headers: { origin, 'x-lease-lab-token': token } });
    expect(sameOrigin.status).toBe(200);
    expect(received.map((r) => r.op)).toEqual(['runs']);
  });

  it('refuses a tab that another tab has taken the bridge over from', async () => {
    const first = await openSession();
    const second = await openSession();
    expect((await send('/live/runs', { body: {}, headers: { 'x-lease-lab-token': first } })).status).toBe(409);
    expect((await send('/live/runs', { body: {}, headers: { 'x-lease-lab-token': second } })).status).toBe(200);
    expect((await send('/live/runs', { body: {} })).status).toBe(409);
  });

  it("serves the app with its page's own Content-Security-Policy and the header that tells the worker it is live", async () => {
    const page = await send('/', { method: 'GET' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<title>lab</title>');
    expect(page.headers['content-security-policy']).toBe(`${PAGE_POLICY}; frame-ancestors 'none'`);
    expect((await send('/live/runs', { body: {} })).headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(page.headers[LIVE_HEADER]).toBe('1');
    expect((await send('/../../etc/passwd', { method: 'GET' })).status).not.toBe(200);
  });
});

/** Bytes as a client sends them, for request lines no HTTP library would write. */
function sendRaw(text: string): Promise<string> {
  const url = new URL(bridge.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(text));
    let answer = '';
    socket.on('data', (chunk) => {
      answer += chunk;
    });
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe("the live bridge's launch secret", () => {
  it('gives a session only to a request carrying the secret of the URL it printed', async () => {
    expect(launch()).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await send('/live/session', { body: {} })).status).toBe(403);
    expect((await send('/live/session', { body: {}, headers: { 'x-lease-lab-launch': 'x'.repeat(32) } })).status).toBe(403);
    expect((await send('/live/session', { body: {}, headers: { 'x-lease-lab-launch': launch() } })).status).toBe(200);
  });
});

describe('hostile requests to the live bridge', () => {
  it('answers each with an error of its own and keeps serving', async () => {
    const host = new URL(bridge.url).host;
    expect((await send('/%E0%A4%A', { method: 'GET' })).status).toBe(400);
    expect(await sendRaw(`GET http://[zz/ HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`)).toMatch(/^HTTP\/1\.1 400/);
    const token = await openSession();
    const odd = await send('/live/commit', { body: { session: { toString: 1 } }, headers: { 'x-lease-lab-token': token } });
    expect(odd.status).toBe(400);
    expect(JSON.parse(odd.body).error).toContain('is not a worker');
    const huge = await send('/live/locks', { body: {}, headers: { 'x-lease-lab-token': token } });
    expect(huge.status).toBe(413);
    expect(JSON.parse(huge.body).error).toContain('larger than');
    // Still alive: the next ordinary request is answered.
    expect((await send('/live/execute', { body: claim, headers: { 'x-lease-lab-token': token } })).status).toBe(200);
  });
});

describe('a request body over 256 KB', () => {
  it.each([
    ['just over the limit', 257 * 1024],
    ['4 MB', 4 * 1024 * 1024],
  ])('%s: answered 413 with a reason (not a reset connection), and the next request is served', async (_name, bytes) => {
    const token = await openSession();
    received.length = 0;
    const big = await send('/live/execute', { body: { ...claim, padding: 'x'.repeat(bytes) }, headers: { 'x-lease-lab-token': token } });
    expect(big.status).toBe(413);
    expect(JSON.parse(big.body).error).toBe('the request is larger than 256 KB');
    expect(received).toEqual([]);
    expect((await send('/live/execute', { body: claim, headers: { 'x-lease-lab-token': token } })).status).toBe(200);
  });
});

describe("the live bridge's health", () => {
  it('says whether the bridge is reconnecting, to any tab of its own origin, and nothing more', async () => {
    const health = await send('/live/health', { body: {} });
    expect(health.status).toBe(200);
    expect(JSON.parse(health.body)).toEqual({ value: { state: 'up' } });
    expect((await send('/live/health', { body: {}, headers: { origin: 'http://evil.example' } })).status).toBe(403);
  });
});

describe('checkRequest', () => {
  const refusal = (op: Parameters<typeof checkRequest>[0], body: unknown) => {
    try {
      checkRequest(op, body);
    } catch (error) {
      if (error instanceof RefusedRequest) return error.message;
      throw error;
    }
    return null;
  };

  it("wants the statement's own number of scalar parameters, a worker or the operator, and an ISO clock", () => {
    expect(refusal('execute', claim)).toBeNull();
    expect(refusal('execute', { ...claim, params: ['A'] })).toContain('takes 2 parameters');
    expect(refusal('execute', { ...claim, params: ['A', { sql: 'x' }] })).toContain('parameters must be');
    expect(refusal('execute', { ...claim, session: 'lease_lab_observer' })).toContain('is not a worker');
    expect(refusal('execute', { ...claim, clockIso: "now()'; DROP TABLE runs; --" })).toContain('clockIso');
    expect(refusal('reset', { seedJson: 'not json', sessions: ['A'] })).toContain('JSON array');
    expect(refusal('console', { sql: 'BEGIN', clockIso: claim.clockIso, maxRows: 5 })).toContain('BEGIN READ ONLY');
    expect(refusal('console', { sql: 'SELECT * FROM runs', clockIso: claim.clockIso, maxRows: 5 })).toBeNull();
  });

  it('the bridge offers each operation the page sends, every port method that reaches the database has one, and nothing else is an operation', () => {
    expect([...BRIDGE_OPERATIONS].sort()).toEqual(['commit', 'console', 'crash', 'execute', 'execute-claim', 'locks', 'reset', 'retry', 'runs', 'wake-order']);
    for (const op of BRIDGE_OPERATIONS) expect(isOperation(op), op).toBe(true);
    expect(isOperation('rollback')).toBe(false);
    expect(isOperation('toString')).toBe(false);
    // The compiler holds the table to the port (satisfies) and to the operations: none is left without its method.
    expectTypeOf<Exclude<BridgeOperation, (typeof OPERATION_OF_METHOD)[keyof typeof OPERATION_OF_METHOD]>>().toEqualTypeOf<never>();
  });

  it('wake-order wants a short list of workers or the operator', () => {
    expect(checkRequest('wake-order', { sessions: ['B', 'C', 'OP'] })).toEqual({ op: 'wake-order', sessions: ['B', 'C', 'OP'] });
    expect(refusal('wake-order', { sessions: 'B' })).toContain('sessions must list');
    expect(refusal('wake-order', { sessions: ['lease_lab_observer'] })).toContain('is not a worker');
  });
});

describe('the live schema', () => {
  it("is made from schema.sql's own table statements, without the sim schema", () => {
    const statements = labTableStatements();
    expect(statements.some((statement) => /^CREATE TABLE runs \(/m.test(statement))).toBe(true);
    expect(statements.join('\n')).not.toMatch(/\bsim\./);
    expect(sqlText('live-schema')).toContain('CREATE SCHEMA lease_lab;');
    expect(LAB_SCHEMA_NOTE).toMatch(/^Lease Lab live mode/);
  });
});

describe('finding the live bridge at the start', () => {
  it('finds it from the script the bridge served, and finds none on a server that is not the bridge', async () => {
    const never = new Promise(() => undefined);
    expect((await findLiveBridge(new URL('/assets/engine.js', bridge.url).href, never))?.href).toBe(new URL('/live/', bridge.url).href);
    const plain = createServer((_, res) => res.end('static'));
    await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));
    try {
      expect(await findLiveBridge(`http://127.0.0.1:${(plain.address() as AddressInfo).port}/assets/engine.js`, never)).toBeNull();
    } finally {
      plain.close();
    }
  });

  it('stops asking when told to: a network that never answers does not hold the start', async () => {
    // Accepts the connection and never answers, as a hanging network does.
    const sockets: Socket[] = [];
    const hanging = createNetServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    try {
      const giveUp = new AbortController();
      const told = new Promise((resolve) => giveUp.signal.addEventListener('abort', resolve));
      const asked = findLiveBridge(`http://127.0.0.1:${(hanging.address() as AddressInfo).port}/assets/engine.js`, told);
      const before = await Promise.race([asked.then(() => 'answered'), new Promise((resolve) => setTimeout(resolve, 200, 'still asking'))]);
      expect(before).toBe('still asking');
      giveUp.abort();
      expect(await asked).toBeNull();
    } finally {
      for (const socket of sockets) socket.destroy();
      hanging.close();
    }
  });
});
