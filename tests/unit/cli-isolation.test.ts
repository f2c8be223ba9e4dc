/**
 * `--isolation` on the command line, without a server: a level it does not know and a level above READ
 * COMMITTED without `--db postgres://…` are one line and exit 2 (with --json, one JSON object), in run,
 * explore and check alike; read-committed is today's output byte for byte. What the levels do on a real
 * server is tests/ground-truth/isolation-cli.test.ts.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, simInProcess } from '../support/cli';

const CLAIM = join(projectRoot, 'src/strategies/skip-locked/claim-skip-locked.sql');
const NEEDS_SERVER = (level: string) =>
  `lease-lab: --isolation ${level} needs a real PostgreSQL server: PGlite is one session and cannot hold two transactions' snapshots at once; run it with --db postgres://…\n`;

const COMMANDS: [string, string[]][] = [
  ['run', ['run', 'race']],
  ['explore', ['explore', 'race']],
  ['check', ['check', 'race', '--claim', CLAIM]],
];

describe('--isolation without a server', () => {
  it.each(COMMANDS)('%s: an unknown level is one line naming the levels, exit 2', async (_, args) => {
    const answer = await simInProcess([...args, '--isolation', 'snapshot']);
    expect(answer.code).toBe(2);
    expect(answer.stdout).toBe('');
    expect(answer.stderr).toBe('lease-lab: --isolation takes read-committed, repeatable-read, serializable, not "snapshot"\n');
  });

  it.each(COMMANDS)('%s: repeatable-read and serializable on PGlite say why not and where to run them, exit 2', async (_, args) => {
    for (const level of ['repeatable-read', 'serializable']) {
      for (const db of [[], ['--db', 'pglite']]) {
        const answer = await simInProcess([...args, '--isolation', level, ...db]);
        expect(answer.code).toBe(2);
        expect(answer.stdout).toBe('');
        expect(answer.stderr).toBe(NEEDS_SERVER(level));
      }
    }
  });

  it.each(COMMANDS)('%s --json: the same line as one JSON object on stdout', async (_, args) => {
    const answer = await simInProcess([...args, '--isolation', 'serializable', '--json']);
    expect(answer.code).toBe(2);
    expect(JSON.parse(answer.stdout)).toEqual({
      error: NEEDS_SERVER('serializable')
        .replace(/^lease-lab: /, '')
        .trimEnd(),
      exitCode: 2,
    });
  });

  it('read-committed is the lab as it always ran: the same output byte for byte', async () => {
    for (const args of [
      ['run', 'race'],
      ['run', 'race', '--strategy', 'cas', '--json'],
    ]) {
      const plain = await simInProcess(args);
      const explicit = await simInProcess([...args, '--isolation', 'read-committed']);
      expect(plain.code).toBe(0);
      expect(explicit).toEqual(plain);
    }
  });

  it('the usage names the option and the levels', async () => {
    const answer = await simInProcess(['--help']);
    expect(answer.stdout).toContain('[--isolation read-committed|repeatable-read|serializable]');
    expect(answer.stdout).toContain('a worker that gets 40001 rolls back and tries again; needs --db postgres://…');
  });
});
