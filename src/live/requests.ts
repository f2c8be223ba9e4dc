/**
 * What the bridge accepts from the page, checked field by field. The page names the lab's statements by
 * id; it never sends SQL, except the console's one statement, which must pass the console's own check.
 * Anything else is refused with a reason and never reaches the server.
 */
import { BRIDGE_OPERATIONS, type BridgeOperation } from '../db/bridge-protocol';
import type { SessionId, StatementRequest } from '../db/port';
import { OPERATOR_SESSION, type Value } from '../sim/types';
import { type ConsoleStatement, checkConsoleSql } from '../sql/console';
import { PAGE_STATEMENTS } from '../strategies';

/** The operations the bridge offers: the LabDatabase port's, as bridge-protocol.ts types them for both ends. */
export type Operation = BridgeOperation;

export type CheckedRequest =
  | { op: 'reset'; seedJson: string; sessions: SessionId[] }
  | { op: 'execute' | 'execute-claim'; session: SessionId; statement: StatementRequest }
  | { op: 'retry' | 'commit' | 'crash'; session: SessionId }
  | { op: 'wake-order'; sessions: SessionId[] }
  | { op: 'runs' | 'locks' }
  | { op: 'console'; statement: ConsoleStatement; clockIso: string; maxRows: number };

export class RefusedRequest extends Error {
  override name = 'RefusedRequest';
}

const MAX_SESSIONS = 12;
const MAX_TEXT = 64 * 1024;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,6})?(Z|[+-]\d{2}:\d{2})$/;

export function isOperation(name: string): name is Operation {
  return (BRIDGE_OPERATIONS as readonly string[]).includes(name);
}

/** Checks one request body for an operation; throws RefusedRequest saying what is wrong. */
export function checkRequest(op: Operation, body: unknown): CheckedRequest {
  const fields = (typeof body === 'object' && body !== null && !Array.isArray(body) ? body : {}) as Record<string, unknown>;
  switch (op) {
    case 'reset': {
      const seedJson = text(fields.seedJson, 'seedJson');
      if (!Array.isArray(safeJson(seedJson))) throw new RefusedRequest('seedJson must be a JSON array of runs');
      const sessions = fields.sessions;
      if (!Array.isArray(sessions) || sessions.length === 0 || sessions.length > MAX_SESSIONS)
        throw new RefusedRequest(`sessions must list 1 to ${MAX_SESSIONS} sessions`);
      return { op, seedJson, sessions: sessions.map(sessionId) };
    }
    case 'execute':
    case 'execute-claim':
      return { op, session: sessionId(fields.session), statement: statement(fields) };
    case 'retry':
    case 'commit':
    case 'crash':
      return { op, session: sessionId(fields.session) };
    case 'wake-order': {
      const sessions = fields.sessions;
      if (!Array.isArray(sessions) || sessions.length > MAX_SESSIONS) throw new RefusedRequest(`sessions must list at most ${MAX_SESSIONS} sessions`);
      return { op, sessions: sessions.map(sessionId) };
    }
    case 'runs':
    case 'locks':
      return { op };
    case 'console': {
      const check = checkConsoleSql(text(fields.sql, 'sql'));
      if (check.kind === 'refused') throw new RefusedRequest(check.reason);
      const maxRows = fields.maxRows;
      if (typeof maxRows !== 'number' || !Number.isInteger(maxRows) || maxRows < 1) throw new RefusedRequest('maxRows must be a positive whole number');
      return { op, statement: { sql: check.sql, command: check.command, cursor: check.cursor }, clockIso: instant(fields.clockIso), maxRows };
    }
  }
}

function statement(fields: Record<string, unknown>): StatementRequest {
  // Only the statements a worker or the operator runs (src/strategies/ defines them); the lab's plumbing stays in the bridge.
  const sqlId = fields.sqlId;
  const found = typeof sqlId === 'string' ? PAGE_STATEMENTS.get(sqlId) : undefined;
  if (!found) throw new RefusedRequest(`"${shown(sqlId).slice(0, 60)}" is not one of the lab's statements`);
  const params = fields.params;
  const count = found.params.length;
  if (!Array.isArray(params) || params.length !== count) throw new RefusedRequest(`${found.id} takes ${count} parameters`);
  for (const value of params) {
    const scalar =
      value === null ||
      typeof value === 'boolean' ||
      (typeof value === 'number' && Number.isFinite(value)) ||
      (typeof value === 'string' && value.length <= 1000);
    if (!scalar) throw new RefusedRequest('parameters must be short strings, numbers, booleans or null');
  }
  return { statement: found, params: params as Value[], clockIso: instant(fields.clockIso) };
}

function sessionId(value: unknown): SessionId {
  if (typeof value !== 'string' || !(/^[A-Z]$/.test(value) || value === OPERATOR_SESSION))
    throw new RefusedRequest(`"${shown(value).slice(0, 20)}" is not a worker (A–Z) or the operator (${OPERATOR_SESSION})`);
  return value;
}

function text(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length > MAX_TEXT) throw new RefusedRequest(`${name} must be text of at most ${MAX_TEXT} characters`);
  return value;
}

function instant(value: unknown): string {
  if (typeof value !== 'string' || !ISO_INSTANT.test(value)) throw new RefusedRequest('clockIso must be an ISO timestamp');
  return value;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A value from the request as text for a refusal; never calls the value's own toString (it may be anything JSON holds). */
function shown(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined');
}
