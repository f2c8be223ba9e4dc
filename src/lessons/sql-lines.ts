/**
 * Line-level views of SQL text: a walkthrough's clauses and a spot-the-bug question's faulty line are
 * located by the text they contain, never by a line number typed by hand, so they follow the SQL files.
 */
import { labStatementText } from '../strategies';
import type { SqlClause } from './types';

/** src/sql/<id>.sql or src/strategies/<strategy>/<id>.sql: where a learner finds the statement in the repository. */
export function sqlPath(id: string): string {
  return labStatementText(id)?.file ?? `src/sql/${id}.sql`;
}

export function sqlLines(sql: string): string[] {
  return sql.replace(/\s+$/, '').split('\n');
}

/** The 1-based line that contains `text`, or null when none or more than one does. */
export function uniqueLine(sql: string, text: string): number | null {
  const hits = sqlLines(sql)
    .map((line, index) => (line.includes(text) ? index + 1 : 0))
    .filter((line) => line > 0);
  return hits.length === 1 ? hits[0]! : null;
}

export interface ResolvedClause {
  /** 1-based, inclusive. */
  start: number;
  end: number;
  note: string;
  /** The clause's own text, for a label. */
  text: string;
}

/** Locates each clause; a clause that does not match exactly one line is left out (the tests forbid it). */
export function resolveClauses(sql: string, clauses: readonly SqlClause[]): ResolvedClause[] {
  const lines = sqlLines(sql);
  const out: ResolvedClause[] = [];
  for (const clause of clauses) {
    const start = uniqueLine(sql, clause.match);
    if (start === null) continue;
    const end = Math.min(lines.length, start + (clause.lines ?? 1) - 1);
    out.push({
      start,
      end,
      note: clause.note,
      text: lines
        .slice(start - 1, end)
        .map((line) => line.trim())
        .join(' '),
    });
  }
  return out;
}
