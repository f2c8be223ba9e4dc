/**
 * `npm run sim -- check --claim FILE` with a claim in two statements, psql's way (SELECT … \gset, then the
 * UPDATE using :name): exit 1 with a witness for the plain SELECT's double claim, 0 for FOR UPDATE, and 2 with
 * one line for a file the lab cannot play. tests/ground-truth/two-statement-claim.test.ts compares every race
 * schedule of these claims with PostgreSQL.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeView } from '../../src/store/permalink';
import { projectRoot, simInProcess } from '../support/cli';

const fixture = (name: string) => join(projectRoot, 'tests/fixtures/claims', name);
const sim = (...args: string[]) => simInProcess(args);

const dir = mkdtempSync(join(tmpdir(), 'lease-lab-two-statements-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const SKIP_LOCKED = readFileSync(fixture('two-statement-skip-locked.sql'), 'utf8');

describe('check --claim with SELECT … \\gset and an UPDATE', () => {
  it("an UPDATE that would wait for another worker's row while holding its SELECT's lock is refused on PGlite in one line naming --db, exit 2", async () => {
    const waits = file('waits.sql', SKIP_LOCKED.replace('WHERE run_id = :run_id', 'WHERE run_id = :run_id OR run_id = 123'));
    const { code, stdout, stderr } = await sim('run', 'race', '--claim', waits, '--schedule', 'A,A,B,B');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/refused on PGlite: its UPDATE would wait for a row another worker holds .*--db URL/);
  });

  it('a plain SELECT, no lock: both workers read run 123 before either updates it, a double claim, exit 1 with the schedule and the page link to it', async () => {
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', fixture('two-statement-plain.sql'));
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout).toContain('claim: SELECT \\gset, then the UPDATE with :run_id bound as $3, one transaction, a step each: the SELECT locks nothing');
    expect(stdout).toMatch(/438 of 648 {2}double claim of run 123 \+ duplicate execution of run 123 \+ split ownership of run 123 {3}<- unsafe/);
    expect(stdout).toContain('shortest: --schedule A,A,B,A,A,B,A,B,A,B');
    // The link carries the claim as written, \\gset and :run_id: the page's Your SQL plays it at the witness.
    const link = /link: (#scenario=race&strategy=your-sql&fencing=off&schedule=A,A,B,A,A,B,A,B,A,B&claim=\S+)/.exec(stdout)?.[1];
    expect(decodeView(link ?? '')?.yourSql?.claim).toBe(readFileSync(fixture('two-statement-plain.sql'), 'utf8'));
    expect(stdout).toContain('(the links carry your statements: the page opens them under "Your SQL")');
    expect(stdout).toMatch(/^UNSAFE: 480 of 648 schedules/m);
  });

  it("SELECT … FOR UPDATE: B waits for A's row, then takes the other run; every race schedule is safe, exit 0", async () => {
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', fixture('two-statement-for-update.sql'));
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/328 of 328 {2}no anomaly/);
  });

  it.for([
    ['a :name no \\gset set', SKIP_LOCKED.replace('= :run_id', '= :id'), /refused \(gset-variable\): .*:id is not set by the \\gset, which sets :run_id/],
    ['three statements', `${SKIP_LOCKED}\nSELECT 1;`, /refused \(several-statements\): .*3 statements/],
    [
      '\\gset after a non-SELECT',
      `UPDATE runs SET status = status WHERE run_id = 0 \\gset\n${SKIP_LOCKED.split('\\gset')[1]}`,
      /refused \(gset-not-a-select\)/,
    ],
    [
      "a SELECT that returns two rows (no LIMIT 1): psql's \\gset takes one",
      SKIP_LOCKED.replace('LIMIT 1\n', ''),
      /refused: its SELECT … \\gset returned 2 rows, and psql's \\gset takes one/,
    ],
  ] as const)('%s: one line, exit 2', async ([, text, said]) => {
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', file('claim.sql', text));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(said);
    expect(stdout).toBe('');
  });
});

describe('check --param with a two-statement claim: one parameter list for both statements, :run_id after the UPDATE’s own', () => {
  const OWN = fixture('two-statement-own-param.sql');
  const PARAMS = ['--param', '1=worker', '--param', '2=lease', '--param', "3='running'"];

  it("an UPDATE with a $3 of its own: :run_id goes in as $4 (not over the $3), the plain SELECT's double claim as without --param", async () => {
    const { code, stdout, stderr } = await sim('run', 'race', '--claim', OWN, ...PARAMS, '--schedule', 'A,A,B,A,A,B,A,B,A,B', '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const { steps, anomalies } = JSON.parse(stdout) as { steps: { actor: string; sqlId: string; params: unknown[] }[]; anomalies: { kind: string }[] };
    expect(steps.slice(0, 2).map(({ actor, sqlId, params }) => ({ actor, sqlId, params }))).toEqual([
      { actor: 'A', sqlId: 'your-claim-select', params: [] },
      { actor: 'A', sqlId: 'your-claim', params: ['A', 60, 'running', 123] },
    ]);
    const plain = await sim('run', 'race', '--claim', fixture('two-statement-plain.sql'), '--schedule', 'A,A,B,A,A,B,A,B,A,B', '--json');
    expect(anomalies).toEqual((JSON.parse(plain.stdout) as { anomalies: unknown[] }).anomalies);
    expect(anomalies.map((anomaly) => anomaly.kind)).toContain('double-claim');
  });

  it.for([
    [
      // Each statement is prepared on its own: PostgreSQL cannot tell the type of a $n the SELECT skips.
      'a SELECT whose LIMIT $4 skips $1, $2 and $3',
      (text: string) => text.replace('LIMIT 1 \\gset', 'LIMIT $4 \\gset'),
      [...PARAMS, '--param', '4=1'],
      /refused \(parameter-gap\): .*could not determine data type .*\(\$1 1=worker is not used\)$/m,
    ],
    ['a value for a $n neither statement uses', (text: string) => text, [...PARAMS, '--param', '4=1'], /--param 4=1: .* does not use \$4/],
    ['a $n given no value', (text: string) => text, PARAMS.slice(0, 4), /uses \$3, which is given no value \(--param 3=…\)/],
  ] as const)('%s: one line, exit 2', async ([, edit, params, said]) => {
    const claim = file('own.sql', edit(readFileSync(OWN, 'utf8')));
    const { code, stdout, stderr } = await sim('run', 'race', '--claim', claim, ...params, '--schedule', 'A,A');
    expect({ code, lines: stderr.trim().split('\n').length, stdout }).toEqual({ code: 2, lines: 1, stdout: '' });
    expect(stderr).toMatch(said);
  });
});
