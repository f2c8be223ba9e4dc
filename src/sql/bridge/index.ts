/**
 * Statements of the live bridge and the CLI's `--db` that the browser never runs, by id, as the registry
 * (../registry.ts) keeps the lab's own. Their text is the text executed.
 */
import consoleRoleCreate from './console-role-create.sql?raw';
import consoleRoleDrop from './console-role-drop.sql?raw';
import consoleRoleName from './console-role-name.sql?raw';
import consoleShapeDeclare from './console-shape-declare.sql?raw';
import consoleShapeFetch from './console-shape-fetch.sql?raw';
import consoleSizedDeclare from './console-sized-declare.sql?raw';
import consoleTry from './console-try.sql?raw';
import consoleTryUndo from './console-try-undo.sql?raw';
import loginRole from './login-role.sql?raw';
import ownRoleCreate from './own-role-create.sql?raw';
import ownSchemaCreate from './own-schema-create.sql?raw';
import ownSchemaDrop from './own-schema-drop.sql?raw';
import ownSchemaSession from './own-schema-session.sql?raw';
import specDatabaseCreate from './spec-database-create.sql?raw';
import specDatabaseDrop from './spec-database-drop.sql?raw';
import specRoleCreate from './spec-role-create.sql?raw';
import specSessionBlocked from './spec-session-blocked.sql?raw';
import specSessionBlockers from './spec-session-blockers.sql?raw';
import statementTimeout from './statement-timeout.sql?raw';

const texts = {
  'console-role-create': consoleRoleCreate,
  'console-role-drop': consoleRoleDrop,
  'console-role-name': consoleRoleName,
  'console-shape-declare': consoleShapeDeclare,
  'console-shape-fetch': consoleShapeFetch,
  'console-sized-declare': consoleSizedDeclare,
  'console-try': consoleTry,
  'console-try-undo': consoleTryUndo,
  'login-role': loginRole,
  'own-role-create': ownRoleCreate,
  'own-schema-create': ownSchemaCreate,
  'own-schema-drop': ownSchemaDrop,
  'own-schema-session': ownSchemaSession,
  'spec-database-create': specDatabaseCreate,
  'spec-database-drop': specDatabaseDrop,
  'spec-role-create': specRoleCreate,
  'spec-session-blocked': specSessionBlocked,
  'spec-session-blockers': specSessionBlockers,
  'statement-timeout': statementTimeout,
} as const;

export type BridgeSqlId = keyof typeof texts;

export const BRIDGE_SQL_IDS = Object.keys(texts) as BridgeSqlId[];

/** The statement's text, trimmed, without a final `;` (drivers reject it in the extended protocol). */
export function bridgeSql(id: BridgeSqlId): string {
  return texts[id].trim().replace(/;$/, '');
}

/** The line of console-sized-declare.sql that stands for the learner's query. */
const LEARNER_QUERY = /^LEARNER_QUERY$/m;

/**
 * console-sized-declare.sql around the learner's query, and how many characters come before it (taken
 * off a Postgres error's position).
 */
export function sizedDeclare(query: string): { text: string; prefixLength: number } {
  const [head, tail] = bridgeSql('console-sized-declare').split(LEARNER_QUERY) as [string, string];
  // The query may end in a -- comment: its own line ends before the lab's closing parenthesis.
  return { text: `${head}${query}\n${tail}`, prefixLength: head.length };
}
