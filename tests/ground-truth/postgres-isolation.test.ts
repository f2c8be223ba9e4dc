/**
 * PostgreSQL's own row-locking isolation specs (tests/fixtures/postgres-isolation/), run by
 * `npm run sim -- spec FILE --db URL` on the test server (PostgreSQL 15): the output must equal PostgreSQL's
 * expected/NAME.out byte for byte (or one of its NAME_N.out alternatives). The lab's examples in docs/examples/
 * give their exit codes (the race breaks its check, the lock wait keeps both), and every run leaves the server
 * with the databases it had: the throwaway database is dropped.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { projectRoot, simInProcess } from '../support/cli';

const fixtures = join(projectRoot, 'tests/fixtures/postgres-isolation');
const specs = readdirSync(join(fixtures, 'specs'))
  .filter((name) => name.endsWith('.spec'))
  .map((name) => name.replace(/\.spec$/, ''));

/** expected/NAME.out and its alternatives NAME_1.out, NAME_2.out, … */
function expectedOutputs(name: string): string[] {
  const outputs: string[] = [];
  for (const suffix of ['', '_1', '_2', '_3']) {
    const path = join(fixtures, 'expected', `${name}${suffix}.out`);
    if (existsSync(path)) outputs.push(readFileSync(path, 'utf8'));
  }
  return outputs;
}

let url: string;
let client: pg.Client;
let databasesBefore: string[];

async function databases(): Promise<string[]> {
  const result = await client.query<{ datname: string }>('SELECT datname FROM pg_database ORDER BY datname');
  return result.rows.map((row) => row.datname);
}

beforeAll(async () => {
  url = inject('postgresUrl');
  client = new pg.Client({ connectionString: url });
  await client.connect();
  databasesBefore = await databases();
});

afterAll(async () => {
  await client.end();
});

describe('PostgreSQL isolation specs on PostgreSQL 15, as the isolation tester prints them', () => {
  it.each(specs)('%s: the output is its expected file', async (name) => {
    const answer = await simInProcess(['spec', join(fixtures, 'specs', `${name}.spec`), '--db', url]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    const outputs = expectedOutputs(name);
    expect(outputs.length).toBeGreaterThan(0);
    // Any alternative may match; when none does, the diff shown is against the first.
    if (!outputs.includes(answer.stdout)) expect(answer.stdout).toBe(outputs[0]);
    expect(await databases()).toEqual(databasesBefore);
  });
});

describe("the lab's examples as specs", () => {
  it('race: the naive claim runs run 123 twice; the shortest permutation that shows it is printed, exit 1', async () => {
    const answer = await simInProcess(['spec', join(projectRoot, 'docs/examples/race.spec'), '--db', url]);
    expect(answer.code).toBe(1);
    expect(answer.stdout).toContain('broken in 4 of 6; the shortest: --permutation "a_poll b_poll a_claim b_claim"');
    expect(answer.stdout).toContain('check "no run executed twice" broken:\nrun_id|executions\n------+----------\n   123|         2\n(1 row)\n');
    expect(answer.stdout.trimEnd().endsWith('BROKEN: no run executed twice (exit 1)')).toBe(true);
    expect(await databases()).toEqual(databasesBefore);
  });

  it('lock-wait: B waits for A, then takes run 124; both checks hold, exit 0', async () => {
    const answer = await simInProcess(['spec', join(projectRoot, 'docs/examples/lock-wait.spec'), '--db', url, '--json']);
    expect(answer.code).toBe(0);
    const report = JSON.parse(answer.stdout) as { permutations: { steps: string[]; output: string; invalid: string | null }[]; exitCode: number };
    expect(report.exitCode).toBe(0);
    expect(report.permutations).toHaveLength(20);
    expect(report.permutations.filter((p) => p.invalid === null)).toHaveLength(6);
    const waited = report.permutations.find((p) => p.steps.join(' ') === 'a_claim a_work b_claim a_commit b_work b_commit')!;
    expect(waited.output).toContain(
      '<waiting ...>\nstep a_commit: COMMIT;\nstep b_claim: <... completed>\nrun_id|lease_generation\n------+----------------\n   124|               1\n',
    );
    expect(await databases()).toEqual(databasesBefore);
  });
});
