/**
 * PostgreSQL's isolation-test spec format (src/test/isolation/README in PostgreSQL's repository), read by the
 * lab's own parser: `setup { … }` blocks, an optional `teardown { … }`, one `session NAME` per connection with
 * its optional `setup`, its `step NAME { … }` lines and optional `teardown`, then optional `permutation` lines
 * whose steps may carry markers: `s1a(*)` (report it as waiting once), `s1a(s2b)` (not reported complete while
 * s2b is still running), `s1a(s2b notices 1)` (nor until s2b's session sent that many more notices). `#` starts
 * a comment.
 * Names are bare words or double-quoted ("" for a quote inside), as PostgreSQL 14 and later read them.
 *
 * The lab adds one block PostgreSQL's grammar does not have, so a file of PostgreSQL's own stays a valid spec
 * unchanged: `check NAME { query }` at the top level, a query over your tables that must return no rows after
 * every permutation (your invariant, e.g. no job run twice).
 *
 * Bad input is one SpecSyntaxError with the line and column of what is wrong.
 */

interface SqlBlock {
  /** The SQL between the braces, without the blanks at either end (what the isolation tester prints). */
  sql: string;
  line: number;
  column: number;
}

export interface Step extends SqlBlock {
  name: string;
  session: string;
}

interface Session {
  name: string;
  setup: SqlBlock | null;
  steps: Step[];
  teardown: SqlBlock | null;
  line: number;
  column: number;
}

/** What keeps a permutation step reported as waiting (PostgreSQL's PermutationStepBlocker). */
export type Blocker = { kind: 'once' } | { kind: 'step'; step: string } | { kind: 'notices'; step: string; count: number };

export interface PermutationStep {
  step: string;
  blockers: Blocker[];
}

interface Permutation {
  steps: PermutationStep[];
  line: number;
}

interface Check extends SqlBlock {
  name: string;
}

export interface Spec {
  setups: SqlBlock[];
  teardown: SqlBlock | null;
  sessions: Session[];
  /** As written; empty means every interleaving (see permutationsOf). */
  permutations: Permutation[];
  checks: Check[];
}

export class SpecSyntaxError extends Error {
  readonly userFacing = true;
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${line}:${column}: ${reason}`);
  }
}

type Token =
  | { kind: 'word'; text: string; line: number; column: number }
  | { kind: 'name'; text: string; line: number; column: number }
  | { kind: 'integer'; value: number; text: string; line: number; column: number }
  | { kind: 'sql'; sql: string; text: string; line: number; column: number }
  | { kind: 'punct'; text: '(' | ')' | ',' | '*'; line: number; column: number }
  | { kind: 'end'; text: string; line: number; column: number };

const KEYWORDS = new Set(['setup', 'teardown', 'session', 'step', 'permutation', 'notices', 'check']);
/** A bare name: PostgreSQL's scanner takes letters, digits, _ and $ (not first), and bytes past ASCII. */
const BARE_NAME = /[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*/y;
const INTEGER = /[0-9]+/y;
/** Blanks the scanner skips; like PostgreSQL's, it trims these (not newlines) inside the braces' edges. */
const BLANK = /[ \t\r\f]/;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const column = () => i - lineStart + 1;
  const fail = (reason: string, atLine = line, atColumn = column()): never => {
    throw new SpecSyntaxError(reason, atLine, atColumn);
  };
  const advance = (to: number) => {
    for (; i < to; i++) {
      if (text[i] === '\n') {
        line++;
        lineStart = i + 1;
      }
    }
  };
  while (i < text.length) {
    const c = text[i]!;
    if (c === '\n' || BLANK.test(c)) {
      advance(i + 1);
      continue;
    }
    if (c === '#') {
      const end = text.indexOf('\n', i);
      advance(end === -1 ? text.length : end);
      continue;
    }
    const at = { line, column: column() };
    if (c === '{') {
      const close = text.indexOf('}', i + 1);
      if (close === -1) fail('unterminated SQL block: no } closes the { here');
      let start = i + 1;
      while (start < close && BLANK.test(text[start]!)) start++;
      let end = close;
      while (end > start && BLANK.test(text[end - 1]!)) end--;
      tokens.push({ kind: 'sql', sql: text.slice(start, end), text: '{…}', ...at });
      advance(close + 1);
      continue;
    }
    if (c === '"') {
      let value = '';
      let j = i + 1;
      for (;;) {
        if (j >= text.length) fail('unterminated quoted name');
        const d = text[j]!;
        if (d === '\n') fail('unexpected newline in a quoted name', line, j - lineStart + 1);
        if (d === '"') {
          if (text[j + 1] === '"') {
            value += '"';
            j += 2;
            continue;
          }
          break;
        }
        value += d;
        j++;
      }
      if (value === '') fail('a quoted name cannot be empty');
      tokens.push({ kind: 'name', text: value, ...at });
      advance(j + 1);
      continue;
    }
    if (c === '(' || c === ')' || c === ',' || c === '*') {
      tokens.push({ kind: 'punct', text: c, ...at });
      advance(i + 1);
      continue;
    }
    INTEGER.lastIndex = i;
    const digits = INTEGER.exec(text);
    if (digits) {
      // Digits first make a number, as in PostgreSQL's scanner ("1abc" is a number, then a name).
      tokens.push({ kind: 'integer', value: Number(digits[0]), text: digits[0], ...at });
      advance(i + digits[0].length);
      continue;
    }
    BARE_NAME.lastIndex = i;
    const word = BARE_NAME.exec(text);
    if (word) {
      // Keywords are lower case, as PostgreSQL's scanner matches them; "Setup" is a name.
      tokens.push(KEYWORDS.has(word[0]) ? { kind: 'word', text: word[0], ...at } : { kind: 'name', text: word[0], ...at });
      advance(i + word[0].length);
      continue;
    }
    fail(`unexpected character "${c}"`);
  }
  tokens.push({ kind: 'end', text: 'the end of the file', line, column: column() });
  return tokens;
}

function describe(token: Token): string {
  if (token.kind === 'end') return 'the end of the file';
  if (token.kind === 'sql') return 'a { SQL } block';
  if (token.kind === 'name') return `"${token.text}"`;
  return `"${token.text}"`;
}

/** Reads a spec file's text; throws SpecSyntaxError (line, column, reason) on anything PostgreSQL would refuse. */
export function parseSpec(text: string): Spec {
  const tokens = tokenize(text);
  let at = 0;
  const peek = () => tokens[at]!;
  const next = () => tokens[at++]!;
  const isWord = (word: string) => {
    const token = peek();
    return token.kind === 'word' && token.text === word;
  };
  const fail = (token: Token, reason: string): never => {
    throw new SpecSyntaxError(reason, token.line, token.column);
  };
  const expectSql = (after: string): SqlBlock => {
    const token = next();
    if (token.kind !== 'sql') return fail(token, `expected a { SQL } block after ${after}, found ${describe(token)}`);
    return { sql: token.sql, line: token.line, column: token.column };
  };
  const expectName = (what: string): { name: string; token: Token } => {
    const token = next();
    if (token.kind !== 'name') {
      const hint = token.kind === 'word' ? ` (a keyword: write "${token.text}" in double quotes to use it as a name)` : '';
      return fail(token, `expected ${what}, found ${describe(token)}${hint}`);
    }
    return { name: token.text, token };
  };

  const spec: Spec = { setups: [], teardown: null, sessions: [], permutations: [], checks: [] };
  const readCheck = () => {
    const start = next();
    const { name } = expectName('the check\'s name after "check"');
    const block = expectSql(`check "${name}"`);
    spec.checks.push({ name, ...block, line: start.line, column: start.column });
  };

  // The parts come in PostgreSQL's order: setup blocks, a teardown, sessions, permutations; checks anywhere at the top.
  for (;;) {
    if (isWord('check')) readCheck();
    else if (isWord('setup')) {
      next();
      spec.setups.push(expectSql('"setup"'));
    } else break;
  }
  while (isWord('check')) readCheck();
  if (isWord('teardown')) {
    next();
    spec.teardown = expectSql('"teardown"');
  }
  while (isWord('check')) readCheck();
  while (isWord('session') || isWord('check')) {
    if (isWord('check')) {
      readCheck();
      continue;
    }
    const start = next();
    const { name } = expectName('the session\'s name after "session"');
    const session: Session = { name, setup: null, steps: [], teardown: null, line: start.line, column: start.column };
    if (isWord('setup')) {
      next();
      session.setup = expectSql(`"setup" of session ${name}`);
    }
    while (isWord('step')) {
      next();
      const { name: stepName, token } = expectName('the step\'s name after "step"');
      const block = expectSql(`step ${stepName}`);
      session.steps.push({ name: stepName, session: name, ...block, line: token.line, column: token.column });
    }
    if (session.steps.length === 0) fail(peek(), `session ${name} needs at least one step; found ${describe(peek())}`);
    if (isWord('teardown')) {
      next();
      session.teardown = expectSql(`"teardown" of session ${name}`);
    }
    spec.sessions.push(session);
  }
  if (spec.sessions.length === 0) fail(peek(), `expected a session (session NAME, then its steps), found ${describe(peek())}`);
  while (isWord('permutation') || isWord('check')) {
    if (isWord('check')) {
      readCheck();
      continue;
    }
    const start = next();
    const steps: PermutationStep[] = [];
    while (peek().kind === 'name') {
      const step = next().text;
      const blockers: Blocker[] = [];
      const open = peek();
      if (open.kind === 'punct' && open.text === '(') {
        next();
        for (;;) {
          const token = next();
          if (token.kind === 'punct' && token.text === '*') blockers.push({ kind: 'once' });
          else if (token.kind === 'name') {
            if (isWord('notices')) {
              next();
              const count = next();
              if (count.kind !== 'integer') fail(count, `expected a number of notices after "notices", found ${describe(count)}`);
              blockers.push({ kind: 'notices', step: token.text, count: (count as { value: number }).value });
            } else blockers.push({ kind: 'step', step: token.text });
          } else fail(token, `expected a marker in ${step}( … ): *, a step name, or a step name and "notices N"; found ${describe(token)}`);
          const after = next();
          if (after.kind === 'punct' && after.text === ')') break;
          if (!(after.kind === 'punct' && after.text === ',')) fail(after, `expected "," or ")" in the markers of ${step}, found ${describe(after)}`);
        }
      }
      steps.push({ step, blockers });
    }
    if (steps.length === 0) fail(peek(), `expected step names after "permutation", found ${describe(peek())}`);
    spec.permutations.push({ steps, line: start.line });
  }
  const rest = peek();
  if (rest.kind !== 'end') {
    const where =
      rest.kind === 'word' && (rest.text === 'setup' || rest.text === 'teardown')
        ? `: "${rest.text}" belongs before the first session (or inside one, right after its name)`
        : rest.kind === 'word' && rest.text === 'session' && spec.permutations.length > 0
          ? ': sessions come before the permutations'
          : '';
    fail(rest, `unexpected ${describe(rest)}${where}`);
  }
  validate(spec);
  return spec;
}

/** The checks PostgreSQL's check_testspec makes: unique names, steps that exist, markers that make sense. */
function validate(spec: Spec): void {
  const sessions = new Map<string, Session>();
  const steps = new Map<string, Step>();
  for (const session of spec.sessions) {
    if (sessions.has(session.name)) throw new SpecSyntaxError(`duplicate session name "${session.name}"`, session.line, session.column);
    sessions.set(session.name, session);
    for (const step of session.steps) {
      if (steps.has(step.name)) throw new SpecSyntaxError(`duplicate step name "${step.name}"`, step.line, step.column);
      steps.set(step.name, step);
    }
  }
  const checks = new Set<string>();
  for (const check of spec.checks) {
    if (checks.has(check.name)) throw new SpecSyntaxError(`duplicate check name "${check.name}"`, check.line, check.column);
    checks.add(check.name);
  }
  for (const permutation of spec.permutations) {
    for (const { step, blockers } of permutation.steps) {
      const found = steps.get(step);
      if (!found) throw new SpecSyntaxError(`undefined step "${step}" in permutation`, permutation.line, 1);
      for (const blocker of blockers) {
        if (blocker.kind === 'once') continue;
        const other = steps.get(blocker.step);
        if (!other) throw new SpecSyntaxError(`undefined step "${blocker.step}" in the markers of ${step}`, permutation.line, 1);
        if (other.session === found.session) {
          throw new SpecSyntaxError(`step ${step} cannot wait for ${blocker.step}: both are steps of session ${found.session}`, permutation.line, 1);
        }
      }
    }
  }
}

/** The step of each name. */
export function stepsByName(spec: Spec): Map<string, Step> {
  return new Map(spec.sessions.flatMap((session) => session.steps.map((step) => [step.name, step] as const)));
}

/**
 * The permutations to run: the spec's own, or, when it has none, every interleaving of the sessions' steps
 * (each session's in its order), in the order PostgreSQL's isolation tester makes them.
 */
export function permutationsOf(spec: Spec): PermutationStep[][] {
  if (spec.permutations.length > 0) return spec.permutations.map((p) => p.steps);
  const all: PermutationStep[][] = [];
  const next = spec.sessions.map(() => 0);
  const current: PermutationStep[] = [];
  const total = spec.sessions.reduce((sum, s) => sum + s.steps.length, 0);
  const walk = () => {
    if (current.length === total) {
      all.push([...current]);
      return;
    }
    spec.sessions.forEach((session, i) => {
      const index = next[i]!;
      if (index >= session.steps.length) return;
      current.push({ step: session.steps[index]!.name, blockers: [] });
      next[i] = index + 1;
      walk();
      next[i] = index;
      current.pop();
    });
  };
  walk();
  return all;
}

/** How many interleavings every-order would make, without making them (a spec can ask for far too many). */
export function interleavingCount(spec: Spec): number {
  // multinomial: (n1 + n2 + …)! / (n1! n2! …), built up one session at a time as products of binomials
  let count = 1;
  let placed = 0;
  for (const session of spec.sessions) {
    for (let k = 1; k <= session.steps.length; k++) {
      count = (count * (placed + k)) / k;
    }
    placed += session.steps.length;
  }
  return Math.round(count);
}

/**
 * A permutation given on the command line (`--permutation "s1a s2a(s1b) …"`), read with the same rules as a
 * permutation line of the file.
 */
export function parsePermutation(spec: Spec, text: string): PermutationStep[] {
  const sessionsOnly = spec.sessions
    .map((s) => `session "${s.name.replace(/"/g, '""')}" ${s.steps.map((st) => `step "${st.name.replace(/"/g, '""')}" { }`).join(' ')}`)
    .join('\n');
  let parsed: Spec;
  try {
    parsed = parseSpec(`${sessionsOnly}\npermutation ${text}`);
  } catch (error) {
    if (error instanceof SpecSyntaxError) {
      const offset = sessionsOnly.split('\n').length;
      throw new SpecSyntaxError(error.reason, Math.max(1, error.line - offset), error.line > offset ? error.column - 'permutation '.length : 1);
    }
    throw error;
  }
  return parsed.permutations[0]!.steps;
}
