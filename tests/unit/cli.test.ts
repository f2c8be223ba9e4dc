/** The command line as people use it: readable output, JSON for tools, one clear line for bad input. */
import { describe, expect, it } from 'vitest';
import { simInProcess, simProcess } from '../support/cli';

// `list` and the readable table start Node as a user does (hostile-cli.test.ts does for bad input); the
// other calls run the same command line in this process.
const sim = (...args: string[]) => simInProcess(args);

describe('npm run sim', () => {
  it('list --json gives every scenario with its workers and strategies', async () => {
    const { code, stdout } = simProcess(['list', '--json'], 60_000);
    expect(code).toBe(0);
    const list = JSON.parse(stdout) as { id: string; workers: string[]; strategies: string[] }[];
    expect(list.map((s) => s.id)).toContain('race');
    expect(list.find((s) => s.id === 'three-workers')?.workers).toEqual(['A', 'B', 'C']);
    expect(list[0]?.strategies).toEqual([
      'naive',
      'cas',
      'skip-locked',
      'for-update',
      'nowait',
      'graphile-worker',
      'pg-boss',
      'river',
      'oban',
      'solid-queue',
      'procrastinate',
      'pgqueuer',
      'hangfire',
      'delayed-job',
      'dbos',
      'tenant-cap',
    ]);
  });

  it('run race --schedule A,B,A,B --json shows both workers executing run 123', async () => {
    const { code, stdout } = await sim('run', 'race', '--schedule', 'A,B,A,B', '--json');
    expect(code).toBe(0);
    const trace = JSON.parse(stdout);
    expect(trace.schedule.slice(0, 4)).toEqual(['A', 'B', 'A', 'B']);
    expect(trace.finalRuns.map((r: { run_id: number }) => r.run_id)).toEqual([123, 124]);
    expect(trace.anomalies).toContainEqual(expect.objectContaining({ kind: 'duplicate-execution', runId: 123, workers: ['A', 'B'] }));
    expect(trace.steps[0]).toMatchObject({ actor: 'A', sqlId: 'naive-select', outcome: { status: 'ok', rows: [{ run_id: 123 }] } });
  });

  it('run prints a readable step table by default', async () => {
    const { code, stdout } = simProcess(['run', 'paused-worker', '--fencing', 'off'], 60_000);
    expect(code).toBe(0);
    expect(stdout).toMatch(/#\s+clock\s+who\s+action/);
    expect(stdout).toMatch(/split-ownership/);
  });

  it.each([
    [['run', 'nope'], /unknown scenario "nope"; the scenarios are race, /],
    [['run', 'race', '--strategy', 'magic'], /unknown strategy "magic"; the strategies are naive, cas/],
    [['run', 'race', '--schedule', 'A,C'], /step 2 \(C\): this scenario has no worker C; its workers are A, B/],
    [['run', 'race', '--schedule', 'A,<script>'], /"<script>" is not a schedule step/],
    [['run', 'crash-orphan', '--schedule', 'crash:A,A'], /A cannot move: A has crashed/],
    [['run', 'race', '--fencing', 'maybe'], /--fencing takes on or off/],
    [['run', 'race', '--seed=-3'], /--seed takes a whole number/],
    [['run', 'race', '--seed', '-3'], /--seed needs a value; for a value that starts with "-", write --seed=VALUE/],
    [['run', 'race', '--bogus'], /Unknown option '--bogus'/],
    [['run', 'race', '--db', 'mysql://x'], /--db takes pglite or a postgres:\/\/ URL/],
    [['frobnicate'], /unknown command "frobnicate"/],
  ])('bad input %j: one clear line, exit code 2, no stack trace', async (args, message) => {
    const { code, stderr, stdout } = await sim(...(args as string[]));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message as RegExp);
    expect(stderr).not.toMatch(/\n\s+at /);
  });
});
