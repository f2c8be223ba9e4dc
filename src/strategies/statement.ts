/** Builders for the lab's own statements: a .sql file's text as a statement value. */
import { type SqlId, sqlText, statementText } from '../sql/registry';
import type { AfterWait, LabStatement, ParamName, StatementText } from './types';

/** A statement file in a strategy's folder, by its file name (its id) and raw text. */
export function strategyText(folder: string, id: string, raw: string): StatementText {
  return { id, text: statementText(raw), file: `src/strategies/${folder}/${id}.sql` };
}

/** A statement of src/sql/ (the registry). */
export function sharedText(id: SqlId): StatementText {
  return { id, text: sqlText(id), file: `src/sql/${id}.sql` };
}

const CANNOT_WAIT: AfterWait = { kind: 'cannot-wait' };

/** A statement that takes no row lock another transaction could hold. */
export function neverWaits(text: StatementText, params: readonly ParamName[]): LabStatement {
  return { ...text, params, probe: null, afterWait: CANNOT_WAIT };
}

/** A statement that can wait, with the NOWAIT probe the lab runs before it on PGlite. */
export function mayWait(
  text: StatementText,
  params: readonly ParamName[],
  probe: StatementText,
  afterWait: Exclude<AfterWait, { kind: 'cannot-wait' }>,
): LabStatement {
  return { ...text, params, probe, afterWait };
}
