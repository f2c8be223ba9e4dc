/** npm run live: what it accepts, and one line with exit code 2 for everything it cannot start with. */
import { type CliAnswer, nodeStarted } from '../support/cli';
import { describe, expect, it } from 'vitest';
import { checkDatabaseUrl, describeServer, parseLiveArgs } from '../../src/live/args';

/** Runs the real entry point; several at once, since each spends most of its time starting Node. */
async function live(...args: string[]): Promise<CliAnswer> {
  return await nodeStarted('scripts/live.ts', args, 30_000).answer;
}

describe('parseLiveArgs', () => {
  it('serves on 127.0.0.1 by default and takes loopback names only', () => {
    expect(parseLiveArgs(['postgres://me@db.example:5433/lab'])).toEqual({
      kind: 'serve',
      url: 'postgres://me@db.example:5433/lab',
      host: '127.0.0.1',
      port: 4190,
      dist: 'dist',
    });
    expect(parseLiveArgs(['--host', '::1', '--port', '0', 'postgres://me@localhost/lab'])).toMatchObject({ kind: 'serve', host: '::1', port: 0 });
    for (const host of ['0.0.0.0', '192.168.1.5', '::', 'example.com']) {
      expect(parseLiveArgs(['--host', host, 'postgres://me@localhost/lab']), host).toMatchObject({
        kind: 'refused',
        message: expect.stringContaining('this machine only'),
      });
    }
  });

  it('wants exactly one postgres:// URL that names a database', () => {
    expect(parseLiveArgs([])).toMatchObject({ kind: 'refused' });
    expect(checkDatabaseUrl('mysql://me@localhost/lab')).toContain('not a postgres:// URL');
    expect(checkDatabaseUrl('postgres://me@localhost')).toContain('names no database');
    expect(checkDatabaseUrl('postgres://me:secret@localhost:5432')).not.toContain('secret');
    expect(parseLiveArgs(['--drop', 'postgresql://me@localhost/lab'])).toEqual({ kind: 'drop', url: 'postgresql://me@localhost/lab' });
  });

  it('names the server as host/db for the banner, never the user or password', () => {
    expect(describeServer('postgres://me:secret@db.example:5433/lab')).toBe('db.example:5433/lab');
    expect(describeServer('postgres://me@localhost/lab')).toBe('localhost/lab');
  });
});

describe('npm run live', () => {
  it('refuses a non-loopback host, a bad URL and an unreachable server with one line and exit code 2', async () => {
    const [exposed, badUrl, unreachable] = await Promise.all([
      live('--host', '0.0.0.0', 'postgres://me@localhost/lab'),
      live('not a url'),
      // Port 1 on loopback: nothing listens there, so the refusal is immediate.
      live('--port', '0', 'postgres://me:hunter2@127.0.0.1:1/lab'),
    ]);
    for (const run of [exposed, badUrl, unreachable]) {
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(exposed.stderr).toContain('the bridge listens on this machine only');
    expect(badUrl.stderr).toContain('is not a URL');
    expect(unreachable.stderr).toContain('cannot reach PostgreSQL at postgres://me:***@127.0.0.1:1/lab: connection refused');
    expect(unreachable.stderr).not.toContain('hunter2');
  });
});
