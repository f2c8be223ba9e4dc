/**
 * The built-in claim strategies, and everything derived from them: the Strategy union, the picker's
 * labels, the statements a worker may run (for the live bridge and the warm-up), the trace's claim
 * actions. Adding a strategy is a folder beside these with its .sql files and definition.ts, plus its
 * line here.
 */
import { cas } from './cas/definition';
import { dbos } from './dbos/definition';
import { delayedJob } from './delayed-job/definition';
import { forUpdate } from './for-update/definition';
import { graphileWorker } from './graphile-worker/definition';
import { hangfire } from './hangfire/definition';
import { naive } from './naive/definition';
import { nowait } from './nowait/definition';
import { oban } from './oban/definition';
import { pgBoss } from './pg-boss/definition';
import { pgqueuer } from './pgqueuer/definition';
import { procrastinate } from './procrastinate/definition';
import { river } from './river/definition';
import { solidQueue } from './solid-queue/definition';
import { tenantCap } from './tenant-cap/definition';
import { SQL_IDS, type SqlId } from '../sql/registry';
import { CANCEL_REQUEST, COMMIT, MODEL_CALL, ROLLBACK } from './shared';
import { sharedText } from './statement';
import { skipLocked } from './skip-locked/definition';
import type { ClaimShape, LabStatement, StatementText, StrategyDefinition } from './types';

/** The lab's own claims, in the picker's order. */
const LAB_STRATEGIES = [naive, cas, skipLocked, forUpdate, nowait] as const satisfies readonly StrategyDefinition[];

/** Production queues' claims, written in the lab's SQL on its runs table (each definition cites the code it follows). */
const QUEUE_STRATEGIES = [
  graphileWorker,
  pgBoss,
  river,
  oban,
  solidQueue,
  procrastinate,
  pgqueuer,
  hangfire,
  delayedJob,
  dbos,
] as const satisfies readonly StrategyDefinition[];

/**
 * Claims that enforce a limit inside themselves (the chapter "Backpressure"), offered only with the
 * scenarios that play them (LIMIT_SCENARIOS in src/scenarios): not among the lab's claims, so the lessons
 * and the ground truth do not play them under every scenario.
 */
const LIMIT_STRATEGIES = [tenantCap] as const satisfies readonly StrategyDefinition[];

/** In the picker's order: the lab's own, then the production queues, then the limits. */
export const BUILT_IN_STRATEGIES = [...LAB_STRATEGIES, ...QUEUE_STRATEGIES, ...LIMIT_STRATEGIES] as const satisfies readonly StrategyDefinition[];

type BuiltIn = (typeof BUILT_IN_STRATEGIES)[number];

export type StrategyId = BuiltIn['id'];

/** The trace's names for the update step of the select-then-update claims. */
export type SelectThenUpdateAction = Extract<BuiltIn['claim'], { shape: 'select-then-update' }>['action'];

export const STRATEGY_IDS: readonly StrategyId[] = BUILT_IN_STRATEGIES.map((definition) => definition.id);

/** The lab's own claims: what the lessons, the quiz and the challenges teach with. */
export const LAB_STRATEGY_IDS: readonly StrategyId[] = LAB_STRATEGIES.map((definition) => definition.id);

/** The production queues' claims (each definition has its `queue` facts). */
export const QUEUE_STRATEGY_IDS: readonly StrategyId[] = QUEUE_STRATEGIES.map((definition) => definition.id);

/**
 * Production queues added for their incidents alone (issue #35: heartbeat cadence against the timeout;
 * delayed_job's worker name shared by live workers; DBOS's recovery at launch adopting live work), which the ground truth does not play under the authored scenarios (tests/ground-truth/authored.test.ts)
 * nor, in the full ground truth, under every lesson scenario's whole state graph: the graphs cost
 * 200-300 s of CI per queue (race and lock-wait alone took 14 s under pgqueuer), and these queues' claims
 * are the same skip-locked shape as the six before them. Their incidents are still compared with
 * PostgreSQL step by step, by script (tests/ground-truth/queue-graphs.ts).
 */
export const INCIDENT_ONLY_QUEUE_IDS: readonly StrategyId[] = ['pgqueuer', 'hangfire', 'delayed-job', 'dbos'];

/** The claims that enforce a limit (offered with the scenarios that play them). */
export const LIMIT_STRATEGY_IDS: readonly StrategyId[] = LIMIT_STRATEGIES.map((definition) => definition.id);

export const STRATEGY_LABELS = Object.fromEntries(BUILT_IN_STRATEGIES.map((definition) => [definition.id, definition.label])) as Record<StrategyId, string>;

const BY_ID = new Map<string, StrategyDefinition>(BUILT_IN_STRATEGIES.map((definition) => [definition.id, definition]));

export function strategyDefinition(id: StrategyId): StrategyDefinition {
  return BY_ID.get(id)!;
}

/** The ids of the lab's own strategies whose claim is one statement inside a transaction (the atomic claims). */
export const ATOMIC_STRATEGY_IDS: readonly StrategyId[] = LAB_STRATEGY_IDS.filter((id) => strategyDefinition(id).claim.shape === 'one-statement');

const SELECT_THEN_UPDATE = new Map(
  BUILT_IN_STRATEGIES.flatMap((definition) => (definition.claim.shape === 'select-then-update' ? [[definition.claim.action, definition.claim] as const] : [])),
);

export function isSelectThenUpdateAction(action: string): action is SelectThenUpdateAction {
  return SELECT_THEN_UPDATE.has(action as SelectThenUpdateAction);
}

/** The claim whose update step the trace names `action`. */
export function selectThenUpdateShape(action: SelectThenUpdateAction): Extract<ClaimShape, { shape: 'select-then-update' }> {
  return SELECT_THEN_UPDATE.get(action)!;
}

/** The updates of the select-then-update claims, as the trace names them. */
export const SELECT_THEN_UPDATE_ACTIONS: readonly string[] = [...SELECT_THEN_UPDATE.keys()];

/** Trace actions that claim a run: the atomic claim, the update of a select-then-update claim, and a recovery's write. */
export const CLAIM_ACTIONS: readonly string[] = ['claim', ...SELECT_THEN_UPDATE_ACTIONS, 'recover'];

/** Every statement a strategy's worker may run in any role, in the order the definitions list them. */
export function workerStatements(definition: StrategyDefinition): LabStatement[] {
  const claim = definition.claim.shape === 'one-statement' ? [definition.claim.claim] : [definition.claim.select, definition.claim.update];
  const recovery = definition.recovery ? [definition.recovery.read, definition.recovery.write, definition.recovery.skipActive] : [];
  const writes = [definition.heartbeat, definition.work, definition.complete, definition.cancelAck].flatMap((pair) => [pair.fenced, pair.unfenced]);
  return [...claim, ...recovery, ...writes];
}

/** Every statement a queue's rescuer brings: the claim it leaves to pending runs, its read, its writes. */
export function rescuerStatements(definition: StrategyDefinition): LabStatement[] {
  const rescuer = definition.rescuer;
  if (!rescuer) return [];
  return rescuer.shape === 'one-statement' ? [rescuer.claim, rescuer.sweep] : [rescuer.claim, rescuer.fetch, rescuer.rescue.fenced, rescuer.rescue.unfenced];
}

/** Every statement a worker, a queue's rescuer or the operator of the built-in strategies may run, once each, by id. */
export const PAGE_STATEMENTS: ReadonlyMap<string, LabStatement> = new Map(
  [...BUILT_IN_STRATEGIES.flatMap((d) => [...workerStatements(d), ...rescuerStatements(d)]), CANCEL_REQUEST].map((statement) => [statement.id, statement]),
);

/** Every text a built-in strategy's statements bring: the statements, their probes, and what a resumed claim reads. */
export const STRATEGY_TEXTS: ReadonlyMap<string, StatementText> = new Map(
  [...PAGE_STATEMENTS.values()].flatMap((statement) => {
    const after = statement.afterWait.kind === 'relock-found' ? [statement.afterWait.candidates, statement.afterWait.relock] : [];
    return [statement, ...(statement.probe ? [statement.probe] : []), ...after].map(
      (text) => [text.id, { id: text.id, text: text.text, file: text.file }] as const,
    );
  }),
);

/** Any statement of the lab by id (src/sql/ or a strategy's), with its text and file; null for an unknown id. */
export function labStatementText(id: string): StatementText | null {
  if ((SQL_IDS as readonly string[]).includes(id)) return sharedText(id as SqlId);
  return STRATEGY_TEXTS.get(id) ?? null;
}

export { CANCEL_REQUEST, COMMIT, MODEL_CALL, ROLLBACK };
export type { LabStatement, RescuerDefinition, StatementText, StrategyDefinition } from './types';
