/**
 * The real-PostgreSQL adapter itself: a waiting statement really waits on the server, a crash really ends
 * a backend, a reset really ends everything, and a server that does not answer is one clear line.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresLab } from '../../src/db/postgres-lab';
import { runSchedule } from '../../src/engine/run';
import { Simulation } from '../../src/engine/simulation';
import { findScenario } from '../../src/scenarios';
import { catalogSnapshot } from '../support/catalog-snapshot';
import { simInProcess } from '../support/cli';
import { testDatabaseUrl } from './differential';

const projectRoot = join(__dirname, '../..');
const lockWait = findScenario('lock-wait')!;
const forUpdate = { strategy: 'for-update' as const, fencing: true };

function sim(...args: string[]) {
  const result = spawnSync(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', 'src/cli/main.ts', ...args], {
    cwd: projectRoot,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

let url: string;
let lab: PostgresLab;
let inspector: pg.Client;

beforeAll(async () => {
  url = await testDatabaseUrl('adapter');
  lab = await PostgresLab.connect(url, ['A', 'B']);
  inspector = new pg.Client({ connectionString: url });
  await inspector.connect();
});

afterAll(async () => {
  await lab?.close();
  await inspector?.end();
});

/** What the server says about one of the lab's sessions. */
async function backend(session: string) {
  const result = await inspector.query<{ pid: number; state: string; wait_event_type: string | null; blocked_by: string[] }>(
    `SELECT a.pid, a.state, a.wait_event_type,
            ARRAY(SELECT b.application_name FROM pg_stat_activity b WHERE b.pid = ANY (pg_blocking_pids(a.pid))) AS blocked_by
     FROM pg_stat_activity a
     WHERE a.application_name = $1 AND a.datname = current_database()`,
    [`lease_lab_${session}`],
  );
  return result.rows;
}

describe('PostgresLab on a real server', () => {
  it('a blocked FOR UPDATE claim is a real lock wait in pg_stat_activity, and resumes when the holder commits', async () => {
    const simulation = new Simulation(lab, lockWait, forUpdate);
    await simulation.reset();
    await simulation.apply('A');
    const [blocked] = await simulation.apply('B');
    expect(blocked?.outcome).toEqual({ status: 'blocked', holders: ['A'] });

    const [b] = await backend('B');
    expect(b).toMatchObject({ state: 'active', wait_event_type: 'Lock', blocked_by: ['lease_lab_A'] });
    const waiting = await inspector.query<{ granted: boolean }>('SELECT granted FROM pg_locks WHERE pid = $1 AND NOT granted', [b!.pid]);
    expect(waiting.rows.length).toBe(1);

    const steps = await simulation.apply('A');
    expect(steps.map((s) => [s.actor, s.action, s.resumed, s.outcome?.status])).toEqual([
      ['A', 'commit', false, 'ok'],
      ['B', 'claim', true, 'ok'],
    ]);
    expect(steps[1]?.outcome).toMatchObject({ rows: [{ run_id: 124, lease_generation: 1 }] });
    const [after] = await backend('B');
    expect(after).toMatchObject({ state: 'idle in transaction', wait_event_type: 'Client' });
  });

  it("a crash ends the worker's backend: its claim rolls back and the waiter gets the run", async () => {
    const before = (await backend('A'))[0]!.pid;
    const trace = await runSchedule(lab, lockWait, forUpdate, ['A', 'B', 'crash:A']);
    const resumed = trace.steps.find((s) => s.resumed);
    expect(resumed).toMatchObject({ actor: 'B', outcome: { status: 'ok', rows: [{ run_id: 123, lease_generation: 18 }] } });
    expect(await backend('A')).toEqual([]);
    expect(trace.steps.at(-1)?.locks).toEqual([{ session: 'B', runIds: [123] }]);

    // The next run reconnects the dead worker.
    await runSchedule(lab, lockWait, forUpdate, ['A']);
    const [again] = await backend('A');
    expect(again?.pid).toBeDefined();
    expect(again?.pid).not.toBe(before);
  });

  it('reset ends open transactions and waiting statements and reloads the seed', async () => {
    await runSchedule(lab, lockWait, forUpdate, ['A', 'B']);
    await lab.reset(JSON.stringify([]), ['A', 'B', 'OP']);
    const states = await inspector.query<{ state: string }>(
      "SELECT state FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'lease\\_lab\\_%' AND pid <> pg_backend_pid()",
    );
    expect(states.rows.map((r) => r.state).every((state) => state === 'idle')).toBe(true);
    expect(await lab.runs()).toEqual([]);
    expect(await lab.locks()).toEqual([]);
  });

  it('the CLI plays a scenario on the server with --db', async () => {
    const own = await testDatabaseUrl('adapter_cli');
    const { code, stdout, stderr } = sim('run', 'lock-wait', '--strategy', 'for-update', '--db', own, '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const trace = JSON.parse(stdout) as { database: string; steps: { outcome: { status: string } | null }[] };
    expect(trace.database).toBe('postgres');
    expect(trace.steps.some((s) => s.outcome?.status === 'blocked')).toBe(true);
  });

  it('the CLI with --db works in its own schema only: a table of the user named runs keeps its rows, and nothing is left behind', async () => {
    const own = await testDatabaseUrl('adapter_cli_own_runs');
    const client = new pg.Client({ connectionString: own });
    await client.connect();
    try {
      await client.query('CREATE TABLE public.runs (id int PRIMARY KEY, note text); INSERT INTO public.runs SELECT g, $$mine$$ FROM generate_series(1, 5) g');
      const before = await catalogSnapshot(client);
      const { code, stderr } = sim('run', 'race', '--db', own, '--json');
      expect(stderr).toBe('');
      expect(code).toBe(0);
      expect(await catalogSnapshot(client)).toEqual(before);
      const schemas = await client.query(`SELECT nspname FROM pg_namespace WHERE nspname IN ('sim', 'lease_lab')`);
      expect(schemas.rows).toEqual([]);
    } finally {
      await client.end();
    }
  });
});

// The command line's answer, in this process (simInProcess); the --db runs above start it as a user does.
describe('a server that does not answer', () => {
  it('is one clear line and exit code 2', async () => {
    const { code, stdout, stderr } = await simInProcess(['run', 'race', '--db', 'postgres://127.0.0.1:1/x']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('lease-lab: cannot reach PostgreSQL at postgres://127.0.0.1:1/x: connection refused\n');
  });

  it('never prints the password', async () => {
    const { code, stderr } = await simInProcess(['run', 'race', '--db', 'postgres://learner:s3cret-pw@127.0.0.1:1/x']);
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('postgres://learner:***@127.0.0.1:1/x');
    expect(stderr).not.toContain('s3cret-pw');
  });

  it('PostgresLab.connect rejects with a user-facing error', async () => {
    await expect(PostgresLab.connect('postgres://127.0.0.1:1/x', ['A'])).rejects.toMatchObject({
      userFacing: true,
      message: 'cannot reach PostgreSQL at postgres://127.0.0.1:1/x: connection refused',
    });
  });
});
