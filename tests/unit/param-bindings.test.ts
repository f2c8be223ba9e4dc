/**
 * The one home of a statement's own parameter bindings (sim/param-bindings.ts): the CLI's --param,
 * the page's Parameters row and the link's params= read them with these rules and these messages.
 */
import { describe, expect, it } from 'vitest';
import { bindingFlag, bindStatement, FLAG_SYNTAX, parseBindings, ROW_SYNTAX, readBinding, valueWords } from '../../src/sim/param-bindings';

const parse = (...flags: string[]) => parseBindings(flags, FLAG_SYNTAX);

describe('parseBindings', () => {
  it("reads the lab's names with their contract's SQL type, numbers and quoted text as constants", () => {
    const parsed = parse('1=1', '2=worker', '3=lease', "complete:2='done, by hand'");
    expect(parsed).toEqual({
      ok: true,
      value: [
        { role: 'claim', position: 1, source: { constant: '1' }, type: 'text', flag: '1=1' },
        { role: 'claim', position: 2, source: 'worker', type: 'text', flag: '2=worker' },
        { role: 'claim', position: 3, source: 'leaseSeconds', type: 'integer', flag: '3=lease' },
        { role: 'complete', position: 2, source: { constant: 'done, by hand' }, type: 'text', flag: "complete:2='done, by hand'" },
      ],
    });
  });

  it('names each role its own values, in the contract order', () => {
    expect(valueWords('claim')).toEqual(['worker', 'lease']);
    expect(valueWords('heartbeat')).toEqual(['run', 'worker', 'generation', 'lease']);
    expect(valueWords('work')).toEqual(['run', 'generation', 'cost']);
    expect(valueWords('complete')).toEqual(['run', 'generation', 'result']);
  });

  it("refuses in one line, naming each binding in the CLI's flag syntax", () => {
    expect(parse('3=lease2')).toEqual({
      ok: false,
      role: 'claim',
      message: `--param 3=lease2: unknown name "lease2"; the claim's names are worker and lease (or a number, or text in single quotes: --param "3='lease2'")`,
    });
    expect(parse('0=5')).toEqual({ ok: false, role: 'claim', message: '--param 0=5: parameters are numbered from $1' });
    expect(parse('1=5', 'complete:1=run', '1=worker')).toEqual({ ok: false, role: 'claim', message: '--param 1=worker: $1 of the claim is bound twice' });
    expect(parse('sweeper:1=5')).toEqual({
      ok: false,
      message:
        '--param sweeper:1=5: "sweeper" is not a statement with parameters; the statements are the claim (no prefix), heartbeat:, work:, complete: and reaper:',
    });
    expect(parse('x')).toMatchObject({ ok: false, message: expect.stringMatching(/^--param takes \[STATEMENT:\]N=VALUE: .*; not "x"$/) });
  });

  it("the page says the same in its Parameters row's terms", () => {
    expect(parseBindings(['3=lease2'], ROW_SYNTAX)).toEqual({
      ok: false,
      role: 'claim',
      message: `$3 = lease2: unknown name "lease2"; the claim's names are worker and lease (or a number, or text in single quotes: $3 = 'lease2')`,
    });
    expect(parseBindings(['complete:0=5'], ROW_SYNTAX)).toEqual({ ok: false, role: 'complete', message: '$0 = 5: parameters are numbered from $1' });
  });
});

describe('one reading of [STATEMENT:]N=VALUE', () => {
  it('names the statement before a leading word:, else the claim; its $n and value, or none when the rest is not N=VALUE', () => {
    expect(readBinding("complete:3='a:b'")).toEqual({ roleWord: 'complete', parts: { position: 3, value: "'a:b'" } });
    expect(readBinding('2=worker')).toEqual({ roleWord: 'claim', parts: { position: 2, value: 'worker' } });
    expect(readBinding('complete:1')).toEqual({ roleWord: 'complete', parts: null });
    expect(readBinding('Complete:1=5')).toEqual({ roleWord: 'claim', parts: null });
  });

  it("a malformed binding of a statement is refused as that statement's, in the caller's one line", () => {
    expect(parse('complete:1')).toEqual({
      ok: false,
      role: 'complete',
      message: `--param takes [STATEMENT:]N=VALUE: N a parameter's number, VALUE a name (worker, lease, …), a number or text in single quotes; e.g. --param 1=5 --param 2=worker --param "3='default'"; not "complete:1"`,
    });
    expect(parseBindings(['complete:1'], ROW_SYNTAX)).toEqual({ ok: false, role: 'complete', message: 'parameter complete:1: not of the form N=VALUE' });
    // A word that names no statement is said first, malformed or not.
    expect(parse('sweeper:1')).toMatchObject({ ok: false, message: expect.stringMatching(/^--param sweeper:1: "sweeper" is not a statement with parameters/) });
  });
});

describe("a reaper's own parameters (check --reaper)", () => {
  it('binds constants only: a reaper runs for no worker, so it has no names', () => {
    expect(parse("reaper:1='30 seconds'", 'reaper:2=10')).toEqual({
      ok: true,
      value: [
        { role: 'reaper', position: 1, source: { constant: '30 seconds' }, type: 'text', flag: "reaper:1='30 seconds'" },
        { role: 'reaper', position: 2, source: { constant: '10' }, type: 'text', flag: 'reaper:2=10' },
      ],
    });
    expect(valueWords('reaper')).toEqual([]);
    expect(parse('reaper:1=lease')).toEqual({
      ok: false,
      role: 'reaper',
      message: `--param reaper:1=lease: unknown name "lease"; the reaper is given none of the lab's values by name: a number, or text in single quotes (--param "reaper:1='lease'")`,
    });
  });

  it('a $n it uses with no value gets the one line the other statements get, bound or not', () => {
    const reaper = (used: number[], ...flags: string[]) => {
      const parsed = parse(...flags);
      if (!parsed.ok) throw new Error(parsed.message);
      return bindStatement(used, parsed.value, 'reaper', 'reaper.sql', FLAG_SYNTAX);
    };
    expect(reaper([1])).toEqual({ ok: false, message: 'reaper.sql uses $1, which is given no value (--param reaper:1=…)' });
    expect(reaper([1, 2], "reaper:1='30 seconds'")).toEqual({ ok: false, message: 'reaper.sql uses $2, which is given no value (--param reaper:2=…)' });
    expect(reaper([])).toEqual({ ok: true, value: null });
    expect(reaper([1], "reaper:1='30 seconds'")).toEqual({
      ok: true,
      value: { sources: [{ constant: '30 seconds' }], parameters: [{ number: 1, name: "reaper:1='30 seconds'", type: 'text' }] },
    });
  });
});

describe('bindStatement', () => {
  const bindings = (...flags: string[]) => {
    const parsed = parse(...flags);
    if (!parsed.ok) throw new Error(parsed.message);
    return parsed.value;
  };

  it("gives the statement's values in $n order, or null when nothing binds it", () => {
    expect(bindStatement([1, 2, 3], bindings('3=lease', '1=1', '2=worker'), 'claim', 'your claim', FLAG_SYNTAX)).toEqual({
      ok: true,
      value: {
        sources: [{ constant: '1' }, 'worker', 'leaseSeconds'],
        parameters: [
          { number: 1, name: '1=1', type: 'text' },
          { number: 2, name: '2=worker', type: 'text' },
          { number: 3, name: '3=lease', type: 'integer' },
        ],
      },
    });
    expect(bindStatement([1, 2], bindings('complete:1=run'), 'claim', 'your claim', FLAG_SYNTAX)).toEqual({ ok: true, value: null });
  });

  it('refuses an unbound, an unused, a skipped $n, and a write whose $1 is not its run', () => {
    const bind = (used: number[], role: 'claim' | 'complete', ...flags: string[]) => bindStatement(used, bindings(...flags), role, 'your claim', FLAG_SYNTAX);
    expect(bind([1, 2, 3], 'claim', '1=1', '2=worker')).toEqual({ ok: false, message: 'your claim uses $3, which is given no value (--param 3=…)' });
    expect(bind([1, 2], 'claim', '1=1', '2=worker', '3=lease')).toEqual({ ok: false, message: '--param 3=lease: your claim does not use $3' });
    expect(bind([1, 3], 'claim', '1=1', '3=lease')).toMatchObject({ ok: false, message: expect.stringContaining('uses $1, $3 but not $2') });
    expect(bind([1], 'complete', 'complete:1=generation')).toEqual({
      ok: false,
      message: "--param complete:1=generation: a completion's $1 is its run (--param complete:1=run): the lab finds the row a waiting write waits on by it",
    });
    expect(bindStatement([1], bindings('complete:1=generation'), 'complete', 'it', ROW_SYNTAX)).toMatchObject({
      message: "$1 = generation: a completion's $1 is its run ($1 = run): the lab finds the row a waiting write waits on by it",
    });
    expect(bindStatement([1, 2], bindings('1=1'), 'claim', 'it', ROW_SYNTAX)).toMatchObject({ message: 'it uses $2, which is given no value ($2 = …)' });
  });

  it('bindingFlag writes back what parseBindings reads', () => {
    for (const flag of ['1=1', '2=worker', '3=lease', "2='done, by hand'", 'work:3=cost', '4=-2.5']) {
      const [binding] = bindings(flag);
      expect(bindingFlag(binding!.role, binding!.position, binding!.source)).toBe(flag);
    }
  });
});
