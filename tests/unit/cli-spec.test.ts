/**
 * `npm run sim -- spec`: bad input is one line on stderr and exit code 2, before any server is reached: a file
 * it cannot read, a spec PostgreSQL's format refuses (with FILE:line:column), a --permutation naming a step the
 * spec does not have, a --db that is no URL, and a spec whose every order is too many permutations to run.
 * Without --db the spec runs on PGlite (tests/unit/spec-pglite.test.ts).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { simInProcess } from '../support/cli';

const dir = mkdtempSync(join(tmpdir(), 'lease-lab-spec-'));
function file(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}
const GOOD = file('good.spec', 'session s1 step a { SELECT 1; }\nsession s2 step b { SELECT 2; }\n');
// Nowhere to connect: the input is refused before any connection is tried.
const NO_SERVER = 'postgres://nobody@127.0.0.1:1/none';

describe('spec: bad input is one line, exit 2', () => {
  it.each([
    ['a file that is not there', [join(dir, 'missing.spec'), '--db', NO_SERVER], `lease-lab: ${join(dir, 'missing.spec')}: no such file`],
    [
      'a syntax error, with its line and column',
      [file('bad.spec', 'session s1\nstep a { SELECT 1; }\nstep b SELECT 2\n'), '--db', NO_SERVER],
      `lease-lab: ${join(dir, 'bad.spec')}:3:8: expected a { SQL } block after step b, found "SELECT"`,
    ],
    ['an unknown step in --permutation', [GOOD, '--permutation', 'a zz', '--db', NO_SERVER], 'lease-lab: --permutation: undefined step "zz" in permutation'],
    ['a --db that is not a URL', [GOOD, '--db', 'pglite'], 'lease-lab: --db takes a postgres:// URL, not "pglite"'],
    ['no file', [], 'lease-lab: spec needs a file: npm run sim -- spec FILE.spec [--db postgres://…]'],
    [
      'every order of too many steps',
      [
        file(
          'many.spec',
          ['s1', 's2', 's3', 's4'].map((s) => `session ${s} ${[1, 2, 3, 4].map((i) => `step ${s}_${i} { SELECT ${i}; }`).join(' ')}`).join('\n'),
        ),
        '--db',
        NO_SERVER,
      ],
      `lease-lab: ${join(dir, 'many.spec')}: every order of its steps is 63063000 permutations, more than 5000; name the ones you mean with permutation lines or --permutation`,
    ],
  ])('%s', async (_what, args, line) => {
    const answer = await simInProcess(['spec', ...args]);
    expect(answer.stderr).toBe(`${line}\n`);
    expect(answer.stdout).toBe('');
    expect(answer.code).toBe(2);
  });
});
