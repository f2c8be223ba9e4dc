/**
 * Vitest global setup: one throwaway PostgreSQL server for the whole run (both projects), stopped and deleted at the end.
 * Test files read its URL with inject('postgresUrl') and each creates its own database on it.
 */
import type { TestProject } from 'vitest/node';
import { type PostgresServer, startPostgresServer } from '../support/postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of an empty database on the throwaway server. */
    postgresUrl: string;
    postgresVersion: string;
    /** The server's unix socket directory: the differential labs connect through it (onSocket). */
    postgresSocketDir: string;
  }
}

/**
 * Each vitest project (vite.config.ts) runs its own global setup, in the one main process: the first starts
 * the server, the others share it, and the last to finish stops it.
 */
const SHARED = Symbol.for('lease-lab:postgres-server');
interface Shared {
  server: Promise<PostgresServer>;
  users: number;
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const holder = globalThis as { [SHARED]?: Shared };
  holder[SHARED] ??= { server: startPostgresServer(), users: 0 };
  const shared = holder[SHARED];
  shared.users += 1;
  const server = await shared.server;
  project.provide('postgresUrl', server.url);
  project.provide('postgresVersion', server.version);
  project.provide('postgresSocketDir', server.socketDir);
  return async () => {
    shared.users -= 1;
    if (shared.users > 0) return;
    delete holder[SHARED];
    await server.stop();
  };
}
