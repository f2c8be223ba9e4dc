/**
 * Exit code 1 means "unsafe": nothing else may end in it. A claim that fails when run, one nested past the
 * parser's stack, a link nested 8,000 deep: exit 2, one line on stderr, no stack trace, and with --json one
 * JSON object on stdout. (Issue 34 items 5 and 12, issue 33 defects 2 and 3, on PGlite.)
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, simInProcess } from '../support/cli';

const SKIP_LOCKED_TEXT = readFileSync(join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql'), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'lease-lab-failures-'));
function claimFile(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const variant = (name: string, from: string, to: string) => {
  expect(SKIP_LOCKED_TEXT).toContain(from);
  return claimFile(name, SKIP_LOCKED_TEXT.replace(from, to));
};

function expectOneLine(answer: { code: number | null; stdout: string; stderr: string }, message: RegExp): void {
  expect(answer.code).toBe(2);
  expect(answer.stderr.trim().split('\n')).toHaveLength(1);
  expect(answer.stderr).toMatch(message);
  expect(answer.stderr).not.toMatch(/\n\s+at /);
}

describe('a claim that fails when run is bad input, not "unsafe"', () => {
  it.each([
    [
      'a column typo',
      variant('typo.sql', 'lease_owner      = $1', 'lease_ownr = $1'),
      /typo\.sql: the statement fails when run: column "lease_ownr" .*does not exist \(SQLSTATE 42703\)/,
    ],
    [
      'a column assigned twice',
      variant('twice.sql', 'heartbeat_at     = now()', "heartbeat_at = now(), status = 'running'"),
      /multiple assignments to same column "status" \(SQLSTATE 42601\)/,
    ],
    [
      'an operator that does not exist (in pg_catalog: an operator in another schema is refused before it runs)',
      variant('op.sql', 'lease_generation + 1', 'lease_generation OPERATOR(pg_catalog.@@@) 1'),
      /operator does not exist.*\(SQLSTATE 42883\)/,
    ],
    [
      'a claim without $1 and $2',
      variant(
        'noparams.sql',
        'lease_owner      = $1,\n    lease_expires_at = now() + make_interval(secs => $2)',
        "lease_owner = 'x', lease_expires_at = now() + interval '30 s'",
      ),
      /noparams\.sql: refused: the claim does not use \$1 \(worker\) or \$2 \(lease seconds\).*AND \$1::text IS NOT NULL AND \$2::integer IS NOT NULL/,
    ],
    [
      '1,400 nested NOT(',
      variant('deep.sql', "WHERE status = 'pending'", `WHERE ${'NOT('.repeat(1400)}status = 'pending'${')'.repeat(1400)}`),
      /deep\.sql: the statement is nested too deeply for the lab to read/,
    ],
  ])('%s: exit 2, one line; --json gives one JSON object', async (_name, path, message) => {
    const answer = await simInProcess(['check', 'race', '--claim', path]);
    expectOneLine(answer, message);
    expect(answer.stdout).toBe('');
    const json = await simInProcess(['check', 'race', '--claim', path, '--json']);
    expectOneLine(json, message);
    expect(JSON.parse(json.stdout)).toEqual({ error: expect.stringMatching(message), exitCode: 2 });
  });

  it('a completion by run_id = $1 alone is played with the one value it takes (it crashed with "takes 1 parameters, got 3")', async () => {
    const complete = claimFile('complete-by-id.sql', "UPDATE runs SET status = 'done', result = 'ok' WHERE run_id = $1 RETURNING status, result");
    const answer = await simInProcess([
      'run',
      'race',
      '--claim',
      join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql'),
      '--complete',
      complete,
      '--json',
    ]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
    const trace = JSON.parse(answer.stdout) as { steps: { sqlId: string; params: unknown[]; outcome: { status: string } }[] };
    const completions = trace.steps.filter((step) => step.sqlId === 'your-complete');
    expect(completions.length).toBeGreaterThan(0);
    for (const step of completions) {
      expect(step.params).toHaveLength(1);
      expect(step.outcome.status).toBe('ok');
    }
  });
});

describe('issue 33, defect 3: a completion by run_id = $1 alone under check', () => {
  it('check --json plays it and prints one JSON report (it crashed with "takes 1 parameters, got 3", exit 1, and the output was not JSON)', async () => {
    const complete = claimFile('complete-by-id-check.sql', "UPDATE runs SET status = 'done', result = 'ok' WHERE run_id = $1 RETURNING status, result");
    const skipLocked = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');
    const answer = await simInProcess(['check', 'paused-worker', '--claim', skipLocked, '--complete', complete, '--json']);
    expect(answer.stderr).toBe('');
    const report = JSON.parse(answer.stdout) as { total: number; exitCode: number; groups: { count: number }[] };
    expect(report.exitCode).toBe(answer.code);
    // Whether its outcomes count as unsafe is the checker's judgment; here: it played, and no step stopped the run.
    expect(answer.code).not.toBe(2);
    expect(report.total).toBeGreaterThan(0);
    expect(report.groups.reduce((sum, group) => sum + group.count, 0)).toBe(report.total);
  });
});

describe('a claim that never ends', () => {
  it('on PGlite is stopped at --statement-timeout by the watchdog: exit 2, one line naming the file (it ran for ever)', async () => {
    const tenByTen = Array.from({ length: 10 }, (_, i) => `(VALUES (1),(2),(3),(4),(5),(6),(7),(8),(9),(10)) AS v${i}(x)`).join(', ');
    const runaway = variant(
      'runaway.sql',
      'WHERE run_id IN (SELECT run_id FROM candidate)',
      `WHERE run_id IN (SELECT run_id FROM candidate) AND (SELECT count(*) FROM ${tenByTen}) > 0`,
    );
    const answer = await simInProcess(['check', 'race', '--claim', runaway, '--statement-timeout', '2', '--json']);
    expectOneLine(answer, /runaway\.sql: a statement ran longer than 2 s \(--statement-timeout\) and was stopped/);
    expect(JSON.parse(answer.stdout)).toMatchObject({ exitCode: 2 });
  });
});

describe('input the lab cannot read', () => {
  it('a --scenario-link whose JSON is nested 8,000 deep: exit 2, one line, JSON with --json', async () => {
    const json = `{"title":"x","workers":${'['.repeat(8000)}${']'.repeat(8000)}}`;
    const link = `#scenario=authored-x&sc=1.${Buffer.from(json).toString('base64url')}`;
    const answer = await simInProcess(['run', '--scenario-link', link, '--json']);
    expectOneLine(answer, /--scenario-link: it is nested too deeply to be a scenario/);
    expect(JSON.parse(answer.stdout)).toMatchObject({ exitCode: 2 });
  });

  it('a claim file that starts with a UTF-8 byte-order mark reads as its SQL', async () => {
    const path = claimFile('bom.sql', `\uFEFF${SKIP_LOCKED_TEXT}`);
    const answer = await simInProcess(['check', 'race', '--claim', path]);
    expect(answer.stderr).toBe('');
    expect(answer.code).toBe(0);
  });

  it('a --claim path with an escape sequence never reaches the terminal raw', async () => {
    const answer = await simInProcess(['check', 'race', '--claim', join(dir, 'no\u001b[31mred\u0007.sql')]);
    expectOneLine(answer, /--claim .*no\?\[31mred\?\.sql: no such file/);
    expect([...answer.stderr.trimEnd()].filter((char) => char.charCodeAt(0) < 0x20)).toEqual([]);
  });
});
