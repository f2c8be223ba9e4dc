/**
 * `npm run sim -- check`: one exit code per answer. 0: no schedule ends in a double claim, duplicate execution,
 * split ownership or stranded run; 1: some does; 2: bad input, as one line. The claims are the lab's file and corpus variants whose
 * behaviour on PostgreSQL tests/ground-truth/claim-corpus.test.ts checks.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, simInProcess, simProcess } from '../support/cli';

const corpus = (name: string) => join(projectRoot, 'tests/ground-truth/claim-corpus', name);
const SKIP_LOCKED = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');

// Most calls run the command line in this process (the same runCli, from argv to exit code); three start
// Node as a user does, one for each exit code, where the process and its streams are what is tested.
const sim = (...args: string[]) => simInProcess(args);

/** The paused-worker check of the reclaim that keeps the generation: two tests read it, it is explored once. */
let reclaimCheck: ReturnType<typeof simInProcess> | undefined;
const reclaimWithoutBump = () => {
  reclaimCheck ??= sim('check', 'paused-worker', '--claim', corpus('12-reclaim-without-generation-bump.sql'), '--fencing', 'on', '--json');
  return reclaimCheck;
};

/**
 * A claim whose finder locks nothing and whose UPDATE matches 123 for A but every pending run for the
 * others: B, run while A holds 123, would wait on it having matched 124 too.
 */
const TWO_TARGETS = `UPDATE runs
SET status = 'running', lease_owner = $1, lease_expires_at = now() + make_interval(secs => $2), lease_generation = lease_generation + 1, heartbeat_at = now()
WHERE status = 'pending' AND (run_id = 123 OR $1 <> 'A')
RETURNING run_id, lease_generation, lease_expires_at, cancel_requested`;

const dir = mkdtempSync(join(tmpdir(), 'lease-lab-check-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

interface Report {
  total: number;
  exitCode: number;
  unsafeSchedules: number;
  groups: { key: string; count: number; witness: string[]; unsafe: boolean; link: string }[];
}

describe('npm run sim -- check', () => {
  it("the lab's own atomic claim as --claim: every race schedule is safe, exit 0", async () => {
    const { code, stdout, stderr } = simProcess(['check', 'race', '--claim', SKIP_LOCKED]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toMatch(/^race: all \d+ schedules with your claim /);
    expect(stdout).toMatch(/claim: FOR UPDATE SKIP LOCKED in the CTE candidate/);
    expect(stdout).toMatch(/no anomaly/);
    expect(stdout).toMatch(/exit 0\)$/m);
  });

  // The paused-worker checks explore hundreds of schedules: minutes on a busy machine.
  it(
    'a reclaim that does not bump the generation lets the paused worker write on: split ownership, exit 1, with a witness and its link',
    { timeout: 480_000 },
    async () => {
      const { code, stdout } = await reclaimWithoutBump();
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as Report;
      expect(report.exitCode).toBe(1);
      const unsafe = report.groups.filter((group) => group.unsafe);
      expect(unsafe.every((group) => group.key.includes('split-ownership:123'))).toBe(true);
      expect(report.unsafeSchedules).toBe(unsafe.reduce((sum, group) => sum + group.count, 0));
      expect(report.groups.reduce((sum, group) => sum + group.count, 0)).toBe(report.total);
      // The fence never stops the paused worker: its generation is still the run's.
      expect(report.groups.some((group) => group.key.includes('stale-write-rejected'))).toBe(false);
      const witness = unsafe[0]!;
      expect(witness.witness.length).toBeGreaterThan(0);
      expect(witness.link).toContain(`schedule=${witness.witness.join(',')}`);
      expect(witness.link).toContain('claim=');
    },
  );

  it("the README's example, a claim that ignores the lease, takes a live worker's run in the race: exit 1", async () => {
    const { code, stdout } = simProcess(['check', 'race', '--claim', join(projectRoot, 'docs/examples/claim-ignores-the-lease.sql')]);
    expect(code).toBe(1);
    expect(stdout).toMatch(/double claim of run 123 \+ duplicate execution of run 123 \+ split ownership of run 123 {3}<- unsafe/);
    expect(stdout).toMatch(/^UNSAFE: \d+ of \d+ schedules end in double claim, duplicate execution, split ownership or stranded run \(exit 1\)$/m);
  });

  // 1,450 schedules: far longer than the others on a busy machine.
  it(
    "a double claim alone is unsafe: the lease-ignoring claim takes the paused worker's live run, and the fence rejects its later write",
    { timeout: 480_000 },
    async () => {
      const { code, stdout } = await sim(
        'check',
        'paused-worker',
        '--claim',
        join(projectRoot, 'docs/examples/claim-ignores-the-lease.sql'),
        '--fencing',
        'on',
        '--json',
      );
      expect(code).toBe(1);
      const report = JSON.parse(stdout) as Report;
      const double = report.groups.find((group) => group.key === 'double-claim:123 stale-write-rejected:123')!;
      expect(double.unsafe).toBe(true);
      // The same fence without the double claim is safe: the old owner's write was stopped.
      expect(report.groups.find((group) => group.key === 'stale-write-rejected:123')?.unsafe).toBe(false);
      const replayed = await sim(
        'run',
        'paused-worker',
        '--claim',
        join(projectRoot, 'docs/examples/claim-ignores-the-lease.sql'),
        '--fencing',
        'on',
        '--schedule',
        double.witness.join(','),
        '--json',
      );
      expect(replayed.code).toBe(0);
      const trace = JSON.parse(replayed.stdout) as {
        anomalies: { kind: string; raisedAt: number; message: string }[];
        steps: { actor: string; anomalies: unknown[] }[];
      };
      const claim = trace.anomalies.find((anomaly) => anomaly.kind === 'double-claim')!;
      expect(claim.message).toMatch(/^Workers A and B both believe they own run 123: B claimed it while A's lease on it still had \d+ s to run\.$/);
      expect(trace.steps[claim.raisedAt]!.actor).toBe('B');
      expect(trace.steps[claim.raisedAt - 1]!.anomalies).toEqual([]);
    },
  );

  it("--complete: a completion by run id only lets the paused worker overwrite the new owner's run: split ownership, exit 1", async () => {
    const { code, stdout } = await sim(
      'check',
      'paused-worker',
      '--claim',
      SKIP_LOCKED,
      '--complete',
      corpus('32-complete-by-id-only.sql'),
      '--fencing',
      'on',
      '--json',
    );
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report;
    const split = report.groups.find((group) => group.key === 'split-ownership:123')!;
    expect(split.unsafe).toBe(true);
    const replayed = await sim(
      'run',
      'paused-worker',
      '--claim',
      SKIP_LOCKED,
      '--complete',
      corpus('32-complete-by-id-only.sql'),
      '--fencing',
      'on',
      '--schedule',
      split.witness.join(','),
      '--json',
    );
    expect(replayed.code).toBe(0);
    const trace = JSON.parse(replayed.stdout) as { anomalies: { kind: string }[]; steps: { sqlId: string }[] };
    expect(trace.anomalies.map((anomaly) => anomaly.kind)).toEqual(['split-ownership']);
    expect(trace.steps.map((step) => step.sqlId)).toContain('your-complete');
  });

  describe('--complete with a DELETE (pgmq, Hangfire.PostgreSql, delayed_job, gue): judged by the rows it deleted', () => {
    const DELETE_COMPLETION = join(projectRoot, 'docs/examples/complete-by-delete.sql');

    it('after a claim with FOR UPDATE SKIP LOCKED every race schedule is safe: exit 0', async () => {
      const { code, stdout } = await sim('check', 'race', '--claim', SKIP_LOCKED, '--complete', DELETE_COMPLETION, '--json');
      expect(code).toBe(0);
      expect((JSON.parse(stdout) as Report).groups.map((group) => group.key)).toEqual(['none']);
    });

    it("after a claim whose sub-select finds the run without a lock (select, then update) B claims and works on A's run too: exit 1 with the schedule, B's write missing the deleted run", async () => {
      const naive = corpus('14-update-eq-subselect-no-recheck.sql');
      const { code, stdout } = await sim('check', 'race', '--claim', naive, '--complete', DELETE_COMPLETION);
      expect(code).toBe(1);
      expect(stdout).toMatch(
        /double claim of run 123 \+ duplicate execution of run 123 \+ split ownership of run 123 {3}<- unsafe\n\s+shortest: --schedule A,B,A,A,B,A,A,B\n/,
      );
      const replayed = await sim('run', 'race', '--claim', naive, '--complete', DELETE_COMPLETION, '--schedule', 'A,B,A,A,B,A,A,B');
      expect(replayed.stdout).toMatch(/A +complete +ok +A completed run 123 by deleting it: the run is no longer in runs\./);
      expect(replayed.stdout).toMatch(/B +work +rejected +B's progress write matched 0 rows: run 123 is gone \(a completion deleted it\); B stops\./);
      expect(replayed.stdout).toMatch(/duplicate-execution \(steps 5, 8, 10\): Run 123 was executed by both A and B/);
    });

    it('a DELETE that returns a column of the deleted row is refused in one line, exit 2; a DELETE claim says only a completion may delete', async () => {
      const returning = await sim(
        'check',
        'race',
        '--claim',
        SKIP_LOCKED,
        '--complete',
        file('delete-returning.sql', 'DELETE FROM runs WHERE run_id = $1 RETURNING status'),
      );
      expect(returning.code).toBe(2);
      expect(returning.stderr.trim().split('\n')).toEqual([
        expect.stringContaining('refused (delete-returning): a DELETE completion returns nothing, or run_id alone'),
      ]);
      const claim = await sim('check', 'race', '--claim', file('delete-claim.sql', 'DELETE FROM runs WHERE run_id = $1 AND $2::integer IS NOT NULL'));
      expect(claim.code).toBe(2);
      expect(claim.stderr).toContain('(it is a DELETE, and only a completion may delete its run)');
    });
  });

  it("a CTE without FOR UPDATE: after its wait B re-checks A's row against what its CTE found before and claims run 123 too (a double claim), exit 1", async () => {
    const { code, stdout } = await sim('check', 'race', '--claim', corpus('04-cte-without-lock.sql'), '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report & { claim: { summary: string } };
    expect(report.claim.summary).toMatch(/re-checks the row it waited for against what its finder found before waiting/);
    expect(report.groups.find((group) => group.key === 'double-claim:123 duplicate-execution:123 split-ownership:123')?.unsafe).toBe(true);
    // The schedule of the corpus's scene: A claims, B waits, A commits, B resumes.
    const replayed = await sim('run', 'race', '--claim', corpus('04-cte-without-lock.sql'), '--schedule', 'A,B,A', '--finish', 'none', '--json');
    expect(replayed.code).toBe(0);
    const trace = JSON.parse(replayed.stdout) as {
      steps: { actor: string; action: string; verdict: string; resumed: boolean; outcome: { rows?: { run_id: number; lease_generation: number }[] } }[];
    };
    expect(trace.steps.map((step) => `${step.actor} ${step.action} ${step.verdict}`)).toEqual(['A claim ok', 'B claim blocked', 'A commit ok', 'B claim ok']);
    const [first, , , resumed] = trace.steps;
    expect(resumed!.resumed).toBe(true);
    // A fresh look would have found 123 running and taken 124; PostgreSQL's waiter takes 123 again.
    expect(resumed!.outcome.rows).toEqual([expect.objectContaining({ run_id: 123, lease_generation: first!.outcome.rows![0]!.lease_generation + 1 })]);
  });

  it("a derived table in FROM without a lock (sqlxmq's claim before its race fix): after its wait B joins A's row with the row found before and claims run 123 too, exit 1", async () => {
    const { code, stdout } = await sim('check', 'race', '--claim', corpus('37-from-derived-table-without-lock.sql'), '--json');
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as Report;
    // PostgreSQL 15 gives 60 of 172 (tests/ground-truth/claim-corpus-cover.ts compares every step).
    expect(report.unsafeSchedules).toBe(60);
    expect(report.groups.find((group) => group.key === 'double-claim:123 duplicate-execution:123 split-ownership:123')?.unsafe).toBe(true);
    const replayed = await sim('run', 'race', '--claim', corpus('37-from-derived-table-without-lock.sql'), '--schedule', 'A,B,A', '--finish', 'none', '--json');
    const trace = JSON.parse(replayed.stdout) as { steps: { actor: string; verdict: string; outcome: { rows?: { run_id: number }[] } }[] };
    expect(trace.steps.map((step) => `${step.actor} ${step.verdict}`)).toEqual(['A ok', 'B blocked', 'A ok', 'B ok']);
    expect(trace.steps[3]!.outcome.rows?.map((row) => row.run_id)).toEqual([123]);
  });

  it('a claim whose RETURNING makes up an expired lease cannot hide its double claim (it exited 0 with fencing on): refused in one line, exit 2', async () => {
    const honest = readFileSync(corpus('14-update-eq-subselect-no-recheck.sql'), 'utf8');
    const text = honest.replace(/RETURNING .*;/, "RETURNING run_id, lease_generation, now() - interval '1 hour' AS lease_expires_at, cancel_requested;");
    expect(text).not.toBe(honest);
    const madeUp = file('made-up-lease.sql', text);
    expect((await sim('check', 'race', '--claim', corpus('14-update-eq-subselect-no-recheck.sql'), '--fencing', 'on')).code).toBe(1);
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', madeUp, '--fencing', 'on');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringContaining('refused (returning-not-the-row)')]);
  });

  it('runs joined a second time in FROM, which PostgreSQL re-reads as before the wait, is refused on PGlite in one line that points to --db, exit 2', async () => {
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', corpus('39-self-join-without-lock.sql'));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/refused \(cannot-resume\): .*it runs with --db URL.*runs joined a second time in FROM/);
  });

  it.for([
    'good-job-advisory.sql',
    'good-job-hybrid-advisory.sql',
    'que-advisory.sql',
  ])('%s (a session advisory try-lock) is refused on PGlite in one line that says why and gives the --db command, exit 2; --json is one JSON object', async (name) => {
    const claim = join(projectRoot, 'tests/fixtures/claims', name);
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', claim);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      expect.stringMatching(
        /refused \(advisory-lock\): .*PGlite is one backend playing every worker.*try-lock answers true where PostgreSQL’s answers false.*npm run sim -- check … --claim FILE --db postgres:\/\/USER@HOST\/DATABASE$/,
      ),
    ]);
    const json = await sim('check', 'race', '--claim', claim, '--json');
    expect(json.code).toBe(2);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: expect.stringContaining('refused (advisory-lock)'), exitCode: 2 });
  });

  it.for([
    ['--claim', 'advisory-lock-waits.sql', /\(pg_advisory_lock\(\): an advisory lock that waits\)$/],
    ['--complete', 'complete-advisory-unlock.sql', /\(pg_advisory_unlock\(\): an advisory unlock\)$/],
  ] as const)('%s %s (an advisory lock that waits, an unlock) is refused on PGlite in one line naming which, why and the --db command, exit 2', async ([
    flag,
    name,
    which,
  ]) => {
    const file = join(projectRoot, 'tests/fixtures/claims', name);
    const args = flag === '--claim' ? ['--claim', file] : ['--claim', SKIP_LOCKED, '--complete', file];
    const { code, stdout, stderr } = await sim('check', 'race', ...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /refused \(advisory-server-only\): .*PGlite is one backend playing every worker.*npm run sim -- check … --db postgres:\/\/USER@HOST\/DATABASE/,
    );
    expect(lines[0]).toMatch(which);
    expect(lines[0]).not.toContain('table-lock');
  });

  it('a heartbeat with a transaction-level try-lock that would wait for a row lock: one line naming the step, why and the --db command, exit 2; --json is one JSON object', async () => {
    // At step 6 B's open claim holds run 123 (A's lease ran out), so A's heartbeat would wait for it; a real
    // server waits holding advisory lock 123 (another session's try-lock answers false), which PGlite's probe released.
    const heartbeat = file(
      'hb-xact.sql',
      readFileSync(join(projectRoot, 'src/sql/heartbeat-fenced.sql'), 'utf8').replace(
        'AND lease_generation = $3',
        'AND lease_generation = $3\n  AND pg_try_advisory_xact_lock($1)',
      ),
    );
    const args = ['run', 'heartbeat', '--claim', SKIP_LOCKED, '--heartbeat', heartbeat, '--schedule', 'A,A,+30,+40,B,A,B', '--finish', 'none'];
    const { code, stdout, stderr } = await sim(...args);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    const line =
      /hb-xact\.sql: refused on PGlite at step 6 \(A\) of --schedule A,A,\+30,\+40,B,A: it would wait here, and it takes a transaction-level advisory lock: .*check it on a real server \(npm run sim -- check … --heartbeat FILE --db URL\)$/;
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(line)]);
    expect(stderr).not.toContain('fails when run');
    const json = await sim(...args, '--json');
    expect(json.code).toBe(2);
    expect(json.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: expect.stringMatching(line), exitCode: 2 });
  });

  it("a claim that takes pending runs only leaves a crashed worker's expired run stranded; the atomic claim takes it back", { timeout: 240_000 }, async () => {
    const schedule = ['--schedule', 'A,A,B,B,crash:A,+30,+31,B', '--finish', 'none', '--json'];
    const kinds = async (claim: string) => {
      const { code, stdout } = await sim('run', 'crash-orphan', '--claim', corpus(claim), ...schedule);
      expect(code).toBe(0);
      return (JSON.parse(stdout) as { anomalies: { kind: string; message: string }[] }).anomalies;
    };
    const pendingOnly = await kinds('11-skip-locked-no-expired-branch.sql');
    expect(pendingOnly.map((anomaly) => anomaly.kind)).toEqual(['stranded-run']);
    expect(pendingOnly[0]!.message).toMatch(
      /run 123 .* nothing will reclaim it: the claim itself, run by a new worker 24 hours .* after the lease expired with no row locked, took nothing/i,
    );
    expect(await kinds('01-atomic-skip-locked.sql')).toEqual([]);
  });

  it('a claim written with lease_expires_at <= now() that takes a lease at its expiry instant is no double claim: the lease had 0 s left', async () => {
    const atomic = readFileSync(corpus('01-atomic-skip-locked.sql'), 'utf8');
    const orEqual = file('claim-or-equal.sql', atomic.replace('lease_expires_at < now()', 'lease_expires_at <= now()'));
    expect(readFileSync(orEqual, 'utf8')).toMatch(/lease_expires_at <= now\(\)/);
    // A's lease runs 60 s: the clock lands on its expiry, and B's claim takes run 123 there.
    const { code, stdout } = await sim('run', 'crash-orphan', '--claim', orEqual, '--schedule', 'A,A,A,+60,B', '--finish', 'none', '--json');
    expect(code).toBe(0);
    const trace = JSON.parse(stdout) as { anomalies: { kind: string }[]; steps: { outcome: { rows?: { run_id: number }[] } }[] };
    expect(trace.steps.at(-1)!.outcome.rows?.map((row) => row.run_id)).toEqual([123]);
    expect(trace.anomalies).toEqual([]);
  });

  // Five runs of the CLI, each starting PGlite: 22 s alone, 82 s in the full suite on a busy 2-core machine.
  it('past --max-states: a seeded sample, labelled with its size and seed; --seed replays it exactly', { timeout: 300_000 }, async () => {
    const claim = corpus('04-cte-without-lock.sql');
    const past = await sim('check', 'race', '--claim', claim, '--max-states', '20', '--sample', '30');
    expect(past.code).toBe(1);
    expect(past.stdout).toMatch(/^race: a sample of 30 schedules, seed 1 \(not every schedule: it has more than 20 distinct states\) with your claim /);
    expect(past.stdout).toMatch(/replay this sample: npm run sim -- check race --claim .* --sample 30 --seed 1$/m);
    const first = await sim('check', 'race', '--claim', claim, '--sample', '30', '--seed', '5', '--json');
    const again = await sim('check', 'race', '--claim', claim, '--sample', '30', '--seed', '5', '--json');
    const [a, b] = [JSON.parse(first.stdout), JSON.parse(again.stdout)] as (Report & { coverage: string; sample: unknown })[];
    expect(a!.coverage).toBe('sample');
    expect(a!.sample).toEqual({ seed: 5, because: null });
    expect(a!.total).toBe(30);
    expect(b!.groups).toEqual(a!.groups);
    // Another seed plays other schedules.
    const other = JSON.parse((await sim('check', 'race', '--claim', claim, '--sample', '30', '--seed', '6', '--json')).stdout) as Report;
    expect(other.groups.map((group) => group.witness)).not.toEqual(a!.groups.map((group) => group.witness));
    // Within the limit, every schedule: no sample.
    const all = JSON.parse((await sim('check', 'race', '--claim', claim, '--json')).stdout) as Report & { coverage: string; sample: unknown };
    expect(all.coverage).toBe('all');
    expect(all.sample).toBeNull();
  });

  it('--complete: a completion without the run id is refused, exit 2', async () => {
    const { code, stdout, stderr } = simProcess(['check', 'paused-worker', '--claim', SKIP_LOCKED, '--complete', corpus('34-complete-by-generation-only.sql')]);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(
      /34-complete-by-generation-only\.sql: refused: the lab replays a waiting completion only when its own WHERE names the run by run_id = \$1/,
    );
  });

  it(
    "the witness replays step by step with run --claim and ends in split ownership; the lab's own claim has the fence reject the stale write",
    { timeout: 480_000 },
    async () => {
      const { stdout } = await reclaimWithoutBump();
      const report = JSON.parse(stdout) as Report;
      const witness = report.groups.find((group) => group.key === 'duplicate-after-expiry:123 split-ownership:123')!.witness;
      const replayed = await sim(
        'run',
        'paused-worker',
        '--claim',
        corpus('12-reclaim-without-generation-bump.sql'),
        '--fencing',
        'on',
        '--schedule',
        witness.join(','),
        '--json',
      );
      expect(replayed.code).toBe(0);
      const own = JSON.parse(replayed.stdout) as { anomalies: { kind: string }[]; steps: { sqlId: string }[] };
      expect(own.anomalies.map((anomaly) => anomaly.kind).sort()).toEqual(['duplicate-execution', 'split-ownership']);
      expect(own.steps.map((step) => step.sqlId)).toContain('your-claim');
      // The same schedule with the lab's own claim (which bumps the generation) has the fence reject the stale write.
      const builtIn = await sim('run', 'paused-worker', '--strategy', 'skip-locked', '--fencing', 'on', '--schedule', witness.join(','), '--json');
      expect(builtIn.code).toBe(0);
      const trace = JSON.parse(builtIn.stdout) as { anomalies: { kind: string }[] };
      expect(trace.anomalies.map((anomaly) => anomaly.kind)).toContain('stale-write-rejected');
    },
  );

  it.each([
    [
      'a syntax error, with its line and column',
      () => file('syntax.sql', readFileSync(SKIP_LOCKED, 'utf8').replace('SKIP LOCKED', 'SKIPP LOCKED')),
      /syntax\.sql:8:14: syntax error: syntax error at or near "SKIPP"/,
    ],
    [
      'a shape the analyzer refuses',
      () => file('jobs.sql', "UPDATE jobs SET status = 'running' WHERE id = 1 RETURNING run_id, lease_generation, lease_expires_at, cancel_requested"),
      /jobs\.sql: refused \(wrong-target\): the UPDATE changes a table other than runs/,
    ],
    [
      'a finder without a lock whose UPDATE would wait with two runs matched',
      () => file('two-targets.sql', TWO_TARGETS),
      /two-targets\.sql: refused at step \d+ \([A-Z]\) of --schedule [^ ]+: its UPDATE would wait with 2 runs matched \(123, 124\); on a real server it locks the matched runs it passes/,
    ],
    ['a waiting FOR SHARE finder', () => corpus('05-for-share.sql'), /refused: a waiting FOR SHARE finder/],
    [
      'a claim that takes two runs at once',
      () => corpus('23-limit-2-skip-locked.sql'),
      /23-limit-2-skip-locked\.sql: refused: one claim took 2 runs \(123, 124\)/,
    ],
    [
      'a waiting finder under LIMIT 2',
      () => file('limit-2.sql', readFileSync(SKIP_LOCKED, 'utf8').replace('LIMIT 1', 'LIMIT 2').replace(' SKIP LOCKED', '')),
      /refused: a waiting finder under LIMIT 2/,
    ],
    ["a statement past the analyzer's length limit", () => file('long.sql', `${readFileSync(SKIP_LOCKED, 'utf8')}\n-- ${'x'.repeat(20_000)}`), /long\.sql: /],
    ['bytes that are not a statement', () => file('binary.sql', '\u0000\u0001\u00ff\u0000garbage'), /binary\.sql: /],
    ['a file far too large', () => file('huge.sql', 'x'.repeat(1_100_000)), /huge\.sql: 1100000 bytes, far more than a claim statement/],
    ['an empty file', () => file('empty.sql', '  \n'), /empty\.sql: /],
    ['a missing file', () => join(dir, 'missing.sql'), /--claim .*missing\.sql: no such file/],
    ['a directory', () => dir, /: not a file/],
  ])('%s: one line, exit 2', async (_what, path, message) => {
    const { code, stdout, stderr } = await sim('check', 'race', '--claim', path());
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it.each([
    [['check', 'race'], /check needs --claim FILE/],
    [['check', 'nope', '--claim', SKIP_LOCKED], /unknown scenario "nope"/],
    [['check', 'race', '--claim', SKIP_LOCKED, '--fencing', 'maybe'], /--fencing takes on or off/],
    [['check', 'race', '--claim', SKIP_LOCKED, '--strategy', 'naive'], /Unknown option '--strategy'/],
    [['check', 'race', '--claim', SKIP_LOCKED, '--method', 'magic'], /--method takes fast or brute-force/],
    [['run', 'race', '--claim', SKIP_LOCKED, '--strategy', 'naive'], /--claim and --strategy cannot go together/],
    [['run', 'race', '--complete', SKIP_LOCKED], /--heartbeat, --work, --complete and --reaper go with --claim FILE/],
    [['check', 'heartbeat', '--claim', SKIP_LOCKED, '--work', SKIP_LOCKED], /claim-skip-locked\.sql: refused \(returning-mismatch\)/],
    [['check', 'heartbeat', '--claim', SKIP_LOCKED, '--heartbeat', corpus('34-complete-by-generation-only.sql')], /refused/],
    [['check', 'race', '--claim', SKIP_LOCKED, '--complete', join(dir, 'missing.sql')], /--complete .*missing\.sql: no such file/],
    [['check', 'race', '--claim', SKIP_LOCKED, '--seed', 'x'], /--seed takes a whole number/],
    [['check', 'race', '--claim', SKIP_LOCKED, '--sample', '0'], /--sample takes a number of schedules from 1 to 10000, not "0"/],
    [['check', 'race', '--claim', SKIP_LOCKED, '--max-states', 'many'], /--max-states takes a number of distinct states/],
    [
      ['check', 'race', '--claim', SKIP_LOCKED, '--method', 'brute-force', '--seed', '3'],
      /--method brute-force plays every schedule: it takes no --max-states, --sample or --seed/,
    ],
    [['check', 'race', '--claim', SKIP_LOCKED, '--db', 'mysql://me@localhost/lab'], /--db takes pglite or a postgres:\/\/ URL/],
    [['check', 'race', '--claim', SKIP_LOCKED, '--db', 'postgres://127.0.0.1:1/nothing'], /cannot reach PostgreSQL at postgres:\/\/127\.0\.0\.1:1\/nothing/],
  ])('bad arguments %j: one line, exit 2', async (args, message) => {
    const { code, stdout, stderr } = await sim(...(args as string[]));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message as RegExp);
  });
});
