/**
 * The isolation-spec parser (src/spec/parse.ts): every construct of PostgreSQL's format (setup blocks, a
 * teardown, sessions with setup/steps/teardown, quoted and bare names, comments, permutation lines with their
 * markers) and the lab's `check` block; bad input is one error with its line and column. PostgreSQL's own
 * specs in tests/fixtures/postgres-isolation/ parse unchanged.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { interleavingCount, parsePermutation, parseSpec, permutationsOf, SpecSyntaxError } from '../../src/spec/parse';

const FULL = `# a comment before anything
setup { CREATE TABLE a (i int); }
setup
{
  CREATE TABLE b (i int);
}
teardown { DROP TABLE a; DROP TABLE b; }

session "s 1"   # a quoted name may hold a space
setup { BEGIN; }
step "s1a" { SELECT 1; }
step s1b { COMMIT; }
teardown { SELECT 'bye'; }

session s2
step s2a	{ UPDATE a SET i = i; }

check "no double run" { SELECT i FROM a GROUP BY i HAVING count(*) > 1 }

permutation "s1a" s2a(*) s1b
permutation s1a(s2a) s2a(s1a notices 2, *) s1b
`;

function syntaxError(text: string): SpecSyntaxError {
  try {
    parseSpec(text);
  } catch (error) {
    if (error instanceof SpecSyntaxError) return error;
    throw error;
  }
  throw new Error('parsed without an error');
}

describe('parseSpec', () => {
  it('reads every part of the format', () => {
    const spec = parseSpec(FULL);
    expect(spec.setups.map((s) => s.sql)).toEqual(['CREATE TABLE a (i int);', '\n  CREATE TABLE b (i int);\n']);
    expect(spec.teardown?.sql).toBe('DROP TABLE a; DROP TABLE b;');
    expect(spec.sessions.map((s) => s.name)).toEqual(['s 1', 's2']);
    const [s1, s2] = spec.sessions;
    expect(s1!.setup?.sql).toBe('BEGIN;');
    expect(s1!.teardown?.sql).toBe("SELECT 'bye';");
    expect(s1!.steps.map((s) => [s.name, s.sql, s.session])).toEqual([
      ['s1a', 'SELECT 1;', 's 1'],
      ['s1b', 'COMMIT;', 's 1'],
    ]);
    expect(s2!.setup).toBeNull();
    expect(s2!.steps[0]).toMatchObject({ name: 's2a', sql: 'UPDATE a SET i = i;', line: 16 });
    expect(spec.checks).toEqual([{ name: 'no double run', sql: 'SELECT i FROM a GROUP BY i HAVING count(*) > 1', line: 18, column: 1 }]);
    expect(spec.permutations.map((p) => p.steps)).toEqual([
      [
        { step: 's1a', blockers: [] },
        { step: 's2a', blockers: [{ kind: 'once' }] },
        { step: 's1b', blockers: [] },
      ],
      [
        { step: 's1a', blockers: [{ kind: 'step', step: 's2a' }] },
        { step: 's2a', blockers: [{ kind: 'notices', step: 's1a', count: 2 }, { kind: 'once' }] },
        { step: 's1b', blockers: [] },
      ],
    ]);
  });

  it('takes a quote doubled inside a quoted name, and keywords as names only when quoted', () => {
    const spec = parseSpec('session "a""b" step "step" { SELECT 1; }');
    expect(spec.sessions[0]!.name).toBe('a"b');
    expect(spec.sessions[0]!.steps[0]!.name).toBe('step');
  });

  it('reads every one of PostgreSQL specs kept as test data', () => {
    const dir = join(__dirname, '../fixtures/postgres-isolation/specs');
    const files = readdirSync(dir).filter((f) => f.endsWith('.spec'));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) {
      const spec = parseSpec(readFileSync(join(dir, file), 'utf8'));
      expect(spec.sessions.length, file).toBeGreaterThanOrEqual(2);
      expect(spec.checks, file).toEqual([]);
    }
  });

  it.each([
    ['an unterminated SQL block', 'session s1 step s1a { SELECT 1;', '1:21: unterminated SQL block: no } closes the { here'],
    ['an unterminated quoted name', 'session "s1', '1:9: unterminated quoted name'],
    ['a newline in a quoted name', 'session "s\n1" step a { }', '1:11: unexpected newline in a quoted name'],
    ['a character the format does not have', 'session s1 step s1a { SELECT 1; } ;', '1:35: unexpected character ";"'],
    ['no session', 'setup { SELECT 1; }', '1:20: expected a session (session NAME, then its steps), found the end of the file'],
    ['a session without steps', 'session s1\nsession s2 step a { }', '2:1: session s1 needs at least one step; found "session"'],
    [
      'a keyword as a bare name',
      'session step',
      '1:9: expected the session\'s name after "session", found "step" (a keyword: write "step" in double quotes to use it as a name)',
    ],
    ['a step without SQL', 'session s1 step s1a\n', '2:1: expected a { SQL } block after step s1a, found the end of the file'],
    [
      'setup after the sessions',
      'session s1 step a { }\nsetup { }',
      '2:1: unexpected "setup": "setup" belongs before the first session (or inside one, right after its name)',
    ],
    [
      'a session after a permutation',
      'session s1 step a { }\npermutation a\nsession s2 step b { }',
      '3:1: unexpected "session": sessions come before the permutations',
    ],
    ['an empty permutation', 'session s1 step a { }\npermutation\n', '3:1: expected step names after "permutation", found the end of the file'],
    ['an unknown step in a permutation', 'session s1 step a { }\npermutation a b', '2:1: undefined step "b" in permutation'],
    ['a marker naming an unknown step', 'session s1 step a { }\nsession s2 step b { }\npermutation a(c) b', '3:1: undefined step "c" in the markers of a'],
    [
      'a marker naming a step of the same session',
      'session s1 step a { } step b { }\npermutation a(b) b',
      '2:1: step a cannot wait for b: both are steps of session s1',
    ],
    [
      'notices without a number',
      'session s1 step a { }\nsession s2 step b { }\npermutation a(b notices x) b',
      '3:25: expected a number of notices after "notices", found "x"',
    ],
    ['an unclosed marker list', 'session s1 step a { }\nsession s2 step b { }\npermutation a(b b', '3:17: expected "," or ")" in the markers of a, found "b"'],
    ['a duplicate step name', 'session s1 step a { }\nsession s2 step a { }', '2:17: duplicate step name "a"'],
    ['a duplicate session name', 'session s1 step a { }\nsession s1 step b { }', '2:1: duplicate session name "s1"'],
    ['a duplicate check name', 'check c { }\ncheck c { }\nsession s1 step a { }', '2:1: duplicate check name "c"'],
  ])('refuses %s with its line and column', (_what, text, message) => {
    expect(syntaxError(text).message).toBe(message);
  });
});

describe('permutations', () => {
  const spec = parseSpec('session s1 step a1 { } step a2 { }\nsession s2 step b1 { } step b2 { }');

  it('are every interleaving, each session in its order, as the isolation tester orders them', () => {
    const all = permutationsOf(spec).map((p) => p.map((s) => s.step).join(' '));
    // PostgreSQL's expected/nowait.out lists its six permutations in this order.
    expect(all).toEqual(['a1 a2 b1 b2', 'a1 b1 a2 b2', 'a1 b1 b2 a2', 'b1 a1 a2 b2', 'b1 a1 b2 a2', 'b1 b2 a1 a2']);
    expect(interleavingCount(spec)).toBe(6);
  });

  it('are the spec own when it has permutation lines', () => {
    const written = parseSpec('session s1 step a1 { } step a2 { }\nsession s2 step b1 { }\npermutation b1 a1 a2');
    expect(permutationsOf(written).map((p) => p.map((s) => s.step))).toEqual([['b1', 'a1', 'a2']]);
  });

  it('counts without making them', () => {
    const three = parseSpec(
      'session s1 step a1 { } step a2 { } step a3 { }\nsession s2 step b1 { } step b2 { } step b3 { }\nsession s3 step c1 { } step c2 { }',
    );
    expect(interleavingCount(three)).toBe(560); // 8! / (3! 3! 2!)
    expect(permutationsOf(three)).toHaveLength(560);
  });

  it('given on the command line are read with the same rules', () => {
    expect(parsePermutation(spec, 'a1 b1(*) a2 b2')).toEqual([
      { step: 'a1', blockers: [] },
      { step: 'b1', blockers: [{ kind: 'once' }] },
      { step: 'a2', blockers: [] },
      { step: 'b2', blockers: [] },
    ]);
    expect(() => parsePermutation(spec, 'a1 zz')).toThrow('undefined step "zz" in permutation');
  });
});
