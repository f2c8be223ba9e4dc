/**
 * Several statements of the extended query protocol sent in one round trip, ended by one Sync: the server
 * runs them one after the other, exactly as it would if each came on its own, and answers them all at once.
 * A round trip cost more than most of the lab's statements themselves (each one a write on the socket, a
 * wakeup of the backend and a reply to parse on both sides), and a worker's step made two or three of them:
 * the virtual clock, the statement, the committed table.
 *
 * What changes on the server: statements up to a Sync share a transaction when none is open (PostgreSQL's
 * implicit transaction of the extended protocol), so an error in one undoes the ones before it and skips the
 * ones after (the caller treats a settings change sent with it as undone). Each statement still takes its
 * own snapshot at READ COMMITTED and sees what the ones before it wrote.
 *
 * node-postgres has no public pipelining; this is one of its Query objects (a submittable, the interface
 * pg-cursor uses) whose messages are several statements' instead of one's.
 */
import { createRequire } from 'node:module';
import pg from 'pg';

export interface PipelinePiece {
  text: string;
  values?: readonly unknown[];
  /** A named statement is used by its name only if this connection has it prepared already; otherwise it is sent unnamed. */
  name?: string;
}

/** The parts of node-postgres's connection a Query writes to (pg/lib/connection.js). */
interface ProtocolConnection {
  parsedStatements: Record<string, string>;
  parse(config: { text: string; name: string }): void;
  bind(config: { statement: string; values: readonly unknown[]; valueMapper: (value: unknown) => unknown }): void;
  describe(config: { type: 'P'; name: string }): void;
  execute(config: { portal: string }): void;
  sync(): void;
}

/** node-postgres's own mapping of a parameter to its text form, the one every query of it uses. */
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as { prepareValue: (value: unknown) => unknown };

/** Whether this connection has the named statement prepared (node-postgres records it on its first use). */
export function isPrepared(client: pg.Client, name: string, text: string): boolean {
  const connection = (client as unknown as { connection: ProtocolConnection }).connection;
  return connection.parsedStatements[name] === text;
}

/** The pieces' results, one each, in order; rejects with the first error (the pieces after it did not run). */
export function pipeline(client: pg.Client, pieces: readonly PipelinePiece[]): Promise<pg.QueryResult[]> {
  return new Promise((resolve, reject) => {
    const answered = (error: Error | null, results: pg.QueryResult | pg.QueryResult[]) => {
      if (error) reject(error);
      else resolve(Array.isArray(results) ? results : [results]);
    };
    const query = new pg.Query({ text: pieces.map((piece) => piece.text).join('\n') }, undefined, answered as never);
    // Query.submit corks the socket around prepare, so the pieces leave in one write.
    Object.assign(query, {
      requiresPreparation: () => true,
      prepare(connection: ProtocolConnection) {
        for (const piece of pieces) {
          const name = piece.name !== undefined && connection.parsedStatements[piece.name] === piece.text ? piece.name : '';
          if (name === '') connection.parse({ text: piece.text, name: '' });
          connection.bind({ statement: name, values: piece.values ?? [], valueMapper: prepareValue });
          connection.describe({ type: 'P', name: '' });
          connection.execute({ portal: '' });
        }
        connection.sync();
      },
    });
    client.query(query as unknown as pg.QueryConfig);
  });
}
