/**
 * `npm run sim -- check … --db URL` on a real PostgreSQL server: the schedules run there, one connection per
 * worker, in a schema of the CLI's own that is dropped afterwards. The server's answer must be the one
 * PGlite gives (the same groups, counts and witnesses), and nothing of the database's own may change: a
 * table named runs in public, with its row, stays as it was, and no schema is left behind.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createDatabase } from '../support/postgres-server';

const projectRoot = join(__dirname, '../..');
const corpus = (name: string) => join(projectRoot, 'tests/ground-truth/claim-corpus', name);
const SKIP_LOCKED = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');

function sim(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', 'src/cli/main.ts', ...args], { cwd: projectRoot });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

interface Report {
  database: { kind: string; server?: string };
  total: number;
  exitCode: number;
  groups: { key: string; count: number; witness: string[] }[];
}

let url: string;
let client: pg.Client;

async function schemas(): Promise<string[]> {
  const result = await client.query<{ nspname: string }>("SELECT nspname FROM pg_namespace WHERE nspname NOT LIKE 'pg\\_%' ORDER BY nspname");
  return result.rows.map((row) => row.nspname);
}

beforeAll(async () => {
  url = await createDatabase(inject('postgresUrl'), 'check_db');
  client = new pg.Client({ connectionString: url });
  await client.connect();
  // The database's own table of the same name, which the check must never touch.
  await client.query('CREATE TABLE public.runs (run_id integer PRIMARY KEY, note text)');
  await client.query("INSERT INTO public.runs VALUES (1, 'theirs')");
});

afterAll(async () => {
  await client?.end();
});

describe('npm run sim -- check --db URL', () => {
  it.for([
    { name: '04-cte-without-lock.sql', file: corpus('04-cte-without-lock.sql'), exitCode: 1 },
    { name: 'claim-skip-locked.sql', file: SKIP_LOCKED, exitCode: 0 },
  ])('$name in the race: the same answer as PGlite, exit $exitCode, and the database as it was', { timeout: 300_000 }, async ({ file, exitCode }) => {
    const before = await schemas();
    const [onServer, onPglite] = await Promise.all([
      sim('check', 'race', '--claim', file, '--db', url, '--json'),
      sim('check', 'race', '--claim', file, '--json'),
    ]);
    expect(onServer.stderr).toBe('');
    expect(onServer.code).toBe(exitCode);
    const [server, pglite] = [JSON.parse(onServer.stdout), JSON.parse(onPglite.stdout)] as Report[];
    expect(server!.database).toEqual({ kind: 'postgres', server: `${new URL(url).host}/check_db` });
    expect(pglite!.database).toEqual({ kind: 'pglite' });
    expect(server!.total).toBe(pglite!.total);
    expect(server!.groups).toEqual(pglite!.groups);
    expect(await schemas()).toEqual(before);
    expect((await client.query('SELECT run_id, note FROM public.runs')).rows).toEqual([{ run_id: 1, note: 'theirs' }]);
  });

  it(
    'a shape PGlite cannot follow through a wait (FOR KEY SHARE, corpus 07) is refused on PGlite and played on the server: a double claim, exit 1',
    { timeout: 300_000 },
    async () => {
      const file = corpus('07-for-key-share.sql');
      const [onServer, onPglite] = await Promise.all([sim('check', 'race', '--claim', file, '--db', url, '--json'), sim('check', 'race', '--claim', file)]);
      expect(onPglite.code).toBe(2);
      expect(onPglite.stderr).toMatch(/07-for-key-share\.sql: refused \(key-share-finder\)/);
      expect(onServer.stderr).toBe('');
      expect(onServer.code).toBe(1);
      const report = JSON.parse(onServer.stdout) as Report & { claim: { summary: string } };
      expect(report.claim.summary).toMatch(/after a wait it does what the server does/);
      expect(report.groups.map((group) => group.key)).toContain('double-claim:123 duplicate-execution:123 split-ownership:123');
      // Its witness, replayed step by step on the server: B's claim waited, then took run 123 from A.
      const witness = report.groups.find((group) => group.key === 'double-claim:123 duplicate-execution:123 split-ownership:123')!.witness;
      const replayed = await sim('run', 'race', '--claim', file, '--db', url, '--schedule', witness.join(','), '--json');
      expect(replayed.code).toBe(0);
      const trace = JSON.parse(replayed.stdout) as { anomalies: { kind: string }[] };
      expect(trace.anomalies.map((anomaly) => anomaly.kind).sort()).toEqual(['double-claim', 'duplicate-execution', 'split-ownership']);
    },
  );

  it('the text report names the server, one connection per worker', { timeout: 300_000 }, async () => {
    const { code, stdout } = await sim('check', 'race', '--claim', corpus('14-update-eq-subselect-no-recheck.sql'), '--db', url);
    expect(code).toBe(1);
    expect(stdout).toMatch(
      new RegExp(`^race: all \\d+ schedules with your claim .*on the PostgreSQL server ${new URL(url).host}/check_db, one connection per worker\\)$`, 'm'),
    );
    expect(stdout).toMatch(/^UNSAFE: /m);
  });
});
