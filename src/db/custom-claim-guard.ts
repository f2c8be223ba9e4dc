/**
 * Two guards on a claim someone wrote, for every engine that plays one (the CLI's check, the page's lab and
 * its explorer). A claim built as never waiting must never be found waiting (its UPDATE met a row another
 * worker holds that its finder did not lock): the engine would run it again once the lock is free, which is
 * not what PostgreSQL does. And a claim that took several runs at once: the lab's worker follows one run per
 * claim, so the others would sit claimed and unworked in a way the lab does not model. In both cases the
 * step fails with a one-line reason (an error with `userFacing` set) instead of guessing. On a real server
 * (`where` 'postgres') only the second applies.
 */
import type { StatementOutcome } from '../sim/types';
import type { LabStatement } from '../strategies';
import { CUSTOM_CLAIM_IDS, roleOfStatement, type YourSqlRefusal } from '../strategies/custom';
import type { LabDatabase } from './port';
import { UnreplayableWait } from './unreplayable';

/** A step of the learner's claim the lab cannot play: `reason` is why, as the rest of a sentence. */
class CustomClaimRefused extends Error {
  readonly userFacing = true;
  override name = 'CustomClaimRefused';

  constructor(
    who: string,
    readonly reason: string,
  ) {
    super(`${who}: refused: ${reason}`);
  }
}

/**
 * Which of the learner's statements a step refused and why, if that is what `error` is, else null: the guard's
 * own refusal of a claim, or a wait PGlite cannot replay (./unreplayable.ts) of the claim, a write or the
 * reaper someone wrote, which is the lab's limit and not an error PostgreSQL raised. The page's engine
 * boundary asks this, so either keeps the learner's steps before it and says why in one line.
 */
export function yourSqlRefusalOf(error: unknown): YourSqlRefusal | null {
  if (error instanceof CustomClaimRefused) return { role: 'claim', reason: error.reason };
  const role = error instanceof UnreplayableWait ? roleOfStatement(error.statementId) : null;
  return role !== null ? { role, reason: (error as UnreplayableWait).reason } : null;
}

/** The same port, its executeClaim checked as above; built-in claims pass straight through. */
export function guardCustomClaim<T extends LabDatabase>(db: T, where: 'pglite' | 'postgres' = 'pglite'): T {
  const executeClaim = db.executeClaim.bind(db);
  db.executeClaim = async (session, request): Promise<StatementOutcome> => {
    const outcome = await executeClaim(session, request);
    const statement: LabStatement = request.statement;
    // psql's \gset takes one row: a SELECT that found more is an error there, and would leave their locks held here.
    if (statement.id === CUSTOM_CLAIM_IDS.select && outcome.status === 'ok' && outcome.rowCount > 1) {
      throw new CustomClaimRefused(
        statement.file ?? 'your claim',
        `its SELECT … \\gset returned ${outcome.rowCount} rows, and psql's \\gset takes one ("more than one row returned for \\gset"); add LIMIT 1`,
      );
    }
    if (statement.id !== CUSTOM_CLAIM_IDS.claim) return outcome;
    if (outcome.status === 'ok' && outcome.rowCount > 1) {
      throw new CustomClaimRefused(
        statement.file ?? 'your claim',
        `one claim took ${outcome.rowCount} runs (${outcome.rows.map((row) => row.run_id).join(', ')}); the lab's worker follows one run per claim, so it cannot play what happens to the others`,
      );
    }
    // On a real server the wait is real, and what follows it is the server's own.
    if (where === 'pglite' && outcome.status === 'blocked' && statement.afterWait.kind === 'cannot-wait') {
      throw new CustomClaimRefused(
        statement.file ?? 'your claim',
        `its finder skips or fails on a locked row, but its UPDATE would still wait for a row another worker holds; the lab cannot replay that wait on PGlite: check it on a real server (npm run sim -- check … --db URL)`,
      );
    }
    return outcome;
  };
  return db;
}
