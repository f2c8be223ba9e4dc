/**
 * `npm run live -- postgres://user@host/db`: the lab on a real PostgreSQL server. Starts the bridge
 * (src/live/server.ts) on 127.0.0.1, serving the built app (built first if dist/ is missing) and the API
 * the app's engine uses in live mode, and prints the URL to open.
 *
 * It creates one schema, lease_lab, on the server and the role the console logs in as
 * (lease_lab_console_<database oid>), and drops both again when it stops (Ctrl+C), the schema without
 * CASCADE. After a bridge that was killed outright, `npm run live -- --drop postgres://…` removes what it left.
 * Anything that stops it from starting (a bad URL, a server it cannot reach, too old, a role without the
 * rights it needs, a host other than loopback) is one line on stderr and exit code 2.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseLiveArgs, USAGE } from '../src/live/args';
import { type Bridge, connectBackend, dropSchema, startBridge } from '../src/live/server';

async function main(): Promise<number> {
  const command = parseLiveArgs(process.argv.slice(2));
  switch (command.kind) {
    case 'help':
      process.stdout.write(`${USAGE}\n`);
      return 0;
    case 'refused':
      process.stderr.write(`live: ${command.message} (npm run live -- --help shows how to call it)\n`);
      return 2;
    case 'drop': {
      const done = await dropSchema(command.url);
      process.stdout.write(
        done === 'dropped'
          ? "Dropped the schema lease_lab and the console's role.\n"
          : "There is no schema lease_lab there; the console's role is gone too, if the lab had made one.\n",
      );
      return 0;
    }
    case 'serve': {
      // The server first: a URL that does not work should not wait for a build to say so.
      const backend = await connectBackend(command.url);
      let bridge: Bridge;
      try {
        if (!existsSync(join(command.dist, 'index.html'))) buildApp(command.dist);
        bridge = await startBridge(backend, { host: command.host, port: command.port, dist: command.dist });
      } catch (error) {
        await backend.close();
        await dropSchema(command.url).catch(() => undefined);
        const code = (error as { code?: string }).code;
        if (code === 'EADDRINUSE') throw Object.assign(new Error(`port ${command.port} is in use; choose another with --port`), { userFacing: true });
        throw error;
      }
      process.stdout.write(
        `Live: PostgreSQL ${backend.info.version} at ${backend.info.where}, tables in the schema lease_lab.\nOpen ${bridge.url}\n(Ctrl+C stops the bridge and drops the schema.)\n`,
      );
      await new Promise<void>((done) => {
        const stop = () => done();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      });
      await bridge.close();
      // Each refusal names what was left and why (the schema, or the console's role).
      await dropSchema(command.url).catch((error: Error) => process.stderr.write(`live: ${error.message}\n`));
      return 0;
    }
  }
}

function buildApp(dist: string): void {
  process.stdout.write(`Building the app into ${dist}/ first…\n`);
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], { stdio: 'inherit' });
  if (result.status !== 0) throw Object.assign(new Error(`the app could not be built (vite build exited with ${result.status})`), { userFacing: true });
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    if ((error as { userFacing?: boolean }).userFacing) {
      process.stderr.write(`live: ${message}\n`);
      process.exitCode = 2;
    } else {
      process.stderr.write(`live: ${error instanceof Error ? (error.stack ?? message) : message}\n`);
      process.exitCode = 1;
    }
  },
);
