/**
 * A strategy whose claim is a statement someone wrote (the CLI's `check --claim FILE`; later the browser's
 * "Your SQL"), built from PostgreSQL's parse tree as the analyzer reads it. The claim's text runs exactly
 * as written; the analyzer gives its NOWAIT probe; its after-wait behaviour must be one the engine already
 * replays exactly on PGlite, or the strategy is refused with the reason. The owner's writes are the lab's.
 */
import type { GsetClaim, GsetSelectShape, HeldSelect, Shape } from '../sql/analyze';
import { SHARED_WRITES } from './shared';
import { type AfterWait, type LabStatement, type ParamSource, roleParams, type StatementText, type StrategyDefinition } from './types';

/** The statement ids a custom claim brings (the prepared statements' names on PGlite; none is a lab file's). */
export const CUSTOM_CLAIM_IDS = {
  claim: 'your-claim',
  probe: 'your-claim-probe',
  candidates: 'your-claim-candidates',
  relock: 'your-claim-relock',
  found: 'your-claim-found',
  resume: 'your-claim-resume',
  resumeProbe: 'your-claim-resume-probe',
  select: 'your-claim-select',
  selectProbe: 'your-claim-select-probe',
  selectCandidates: 'your-claim-select-candidates',
  selectRelock: 'your-claim-select-relock',
} as const;

export type CustomClaim = { ok: true; definition: StrategyDefinition } | { ok: false; reason: string };

/**
 * `onServer`: the statements run on a PostgreSQL server, where a wait is real, so a shape whose after-wait
 * PGlite cannot replay is kept (as server-only) rather than refused.
 */
export interface CustomOptions {
  onServer?: boolean;
}

/** Why the engine cannot follow this claim through a lock wait, or the after-wait recipe it replays exactly. */
function afterWaitOf(shape: Shape, file: string | null): { ok: true; afterWait: AfterWait } | { ok: false; reason: string } {
  const locks = shape.locks;
  const text = (id: string, body: string): StatementText => ({ id, text: body, file });
  if (locks.length === 0) {
    // PostgreSQL keeps what its CTE or sub-select found and re-checks the locked row against it: the
    // analyzer's resume recipe replays that (the analyzer itself refuses a shape it has no recipe for).
    const { resume } = shape.afterWait;
    if ('why' in resume)
      return {
        ok: false,
        reason: `after a wait PostgreSQL re-checks the row against what the statement read before waiting, and the lab cannot carry that over for this shape (${resume.why}); check it on a real server (npm run sim -- check … --db URL)`,
      };
    return {
      ok: true,
      afterWait: {
        kind: 'resume-found',
        found: text(CUSTOM_CLAIM_IDS.found, resume.found),
        resume: text(CUSTOM_CLAIM_IDS.resume, resume.statement),
        resumeProbe: text(CUSTOM_CLAIM_IDS.resumeProbe, resume.probe),
        frozenCount: resume.frozenCount,
      },
    };
  }
  if (locks.every((lock) => lock.wait !== 'wait')) return { ok: true, afterWait: { kind: 'cannot-wait' } };
  const [lock] = locks;
  const finder = shape.afterWait.lockingFinder;
  if (locks.length !== 1 || !lock || !finder) {
    return {
      ok: false,
      reason: 'after a wait PostgreSQL re-checks the row against what the statement read before waiting, and the lab cannot carry that over for this shape',
    };
  }
  if (lock.strength !== 'update' && lock.strength !== 'no key update') {
    return {
      ok: false,
      reason: `a waiting FOR ${lock.strength.toUpperCase()} finder: the lab replays only a waiting FOR UPDATE or FOR NO KEY UPDATE finder; check it on a real server (npm run sim -- check … --db URL)`,
    };
  }
  if (lock.limit !== 1) {
    return {
      ok: false,
      reason: `a waiting finder ${lock.limit === null ? 'without LIMIT' : `under LIMIT ${lock.limit}`}: the lab replays only a waiting finder under LIMIT 1 (after the wait it claims the first row it had found that still qualifies); check it on a real server (npm run sim -- check … --db URL)`,
    };
  }
  if (finder.runParameter !== 1) {
    return {
      ok: false,
      reason:
        "a waiting finder whose rows depend on the worker's parameters: the lab cannot relock those yet; check it on a real server (npm run sim -- check … --db URL)",
    };
  }
  return {
    ok: true,
    afterWait: { kind: 'relock-found', candidates: text(CUSTOM_CLAIM_IDS.candidates, finder.candidates), relock: text(CUSTOM_CLAIM_IDS.relock, finder.relock) },
  };
}

/** A statement as the lab sends it: without the whitespace around it and its final ";". */
export function textAsRun(text: string): string {
  return text.trim().replace(/;$/, '');
}

/** The owner's writes someone may write, and the ids of their statements. */
export const CUSTOM_WRITE_IDS = { heartbeat: 'your-heartbeat', work: 'your-work', complete: 'your-complete' } as const;

export type WriteRole = keyof typeof CUSTOM_WRITE_IDS;

/**
 * An owner's write someone wrote (heartbeat, work or completion), for both the fenced and the unfenced write:
 * it takes the role's fenced parameters. Played only where running it again after a wait is what PostgreSQL
 * does: its own WHERE names the row by `run_id = $1` and reads no other row, so after the wait PostgreSQL
 * re-checks that one row's newest version against the whole WHERE, as a fresh run does.
 */
export function customWrite(
  role: WriteRole,
  text: string,
  shape: Shape,
  file: string | null,
  options: CustomOptions = {},
  bound: readonly ParamSource[] | null = null,
): { ok: true; statement: LabStatement } | { ok: false; reason: string } {
  if (shape.role !== role) return { ok: false, reason: `the statement was analyzed as a ${shape.role}, not a ${role}` };
  const byId =
    shape.finder === 'where' && shape.locks.length === 0 && shape.recheck.againstRowsFoundBefore.length === 0 && shape.recheck.onTheRow.includes('run_id = $1');
  const reason = `the lab replays a waiting ${role === 'complete' ? 'completion' : role} only when its own WHERE names the run by run_id = $1 and reads no other row (after the wait PostgreSQL re-checks that row, as running it again does); run it on a real server (--db, or live mode)`;
  if (!byId && !options.onServer) return { ok: false, reason };
  const id = CUSTOM_WRITE_IDS[role];
  return {
    ok: true,
    statement: {
      id,
      text: textAsRun(text),
      file,
      // Only the parameters it uses, $1 up to the highest (the analyzer refuses a gap): PostgreSQL refuses
      // a statement given more values than it takes, and a completion by `run_id = $1` alone is a real one.
      params: bound ?? roleParams(role, true).slice(0, Math.max(0, ...shape.parameters.used)),
      probe: { id: `${id}-probe`, text: shape.probe.text, file },
      afterWait:
        !options.onServer && shape.advisoryLocks.length > 0
          ? advisoryWait(`--${role} FILE`)
          : byId
            ? { kind: 'recheck-row' }
            : { kind: 'server-only', why: reason },
      ...(shape.kind === 'delete' ? { deletesRun: true as const } : {}),
      ...advisoryOf(shape),
    },
  };
}

/**
 * The strategy that claims with `text` (already analyzed as a claim into `shape`) and writes as the lab does.
 * `bound`: the values of its own parameters, when someone bound them (else $1 worker, $2 lease seconds).
 */
export function customClaimStrategy(
  text: string,
  shape: Shape,
  file: string | null,
  options: CustomOptions = {},
  bound: readonly ParamSource[] | null = null,
): CustomClaim {
  if (shape.role !== 'claim') return { ok: false, reason: `the statement was analyzed as a ${shape.role}, not a claim` };
  const replayed = afterWaitOf(shape, file);
  const onPGliteWithAdvisory = !options.onServer && shape.advisoryLocks.length > 0;
  if (!replayed.ok && !options.onServer && !onPGliteWithAdvisory) return replayed;
  const after = onPGliteWithAdvisory
    ? { afterWait: advisoryWait('--claim FILE') }
    : replayed.ok
      ? replayed
      : { afterWait: { kind: 'server-only', why: replayed.reason } as const };
  const claim = {
    id: CUSTOM_CLAIM_IDS.claim,
    text: textAsRun(text),
    file,
    params: bound ?? roleParams('claim', true),
    // Kept even for a claim that skips or fails instead of waiting: its UPDATE may still meet a row another
    // worker holds, and a wait must never reach PGlite.
    probe: { id: CUSTOM_CLAIM_IDS.probe, text: shape.probe.text, file },
    afterWait: after.afterWait,
    ...advisoryOf(shape),
  };
  return {
    ok: true,
    definition: {
      id: 'your-claim',
      label: `Your claim (${file ?? 'typed'})`,
      inWords: 'your claim',
      lock: null,
      raceQuestion: false,
      claim: { shape: 'one-statement', claim },
      ...SHARED_WRITES,
    },
  };
}

/**
 * The strategy that claims in two statements, `SELECT … \gset` then the UPDATE given the SELECT's run_id as
 * its parameter after its own ($3 after $1 worker and $2 lease seconds; sql/analyze/gset.ts): the worker's
 * first step runs the SELECT in a new transaction, its second the UPDATE in the same one, which stays open
 * until its next step commits, as a one-statement claim's does. A SELECT that found no row ends the
 * transaction at once, with nothing claimed, and the worker polls again: psql's \gset with no row sets
 * nothing, and a claim written so must not go on to its UPDATE. `bound`: the claim's own parameters (check
 * --param), one list for both statements, each statement given $1 up to the highest it uses.
 */
export function twoStatementClaim(gset: GsetClaim, file: string | null, options: CustomOptions = {}, bound: readonly ParamSource[] | null = null): CustomClaim {
  const own = bound ?? roleParams('claim', true);
  const update = customClaimStrategy(gset.update, gset.updateShape, file, options, [...own.slice(0, gset.runParameter - 1), 'run']);
  if (!update.ok || update.definition.claim.shape !== 'one-statement') return update;
  const readFirst = gsetSelectStatement(gset.selectShape, gset.select, file, own);
  const claim = {
    ...update.definition.claim,
    readFirst: { statement: readFirst, locks: gset.selectShape.lock !== null, runColumn: gset.runColumn, written: gset.written },
  };
  return { ok: true, definition: { ...update.definition, claim } };
}

/**
 * A claim's `SELECT … \gset` as the lab runs it: its parameters ($1 up to the highest it uses, of `own`), its
 * NOWAIT probe, and what it does after a wait (relocks what it found, in order, under LIMIT 1 without $1 or
 * $2 in the finder on PGlite; else on a server only).
 */
function gsetSelectStatement(shape: GsetSelectShape, select: string, file: string | null, own: readonly ParamSource[]): LabStatement {
  const text = (id: string, body: string): StatementText => ({ id, text: body, file });
  const finder = shape.lockingFinder;
  const waits = shape.lock?.wait === 'wait';
  const afterWait: AfterWait = !waits
    ? { kind: 'cannot-wait' }
    : finder && finder.runParameter === 1 && shape.lock?.limit === 1
      ? {
          kind: 'relock-found',
          candidates: text(CUSTOM_CLAIM_IDS.selectCandidates, finder.candidates),
          relock: text(CUSTOM_CLAIM_IDS.selectRelock, finder.relock),
        }
      : {
          kind: 'server-only',
          why: 'after a wait its SELECT re-checks the rows it had found, which the lab replays on PGlite only under LIMIT 1 and without $1 or $2 in the SELECT; check it on a real server (npm run sim -- check … --db URL)',
        };
  return {
    id: CUSTOM_CLAIM_IDS.select,
    text: textAsRun(select),
    file,
    params: own.slice(0, Math.max(0, ...shape.used)),
    probe: shape.probe ? text(CUSTOM_CLAIM_IDS.selectProbe, shape.probe) : null,
    afterWait,
  };
}

/**
 * The strategy of a claim that holds its transaction for the whole job (check --hold-for-job), as gue's
 * LockJob and neoq's do: the worker's claim step runs the `SELECT … \gset` in a new transaction, kept open
 * (parked on PGlite) while the worker calls the model, with no heartbeat (the row lock is the lease); its
 * completion (`complete`: someone's, given the run's id) runs in that transaction, which then commits in the
 * same step. A crash rolls it back. A SELECT that found no row ends its transaction and the worker polls again.
 */
export function holdForJobClaim(held: HeldSelect, file: string | null, complete: LabStatement): StrategyDefinition {
  const select = gsetSelectStatement(held.selectShape, held.select, file, roleParams('claim', true));
  return {
    id: 'your-claim',
    label: `Your claim held for the whole job (${file ?? 'typed'})`,
    inWords: 'your claim, held for the whole job',
    lock: null,
    raceQuestion: false,
    claim: {
      shape: 'one-statement',
      claim: select,
      holdForJob: { locks: held.selectShape.lock !== null, runColumn: held.runColumn, written: held.written },
    },
    ...SHARED_WRITES,
    complete: { fenced: complete, unfenced: complete },
  };
}

/**
 * A statement that takes a transaction-level advisory try-lock on PGlite (the analyzer refuses the session-level
 * one there) plays until it would wait for a row lock, and is refused there: on a server the waiting statement
 * keeps the advisory locks it took before the wait (a third worker's try-lock on one answers false), where the
 * lab's NOWAIT probe took and released them. A claim, a heartbeat, work or completion alike (a write's try-lock
 * in its own WHERE is evaluated before the row lock it waits for). `flag`: the check's flag for the statement.
 */
function advisoryWait(flag: string): AfterWait {
  return {
    kind: 'server-only',
    why: `it takes a transaction-level advisory lock: a statement waiting for a row lock on a real server keeps the advisory locks it took before the wait, which the lab’s NOWAIT probe on PGlite released; check it on a real server (npm run sim -- check … ${flag} --db URL)`,
  };
}

/** Whose statement someone wrote: the claim, a write, or the reaper. */
export type YourStatementRole = 'claim' | WriteRole | 'reaper';

/** How each statement someone wrote is named to them ("Your heartbeat", "your completion"). */
export const ROLE_NAMES: Record<YourStatementRole, string> = {
  claim: 'claim',
  heartbeat: 'heartbeat',
  work: 'work write',
  complete: 'completion',
  reaper: 'reaper',
};

/**
 * How each statement of a claim in two statements is named to a learner, in psql's words: the SELECT that
 * keeps run_id with \gset, then the UPDATE that uses it (a one-statement claim is "your claim").
 */
export const TWO_STATEMENT_NAMES = { select: 'SELECT … \\gset', update: 'UPDATE' } as const;

/** The ids of a two-statement claim's SELECT, its probe and its relock (CUSTOM_CLAIM_IDS). */
const SELECT_IDS: readonly string[] = [CUSTOM_CLAIM_IDS.select, CUSTOM_CLAIM_IDS.selectProbe, CUSTOM_CLAIM_IDS.selectCandidates, CUSTOM_CLAIM_IDS.selectRelock];

/**
 * "your heartbeat" for a statement the lab ran under `id` that someone wrote without a file (the page), else
 * null. `twoStatements`: the claim is a SELECT … \gset then an UPDATE, whose UPDATE is then "your UPDATE".
 */
export function yourStatementName(id: string, twoStatements = false): string | null {
  if (SELECT_IDS.includes(id)) return `your ${TWO_STATEMENT_NAMES.select}`;
  const role = roleOfStatement(id);
  if (role === 'claim' && twoStatements) return `your ${TWO_STATEMENT_NAMES.update}`;
  return role === null ? null : `your ${ROLE_NAMES[role]}`;
}

/** A step of the learner's SQL the lab refused (db/custom-claim-guard.ts): whose statement and why (the rest of a sentence). */
export interface YourSqlRefusal {
  role: YourStatementRole;
  reason: string;
}

/** The role of the statement the lab ran under `id` (custom.ts's ids, probes and resumes included), or null: not one someone wrote. */
export function roleOfStatement(id: string): YourStatementRole | null {
  if ((Object.values(CUSTOM_CLAIM_IDS) as string[]).includes(id)) return 'claim';
  for (const [role, own] of Object.entries(CUSTOM_WRITE_IDS) as [WriteRole, string][]) if (id === own || id === `${own}-probe`) return role;
  return id === CUSTOM_REAPER_ID || id === `${CUSTOM_REAPER_ID}-probe` ? 'reaper' : null;
}

/** The statement's advisory try-locks (LabStatement.advisoryLocks), absent when it takes none. */
function advisoryOf(shape: Shape): Pick<LabStatement, 'advisoryLocks'> {
  return shape.advisoryLocks.length > 0 ? { advisoryLocks: shape.advisoryLocks } : {};
}

/** Whether the statement lets go of advisory locks (pg_advisory_unlock…, played with check --db only). */
export function unlocksAdvisory(statement: LabStatement | null | undefined): boolean {
  return (statement?.advisoryLocks ?? []).some((name) => name.startsWith('pg_advisory_unlock'));
}

/**
 * Whether a statement of the definition takes advisory locks. The engine's state (Simulation.stateKey) is the
 * table, its row locks and the workers; an advisory lock is none of these (a session-level one outlives the
 * claim's transaction), so two histories that agree on all of them may still hold different advisory locks.
 */
export function takesAdvisoryLocks(definition: StrategyDefinition | undefined): boolean {
  if (!definition) return false;
  const statements: (LabStatement | undefined)[] = [
    definition.claim.shape === 'one-statement' ? definition.claim.claim : undefined,
    definition.heartbeat.fenced,
    definition.work.fenced,
    definition.complete.fenced,
    ownReaperOf(definition) ?? undefined,
  ];
  return statements.some((statement) => (statement?.advisoryLocks?.length ?? 0) > 0);
}

/** The id of a reaper someone wrote (`check --reaper FILE`): the rescuer's one statement. */
export const CUSTOM_REAPER_ID = 'your-reaper';

/** The reaper someone wrote that the definition plays (withCustomReaper), or null: none, or the queue's own rescuer. */
export function ownReaperOf(definition: StrategyDefinition | undefined): LabStatement | null {
  const rescuer = definition?.rescuer;
  return rescuer?.shape === 'one-statement' && rescuer.sweep.id === CUSTOM_REAPER_ID ? rescuer.sweep : null;
}

/**
 * The strategy with a reaper someone wrote as its rescuer: one statement, run on the rescuer's own session at
 * each `rescue` step, that puts runs back to pending; the claim is left as it was (it takes what it takes).
 * Like the lab's own sweeps (queue.ts queueSweep) a reaper that would wait for a row lock runs on a server
 * only: after the wait PostgreSQL re-checks the newest versions of the rows it matched before waiting, which
 * the lab does not replay on PGlite. `bound`: the values of its own parameters, constants someone bound.
 */
export function withCustomReaper(
  definition: StrategyDefinition,
  text: string,
  shape: Shape,
  file: string | null,
  bound: readonly ParamSource[] = [],
): { ok: true; definition: StrategyDefinition } | { ok: false; reason: string } {
  if (shape.role !== 'reaper' || shape.kind !== 'update') return { ok: false, reason: `the statement was analyzed as a ${shape.role}, not a reaper` };
  if (definition.claim.shape !== 'one-statement') return { ok: false, reason: 'a reaper goes with a one-statement claim' };
  const sweep: LabStatement = {
    id: CUSTOM_REAPER_ID,
    text: textAsRun(text),
    file,
    // Its own parameters only (`--param reaper:1='30 seconds'`): a reaper runs for no worker, so each is a constant.
    params: bound,
    probe: { id: `${CUSTOM_REAPER_ID}-probe`, text: shape.probe.text, file },
    afterWait: {
      kind: 'server-only',
      why: 'after the wait PostgreSQL re-checks the newest versions of the rows your reaper matched, which the lab does not replay on PGlite; check it on a real server (npm run sim -- check … --db URL)',
    },
    ...advisoryOf(shape),
  };
  return {
    ok: true,
    definition: {
      ...definition,
      label: `${definition.label}, your reaper (${file ?? 'typed'})`,
      rescuer: {
        shape: 'one-statement',
        claim: definition.claim.claim,
        sweep,
        inWords: 'your reaper: one statement, on its own session, at each rescue step',
      },
    },
  };
}
