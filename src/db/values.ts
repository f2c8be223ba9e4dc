import { OUT_OF_RANGE_TIME } from '../sim/clock';
import type { Row, StatementOutcome, Value } from '../sim/types';

/** Both drivers return timestamps as Date; the lab keeps them as ISO text so traces compare byte for byte. */
export function normalizeValue(value: unknown): Value {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? OUT_OF_RANGE_TIME : value.toISOString();
  if (typeof value === 'bigint') return Number(value);
  if (value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null) return value;
  return JSON.stringify(value);
}

export function normalizeRow(row: unknown): Row {
  const out: Row = {};
  for (const [key, value] of Object.entries(row as Record<string, unknown>)) out[key] = normalizeValue(value);
  return out;
}

/**
 * The SQLSTATE of an error PostgreSQL raised, or null for one it did not (the lab's own failures carry none).
 * PGlite's wire errors and node-postgres's errors both carry the five characters as `code`.
 */
export function sqlStateOf(error: unknown): string | null {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : null;
}

/** A driver error as the lab reports it: Postgres's own SQLSTATE and message. */
export function toOutcomeError(error: unknown): StatementOutcome {
  const e = error as { code?: unknown; message?: unknown };
  const code = typeof e.code === 'string' ? e.code : 'XX000';
  const message = typeof e.message === 'string' ? e.message : String(error);
  return { status: 'error', code, message };
}
