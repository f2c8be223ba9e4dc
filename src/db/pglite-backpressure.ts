/**
 * The backpressure lab on PGlite. One session serves every worker, which is exact here: the engine runs
 * one worker's whole transaction at a time, so no statement can ever wait for another's lock (the
 * advisory locks in the claim are always free when taken). The race lab's parking is not needed.
 */
import type { PGliteInterface } from '@electric-sql/pglite';
import type { StatementOutcome } from '../sim/types';
import { sqlText } from '../sql/registry';
import type { BackpressureDatabase, BackpressureStatement, SessionId } from './port';
import { normalizeRow, toOutcomeError } from './values';

export class PGliteBackpressure implements BackpressureDatabase {
  readonly kind = 'pglite' as const;
  private clock: string | null = null;

  private constructor(private readonly pg: PGliteInterface) {}

  /**
   * Wraps a started PGlite that has the lab's schema (bootLab gives one). It must not also serve the race
   * lab: that one parks transactions, and TRUNCATE here would wait behind them forever.
   */
  static async open(pg: PGliteInterface): Promise<PGliteBackpressure> {
    await pg.exec(sqlText('session-setup'));
    return new PGliteBackpressure(pg);
  }

  async clear(): Promise<void> {
    // TRUNCATE, not DELETE: a finished run leaves thousands of dead row versions behind; new files drop them all.
    await this.pg.exec(sqlText('truncate-runs'));
  }

  async transaction(_session: SessionId, clockIso: string, statements: BackpressureStatement[]): Promise<StatementOutcome> {
    if (clockIso !== this.clock) {
      await this.pg.query(sqlText('set-clock'), [clockIso]);
      this.clock = clockIso;
    }
    if (statements.length === 1) return this.run(statements[0]!);
    // BEGIN and the statements without parameters before the first one with (the lock) go in one
    // simple-protocol message: the same text, one trip into the wasm instead of two.
    const leading = statements.findIndex((statement) => statement.params.length > 0);
    const opening = leading < 0 ? statements.length - 1 : leading;
    try {
      await this.pg.exec(['BEGIN', ...statements.slice(0, opening).map((statement) => sqlText(statement.sqlId))].join(';\n'));
      let last: StatementOutcome = { status: 'ok', rows: [], rowCount: 0 };
      for (const statement of statements.slice(opening)) {
        last = await this.run(statement);
        if (last.status !== 'ok') break;
      }
      await this.pg.exec(last.status === 'ok' ? 'COMMIT' : 'ROLLBACK');
      return last;
    } catch (error) {
      await this.pg.exec('ROLLBACK');
      return toOutcomeError(error);
    }
  }

  private async run(statement: BackpressureStatement): Promise<StatementOutcome> {
    try {
      const result = await this.pg.query(sqlText(statement.sqlId), statement.params);
      return { status: 'ok', rows: result.rows.map(normalizeRow), rowCount: result.rows.length };
    } catch (error) {
      return toOutcomeError(error);
    }
  }

  async close(): Promise<void> {
    await this.pg.close();
  }
}
