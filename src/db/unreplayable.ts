import type { RefusedAtStep } from './port';

/**
 * A wait the lab cannot replay on PGlite, met while playing: a claim whose finder locks nothing would wait
 * with several runs matched (on a real server its UPDATE locks the matched runs it passes before the one
 * it waits for and holds them while it waits; PGlite's probe holds nothing), or a statement built to run
 * on a server only (AfterWait 'server-only'). Its own module, free of any driver, so the page's engine
 * boundary can tell it from an error PostgreSQL raised (custom-claim-guard.ts yourSqlRefusalOf).
 */
export class UnreplayableWait extends Error implements RefusedAtStep {
  readonly userFacing = true;

  /**
   * `refused`: what refused which file ("hb.sql: refused on PGlite"); `statementId`: the statement that would
   * wait; `reason`: why the lab refuses, as the rest of a sentence.
   */
  constructor(
    readonly refused: string,
    readonly statementId: string,
    readonly reason: string,
  ) {
    super(`${refused}: ${reason}`);
  }

  /** The one line then names the step, for a command line that plays many schedules (check) or one given (run). */
  placeAt(step: string): void {
    this.message = `${this.refused} at ${step}: ${this.reason}`;
  }
}
