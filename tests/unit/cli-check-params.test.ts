/**
 * `check --claim FILE --param N=VALUE` (issue 33 item 6): a claim whose own parameters sit where a real queue
 * puts them (pgmq's batch size in `LIMIT $1`) is checked without rewriting it. Bound as the lab's values,
 * it must give exactly the answer of the same claim written for $1 worker, $2 lease; the witness commands
 * carry the flags so they replay the same; a write's values can be bound too; bad bindings are one line,
 * exit 2. The same claim on a real server: tests/ground-truth/check-params.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CheckReport, replayCommands } from '../../src/cli/check';
import { projectRoot, simInProcess } from '../support/cli';

const BATCH_FIRST = join(projectRoot, 'tests/fixtures/claims/batch-size-first.sql');
const AS_THE_LAB_BINDS = join(projectRoot, 'docs/examples/claim-ignores-the-lease.sql');
const SKIP_LOCKED = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');
const RESULT_SECOND = join(projectRoot, 'tests/fixtures/claims/complete-result-second.sql');
const BATCH_PARAMS = ['--param', '1=1', '--param', '2=worker', '--param', '3=lease'];

const sim = (...args: string[]) => simInProcess(args);

const verdict = (report: CheckReport) => ({ exitCode: report.exitCode, groups: report.groups.map(({ key, count, witness }) => ({ key, count, witness })) });

/** The race checked with the batch claim bound: two tests read it, it is explored once. */
let boundCheck: Promise<CheckReport> | undefined;
const checkedWithParams = () => {
  boundCheck ??= sim('check', 'race', '--claim', BATCH_FIRST, ...BATCH_PARAMS, '--json').then(({ stdout, stderr }) => {
    expect(stderr).toBe('');
    return JSON.parse(stdout) as CheckReport;
  });
  return boundCheck;
};

describe('check --param: a claim with its own parameters', () => {
  it('batch size in $1, worker in $2, lease in $3: the same groups and witnesses as the claim written for $1 worker, $2 lease', async () => {
    const withParams = await checkedWithParams();
    const without = JSON.parse((await sim('check', 'race', '--claim', AS_THE_LAB_BINDS, '--json')).stdout) as CheckReport;
    expect(withParams.exitCode).toBe(1);
    expect(verdict(withParams)).toEqual(verdict(without));
    expect(withParams.claim.params).toEqual(['1=1', '2=worker', '3=lease']);
    // Without --param the report is as it always was.
    expect(without.claim).not.toHaveProperty('params');
  });

  it("the replay command carries the flags, and replays the witness's double claim", async () => {
    const report = await checkedWithParams();
    const unsafe = report.groups.find((group) => group.kinds.includes('double-claim'))!;
    const replay = replayCommands(report, unsafe).run.replace(/^npm run sim -- /, '');
    expect(replay).toContain('--param 1=1 --param 2=worker --param 3=lease --fencing off --schedule ');
    const trace = await sim(...replay.split(' '), '--json');
    expect(trace.code).toBe(0);
    const { anomalies, steps } = JSON.parse(trace.stdout) as { anomalies: { kind: string }[]; steps: { action: string; params: unknown[] }[] };
    expect(anomalies.map((a) => a.kind)).toContain('double-claim');
    expect(steps.find((step) => step.action === 'claim')!.params).toEqual(['1', 'A', 60]);
  });

  it("a write's own order: complete:1=run, a constant result in $2, the generation in $3", async () => {
    const params = ['--param', 'complete:1=run', '--param', "complete:2='done by hand'", '--param', 'complete:3=generation'];
    const { code, stdout, stderr } = await sim('run', 'race', '--claim', SKIP_LOCKED, '--complete', RESULT_SECOND, ...params, '--fencing', 'on', '--json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const trace = JSON.parse(stdout) as { steps: { action: string; params: unknown[] }[]; finalRuns: { status: string; result: string | null }[] };
    expect(trace.steps.find((step) => step.action === 'complete')!.params).toEqual([123, 'done by hand', expect.any(Number)]);
    expect(trace.finalRuns.filter((run) => run.status === 'done').map((run) => run.result)).toContain('done by hand');
  });

  it('run takes --param with --claim only: one line, exit 2', async () => {
    const { code, stderr } = await sim('run', 'race', '--strategy', 'skip-locked', '--param', '1=1');
    expect(code).toBe(2);
    expect(stderr).toBe("lease-lab: --param binds your statements' parameters: it goes with --claim FILE\n");
  });

  it.each([
    [
      'an unknown name',
      ['--param', '1=1', '--param', '2=wroker', '--param', '3=lease'],
      /--param 2=wroker: unknown name "wroker"; the claim's names are worker and lease/,
    ],
    ['a position the claim does not use', [...BATCH_PARAMS, '--param', '4=5'], /--param 4=5: .*batch-size-first\.sql does not use \$4$/],
    [
      'a position the claim uses that nothing binds',
      ['--param', '1=1', '--param', '2=worker'],
      /batch-size-first\.sql uses \$3, which is given no value \(--param 3=…\)$/,
    ],
    ['a flag without =', ['--param', '1'], /--param takes \[STATEMENT:\]N=VALUE/],
    ['a write that is not given', [...BATCH_PARAMS, '--param', 'complete:1=run'], /--param complete:…: there is no --complete FILE to bind$/],
    ['a reaper that is not given', [...BATCH_PARAMS, '--param', 'reaper:1=5'], /--param reaper:…: there is no --reaper FILE to bind$/],
    [
      "a write's $1 that is not its run",
      [...BATCH_PARAMS, '--complete', RESULT_SECOND, '--param', 'complete:1=generation', '--param', "complete:2='x'", '--param', 'complete:3=run'],
      /--param complete:1=generation: a completion's \$1 is its run \(--param complete:1=run\)/,
    ],
    // Text where LIMIT needs a number fails at the first claim, the same line on PGlite and on a server:
    // tests/ground-truth/check-params.test.ts.
  ])('%s: one line, exit 2, JSON with --json', async (_, params, line) => {
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', BATCH_FIRST, ...params, '--json');
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr.trim()).toMatch(line);
    expect(JSON.parse(stdout)).toEqual({ error: stderr.trim().replace(/^lease-lab: /, ''), exitCode: 2 });
  });
});
