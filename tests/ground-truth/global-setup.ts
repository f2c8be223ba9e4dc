/**
 * Vitest global setup: one throwaway PostgreSQL server for the whole run, stopped and deleted at the end.
 * Test files read its URL with inject('postgresUrl') and each creates its own database on it.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresServer } from '../support/postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Superuser URL of an empty database on the throwaway server. */
    postgresUrl: string;
    postgresVersion: string;
    /** The server's unix socket directory: the differential labs connect through it (onSocket). */
    postgresSocketDir: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const server = await startPostgresServer();
  project.provide('postgresUrl', server.url);
  project.provide('postgresVersion', server.version);
  project.provide('postgresSocketDir', server.socketDir);
  return () => server.stop();
}
