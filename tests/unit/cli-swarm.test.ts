/**
 * `npm run sim -- swarm`: a seed's scenario and schedules, the same on every run; a server compared step by
 * step; bad input in one line. The output and the arguments are checked in this process (simInProcess: the
 * same runCli from argv to exit code); the process itself, its exit code and its streams, by the run with --db
 * and one bad argument.
 */
import { describe, expect, inject, it } from 'vitest';
import { simInProcess, simStarted } from '../support/cli';
import { createDatabase } from '../support/postgres-server';

const sim = (...args: string[]) => simInProcess(['swarm', ...args]);
/** The CLI started as a user starts it (the server it talks to is started by vitest's global setup). */
const simProcess = (...args: string[]) => simStarted(['swarm', ...args]).answer;

describe('npm run sim -- swarm', () => {
  it('prints the scenario a seed names and both schedules, byte for byte the same on every run', async () => {
    const first = await sim('--seed', '7');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^seed 7: \d workers.*strategy [a-z-]+, fencing (on|off)\. Faults: /);
    expect(first.stdout).toMatch(/\n {2}script: [A-Z+:0-9,a-z]+\n/);
    expect(first.stdout).toMatch(/\n {2}the script as played: \d+ steps, /);
    expect(first.stdout).toMatch(/\n {2}random walk: \d+ steps, /);
    expect((await sim('--seed', '7')).stdout).toBe(first.stdout);
    expect((await sim('--seed', '8')).stdout).not.toBe(first.stdout);
  });

  it('--json --count 3 gives seeds N…N+2 with their scenario, settings, schedules and anomalies', async () => {
    const { code, stdout } = await sim('--seed', '20', '--count', '3', '--json');
    expect(code).toBe(0);
    const seeds = JSON.parse(stdout) as {
      seed: number;
      scenario: { id: string; defaultStrategy: string };
      settings: { strategy: string };
      schedules: { name: string; schedule: string[]; steps: number; anomalies: unknown[] }[];
    }[];
    expect(seeds.map((s) => s.seed)).toEqual([20, 21, 22]);
    for (const s of seeds) {
      expect(s.scenario.id).toBe(`swarm-${s.seed}`);
      expect(s.settings.strategy).toBe(s.scenario.defaultStrategy);
      expect(s.schedules.map((x) => x.name)).toEqual(['script', 'random walk']);
      expect(s.schedules[0]!.steps).toBeGreaterThan(0);
      expect(s.schedules[0]).not.toHaveProperty('postgres');
    }
  });

  it('--db compares every step with a real PostgreSQL server', async () => {
    const url = await createDatabase(inject('postgresUrl'), 'cli_swarm');
    const { code, stdout, stderr } = await simProcess('--seed', '5', '--count', '2', '--db', url);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout.match(/PostgreSQL: the same at every step/g)).toHaveLength(4);
    expect(stdout).toMatch(/2 seed\(s\): PGlite and PostgreSQL agree at every step\n$/);
  });

  it('--isolation serializable --db plays each seed on the server alone, its claims at that level, and compares nothing', async () => {
    const url = await createDatabase(inject('postgresUrl'), 'cli_swarm_isolation');
    const text = await sim('--seed', '5', '--db', url, '--isolation', 'serializable');
    expect(text.code).toBe(0);
    expect(text.stdout).not.toMatch(/PostgreSQL: the same|DIVERGES/);
    expect(text.stdout).toMatch(/\n1 seed\(s\) played on PostgreSQL at SERIALIZABLE, not compared: PGlite is one session/);
    const [seed] = JSON.parse((await sim('--seed', '5', '--db', url, '--isolation', 'serializable', '--json')).stdout);
    expect(seed.settings.isolation).toBe('serializable');
    expect(seed.schedules[0]).not.toHaveProperty('postgres');
  });

  it.each([
    [[], /swarm needs --seed N/],
    [
      ['--seed', '1', '--isolation', 'serializable'],
      /--isolation serializable needs a real PostgreSQL server: PGlite is one session.*run it with --db postgres:/,
    ],
    [['--seed', '1', '--isolation', 'snapshot'], /--isolation takes read-committed, repeatable-read, serializable, not "snapshot"/],
    [['--seed', 'x'], /--seed takes a whole number from 0 to 4294967295, not "x"/],
    [['--seed', '4294967296'], /--seed takes a whole number from 0 to 4294967295/],
    [['--seed', '-1'], /--seed needs a value; for a value that starts with "-", write --seed=VALUE/],
    [['--seed', '1', '--count', '0'], /--count takes a number of seeds from 1 to 10000, not "0"/],
    [['--seed', '4294967295', '--count', '2'], /goes past the last seed, 4294967295/],
    [['--seed', '1', '--db', 'mysql://x'], /--db takes a postgres:\/\/ URL to compare with/],
    [['--seed', '1', 'extra'], /unexpected argument "extra"/],
    [['--seed', '1', '--bogus'], /Unknown option '--bogus'/],
  ])('bad input %j: one clear line, exit code 2', async (args, message) => {
    const { code, stderr, stdout } = await sim(...(args as string[]));
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  });

  it('bad input from a real process: one clear line on stderr, nothing on stdout, exit code 2, no stack trace', async () => {
    const { code, stderr, stdout } = await simProcess('--seed', 'x');
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^[^\n]*--seed takes a whole number from 0 to 4294967295, not "x"\n$/);
  });
});
