/**
 * `npm run sim -- check --claim FILE --hold-for-job --complete FILE`: a claim whose transaction stays open for
 * the whole job (gue's way). The plain SELECT is unsafe, exit 1, with a replay that carries --hold-for-job; what
 * does not go with it is one line, exit 2. tests/ground-truth/hold-for-job.test.ts compares every race schedule
 * of these claims with PostgreSQL.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, simInProcess } from '../support/cli';

const fixture = (name: string) => join(projectRoot, 'tests/fixtures/claims', name);
const sim = (...args: string[]) => simInProcess(args);

const dir = mkdtempSync(join(tmpdir(), 'lease-lab-hold-for-job-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const SKIP_LOCKED = fixture('hold-for-job-skip-locked.sql');
const COMPLETE = fixture('hold-for-job-complete.sql');
const TWO_STATEMENTS = readFileSync(fixture('two-statement-skip-locked.sql'), 'utf8');

describe('check --hold-for-job', () => {
  it('a plain SELECT: both workers take run 123 and do the job, exit 1, and the replay carries --hold-for-job', async () => {
    // A small seeded sample keeps this quick: the ground truth counts every race schedule.
    const { code, stdout, stderr } = await sim(
      'check',
      'race',
      '--claim',
      fixture('hold-for-job-plain.sql'),
      '--hold-for-job',
      '--complete',
      COMPLETE,
      '--sample',
      '4',
      '--seed',
      '1',
    );
    expect(stderr).toBe('');
    expect(code).toBe(1);
    expect(stdout).toContain('claim: SELECT \\gset, its transaction held for the whole job: the SELECT locks nothing');
    expect(stdout).toContain('no lease expiry: the row lock is the lease');
    expect(stdout).toMatch(/replay: npm run sim -- run race --claim \S+hold-for-job-plain.sql --hold-for-job --complete \S+ --fencing off --schedule /);
    expect(stdout).toMatch(/^UNSAFE: \d of 4 schedules/m);
    expect(stdout).not.toContain('link:');
    expect(stdout).toContain('(no links: the page does not play a claim held for the whole job yet; the replay commands do)');
  });

  it.for([
    ['no --complete', [SKIP_LOCKED, '--hold-for-job'], /^--hold-for-job needs --complete FILE/],
    [
      'a heartbeat',
      [SKIP_LOCKED, '--hold-for-job', '--complete', COMPLETE, '--heartbeat', COMPLETE],
      /^--hold-for-job takes no --heartbeat or --work: the open transaction is the lease/,
    ],
    [
      'a claim with its UPDATE',
      [file('two.sql', TWO_STATEMENTS), '--hold-for-job', '--complete', COMPLETE],
      /two\.sql: --hold-for-job: a statement after the \\gset/,
    ],
    [
      'a claim without \\gset',
      [file('one.sql', 'SELECT run_id FROM runs LIMIT 1'), '--hold-for-job', '--complete', COMPLETE],
      /one\.sql: --hold-for-job takes a SELECT … \\gset/,
    ],
    [
      'a completion using $2',
      [SKIP_LOCKED, '--hold-for-job', '--complete', file('gen.sql', 'DELETE FROM runs WHERE run_id = :run_id AND lease_generation = $2')],
      /gen\.sql: the completion uses \$2: with --hold-for-job it is given the run's id alone, as :run_id/,
    ],
    [
      'a completion without :run_id',
      [SKIP_LOCKED, '--hold-for-job', '--complete', file('all.sql', "DELETE FROM runs WHERE status = 'pending'")],
      /all\.sql: the completion does not use :run_id/,
    ],
    [
      'a completion with another :name',
      [SKIP_LOCKED, '--hold-for-job', '--complete', file('id.sql', 'DELETE FROM runs WHERE run_id = :id')],
      /id\.sql: :id is not set by the claim's \\gset, which sets :run_id/,
    ],
  ] as const)('%s: one line, exit 2', async ([, args, message]) => {
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', ...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr.replace(/^lease-lab: /, '')).toMatch(message);
  });

  it('a lone SELECT … \\gset without --hold-for-job names the flag', async () => {
    const { code, stderr } = await sim('check', 'race', '--claim', SKIP_LOCKED);
    expect(code).toBe(2);
    expect(stderr).toContain('check --hold-for-job --complete FILE');
  });
});
