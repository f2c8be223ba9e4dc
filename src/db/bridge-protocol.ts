/**
 * The live bridge's operations, typed once for both ends: the page's BridgeLab (bridge-lab.ts) sends them,
 * the bridge (src/live/requests.ts, server.ts) checks and runs them. Each carries one LabDatabase method,
 * and the table below names the method for each, so a new port method does not compile until it has an
 * operation here or says why it has none.
 */
import type { Value } from '../sim/types';
import type { LabDatabase, SessionId } from './port';

/** A worker's statement as it travels: by id, never as SQL text (the bridge looks the text up itself). */
export interface StatementById {
  session: SessionId;
  sqlId: string;
  params: Value[];
  clockIso: string;
}

/** What a port method answers, once its promise settles. */
type AnswerOf<M extends keyof LabDatabase> = Awaited<
  ReturnType<NonNullable<LabDatabase[M]> extends (...args: never[]) => unknown ? NonNullable<LabDatabase[M]> : never>
>;

export interface BridgeOperations {
  reset: { body: { seedJson: string; sessions: SessionId[] }; answer: AnswerOf<'reset'> };
  execute: { body: StatementById; answer: AnswerOf<'execute'> };
  'execute-claim': { body: StatementById; answer: AnswerOf<'executeClaim'> };
  retry: { body: { session: SessionId }; answer: AnswerOf<'retryBlocked'> };
  'wake-order': { body: { sessions: SessionId[] }; answer: AnswerOf<'wakeOrder'> };
  commit: { body: { session: SessionId }; answer: AnswerOf<'commit'> };
  crash: { body: { session: SessionId }; answer: AnswerOf<'crash'> };
  runs: { body: Record<string, never>; answer: AnswerOf<'runs'> };
  locks: { body: Record<string, never>; answer: AnswerOf<'locks'> };
  console: { body: { sql: string; clockIso: string; maxRows: number }; answer: AnswerOf<'runConsole'> };
}

export type BridgeOperation = keyof BridgeOperations;

/** The port's methods that reach the database; the others (kind, takeEngineFact, close) stay in the page. */
type DatabaseMethod = Exclude<keyof LabDatabase, 'kind' | 'takeEngineFact' | 'close'>;

/**
 * The operation that carries each port method over the bridge, or null with the reason in a comment.
 * `satisfies` makes the compiler hold it to the port: a method missing here, or an operation that is not
 * one of BridgeOperations, fails the typecheck.
 */
export const OPERATION_OF_METHOD = {
  reset: 'reset',
  execute: 'execute',
  executeClaim: 'execute-claim',
  retryBlocked: 'retry',
  wakeOrder: 'wake-order',
  commit: 'commit',
  // Only a claim above READ COMMITTED rolls back by itself, and the page runs every claim at READ COMMITTED.
  rollback: null,
  crash: 'crash',
  runs: 'runs',
  locks: 'locks',
  runConsole: 'console',
} as const satisfies Record<DatabaseMethod, BridgeOperation | null>;

/** Every operation the bridge offers, each once. */
export const BRIDGE_OPERATIONS: readonly BridgeOperation[] = Object.values(OPERATION_OF_METHOD).filter((op): op is BridgeOperation => op !== null);
