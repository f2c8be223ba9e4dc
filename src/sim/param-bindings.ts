/**
 * A statement's own parameters, bound one by one as `[STATEMENT:]N=VALUE` (issue 33 item 6): the CLI's
 * `check --param` flags, the "Your SQL" page's Parameters row and the link's `params=` all read them here,
 * with one set of rules and one set of messages. VALUE is a name of the lab's values for that statement
 * (the worker's value at that step), a number, or text in single quotes (taken as it is); a constant is sent
 * as text, for PostgreSQL to read as the type it infers for $N.
 */
import { CONTRACTS, type Parameter } from '../sql/analyze/contract';
import { listWorkers } from './anomalies';
import { clip } from './echo';
import type { WriteRole } from '../strategies/custom';
import { type ParamName, type ParamSource, roleParams } from '../strategies/types';

/**
 * The statements a binding binds: the claim's by default (`1=5`), a write's by its role (`complete:1=run`),
 * the reaper's (`reaper:1='30 seconds'`, check --reaper).
 */
export type BindingRole = 'claim' | WriteRole | 'reaper';

const BINDING_ROLES: readonly BindingRole[] = ['claim', 'heartbeat', 'work', 'complete', 'reaper'];

/** The lab's values each statement may name, in its contract's order: a reaper runs on no worker's behalf, so none. */
const LAB_VALUES: Readonly<Record<BindingRole, readonly ParamName[]>> = {
  claim: roleParams('claim', true),
  heartbeat: roleParams('heartbeat', true),
  work: roleParams('work', true),
  complete: roleParams('complete', true),
  reaper: [],
};

/** The lab's values a role's statement takes when nothing binds it (its contract); none for a reaper, whose every $n is bound. */
export function labValues(role: BindingRole): readonly ParamName[] {
  return LAB_VALUES[role];
}

/** The word a binding takes for each of the lab's values (`2=lease`). */
const VALUE_WORDS: Readonly<Record<ParamName, string>> = {
  worker: 'worker',
  leaseSeconds: 'lease',
  run: 'run',
  generation: 'generation',
  costCents: 'cost',
  result: 'result',
};

type NamedValue = { value: ParamName; type: Parameter['type'] };

/**
 * The lab's values a statement may be given by name: the worker's value at that step, each sent as the SQL
 * type its role's contract gives it (CONTRACTS and ROLE_CONTRACTS list them in one order).
 */
const NAMED_VALUES = Object.fromEntries(
  BINDING_ROLES.map((role) => [
    role,
    Object.fromEntries(LAB_VALUES[role].map((value, i) => [VALUE_WORDS[value], { value, type: CONTRACTS[role].parameters[i]!.type }])),
  ]),
) as Readonly<Record<BindingRole, Readonly<Record<string, NamedValue>>>>;

/** The names a role's statement may be bound to, in the contract's order ("worker", "lease"). */
export function valueWords(role: BindingRole): string[] {
  return Object.keys(NAMED_VALUES[role]);
}

/** One binding: which statement, which $n, and its value (a name above, or a constant); `flag` as it is printed back. */
interface ParamBinding {
  role: BindingRole;
  position: number;
  source: ParamSource;
  type: Parameter['type'];
  flag: string;
}

export type ParamBindings = readonly ParamBinding[];
export const NO_BINDINGS: ParamBindings = [];

/** A refusal's `role`: the statement whose binding it is, once the text names one. */
export type BindingsChecked<T> = { ok: true; value: T } | { ok: false; message: string; role?: BindingRole };

/** "claim" → "", "complete" → "complete:": how a binding names its statement. */
export function rolePrefix(role: BindingRole): string {
  return role === 'claim' ? '' : `${role}:`;
}

/**
 * A binding's text as the one reading of `[STATEMENT:]N=VALUE`: the statement it names (the word before a
 * leading `word:`, else the claim), and its $n and value, or null parts when the rest is not `N=VALUE`
 * (`complete:1`: a malformed binding of the completion, refused under that statement).
 */
export function readBinding(flag: string): { roleWord: string; parts: { position: number; value: string } | null } {
  const [, roleWord = 'claim', rest = ''] = /^(?:([a-z]+):)?(.*)$/s.exec(flag)!;
  const match = /^(\d{1,5})=(.*)$/s.exec(rest);
  return { roleWord, parts: match ? { position: Number(match[1]), value: match[2]! } : null };
}

/**
 * How a caller writes a binding, in its messages: the CLI as its flag (`--param 3=lease`), the page as its
 * Parameters row shows it (`$3 = lease`). The rules and the rest of every message are the same everywhere.
 */
export interface BindingSyntax {
  /** The binding of `value` to $`position` of `role`'s statement, as the caller's user writes it. */
  written(role: BindingRole, position: number, value: string): string;
  /** Text that names no statement with parameters (`sweeper:1=5`), as the caller shows it. */
  unread(flag: string): string;
  /** The caller's own line for text that is not of the shape `[STATEMENT:]N=VALUE`. */
  malformed(flag: string): string;
}

/** The CLI's: each binding a `--param` flag, a value with a quote in it shell-quoted as its usage line shows. */
export const FLAG_SYNTAX: BindingSyntax = {
  written: (role, position, value) => {
    const flag = `${rolePrefix(role)}${position}=${value}`;
    return `--param ${value.includes("'") ? `"${flag}"` : flag}`;
  },
  unread: (flag) => `--param ${flag}`,
  malformed: (flag) =>
    `--param takes [STATEMENT:]N=VALUE: N a parameter's number, VALUE a name (worker, lease, …), a number or text in single quotes; e.g. --param 1=5 --param 2=worker --param "3='default'"; not "${clip(flag)}"`,
};

/**
 * The page's: a binding as its statement's Parameters row shows it, `$3 = 'lease2'` (the problem names the
 * statement); text from a link or a saved draft that is no binding, as the link's params= holds it.
 */
export const ROW_SYNTAX: BindingSyntax = {
  written: (_role, position, value) => `$${position} = ${value}`,
  unread: (flag) => `parameter ${flag}`,
  malformed: (flag) => `parameter ${clip(flag)}: not of the form N=VALUE`,
};

/** A binding read, as a caller's syntax writes it. */
export function writtenIn(syntax: BindingSyntax, binding: ParamBinding): string {
  return syntax.written(binding.role, binding.position, clip(readBinding(binding.flag).parts!.value));
}

/** Reads bindings, each `[STATEMENT:]N=VALUE`; a message names a binding in the caller's `syntax`. */
export function parseBindings(flags: readonly string[], syntax: BindingSyntax): BindingsChecked<ParamBindings> {
  const bindings: ParamBinding[] = [];
  for (const flag of flags) {
    const { roleWord, parts } = readBinding(flag);
    if (!Object.hasOwn(NAMED_VALUES, roleWord)) {
      return {
        ok: false,
        message: `${syntax.unread(clip(flag))}: "${clip(roleWord)}" is not a statement with parameters; the statements are the claim (no prefix), heartbeat:, work:, complete: and reaper:`,
      };
    }
    const role = roleWord as BindingRole;
    if (!parts) return { ok: false, role, message: syntax.malformed(flag) };
    const { position, value } = parts;
    const shown = syntax.written(role, position, clip(value));
    if (position < 1) return { ok: false, role, message: `${shown}: parameters are numbered from $1` };
    if (bindings.some((b) => b.role === role && b.position === position))
      return { ok: false, role, message: `${shown}: $${position} of the ${role} is bound twice` };
    const names = NAMED_VALUES[role];
    const named = Object.hasOwn(names, value) ? names[value] : undefined;
    const quoted = /^'(.*)'$/s.exec(value);
    let source: ParamSource;
    let type: Parameter['type'] = 'text';
    if (named) {
      source = named.value;
      type = named.type;
    } else if (/^-?\d+(\.\d+)?$/.test(value)) source = { constant: value };
    else if (quoted) source = { constant: quoted[1]! };
    else {
      const quote = syntax.written(role, position, `'${clip(value)}'`);
      const words = Object.keys(names);
      return {
        ok: false,
        role,
        message:
          words.length === 0
            ? `${shown}: unknown name "${clip(value)}"; the ${role} is given none of the lab's values by name: a number, or text in single quotes (${quote})`
            : `${shown}: unknown name "${clip(value)}"; the ${role}'s names are ${listWorkers(words)} (or a number, or text in single quotes: ${quote})`,
      };
    }
    bindings.push({ role, position, source, type, flag: `${rolePrefix(role)}${position}=${value}` });
  }
  return { ok: true, value: bindings };
}

/** A statement's bound values in $n order, as the engine sends them and as the analyzer types them. */
export interface BoundParameters {
  sources: ParamSource[];
  parameters: Parameter[];
}

/**
 * The statement's values as the bindings give them, or null when nothing binds this statement (the role's
 * own contract then). `used`: the $n the statement uses (sql/analyze parametersUsed). Each must be bound, and
 * each bound $n used: PostgreSQL refuses a statement given more values than it takes, and cannot tell the type
 * of one it skips. `shown` is the statement as a message's subject (its file; "it" where the message is
 * already the statement's), `syntax` how a binding is written.
 */
export function bindStatement(
  used: readonly number[],
  bindings: ParamBindings,
  role: BindingRole,
  shown: string,
  syntax: BindingSyntax,
): BindingsChecked<BoundParameters | null> {
  const own = bindings.filter((binding) => binding.role === role).sort((a, b) => a.position - b.position);
  // A statement the lab gives no values (a reaper) has none of a contract to fall back on: each $n it uses needs one.
  if (own.length === 0 && (used.length === 0 || LAB_VALUES[role].length > 0)) return { ok: true, value: null };
  const unbound = used.find((n) => !own.some((binding) => binding.position === n));
  if (unbound !== undefined) return { ok: false, message: `${shown} uses $${unbound}, which is given no value (${syntax.written(role, unbound, '…')})` };
  const unused = own.find((binding) => !used.includes(binding.position));
  if (unused) return { ok: false, message: `${writtenIn(syntax, unused)}: ${shown} does not use $${unused.position}` };
  const gap = Array.from({ length: used.length }, (_, i) => i + 1).find((n) => !used.includes(n));
  if (gap !== undefined) {
    return {
      ok: false,
      message: `${shown} uses ${used.map((n) => `$${n}`).join(', ')} but not $${gap}: PostgreSQL cannot tell the type of a parameter a statement skips; number them from $1`,
    };
  }
  if (role !== 'claim' && role !== 'reaper' && own[0]!.source !== 'run') {
    return {
      ok: false,
      message: `${writtenIn(syntax, own[0]!)}: a ${role === 'complete' ? 'completion' : role}'s $1 is its run (${syntax.written(role, 1, 'run')}): the lab finds the row a waiting write waits on by it`,
    };
  }
  return {
    ok: true,
    value: {
      sources: own.map((binding) => binding.source),
      parameters: own.map((binding) => ({ number: binding.position, name: binding.flag, type: binding.type })),
    },
  };
}

/** The binding that gives `source` to $`position` of `role`'s statement, as it is written (`2=lease`, `3='done'`). */
export function bindingFlag(role: BindingRole, position: number, source: ParamSource): string {
  const value = typeof source === 'string' ? VALUE_WORDS[source] : /^-?\d+(\.\d+)?$/.test(source.constant) ? source.constant : `'${source.constant}'`;
  return `${rolePrefix(role)}${position}=${value}`;
}

/** The key of the bindings in a lab link (store/your-sql-link.ts; cli/check.ts's witness links). */
export const PARAMS_KEY = 'params';

/**
 * The bindings as a link field's value, readable (`1=1,2=worker,3='a b'` percent-encoded but for `=`, `:` and
 * `,`): comma-separated, a comma or "%" inside a binding's text escaped once more, so splitBindings, given
 * the field as the link decodes it, gets each binding back exactly.
 */
export function encodeBindings(flags: readonly string[]): string {
  const joined = flags.map((flag) => flag.replace(/%/g, '%25').replace(/,/g, '%2C')).join(',');
  return encodeURIComponent(joined).replace(/%2C/g, ',').replace(/%3D/g, '=').replace(/%3A/g, ':');
}

/** The bindings of a link field encodeBindings wrote, once the link has decoded it; null when a part is not properly escaped. */
export function splitBindings(value: string): string[] | null {
  if (value === '') return [];
  try {
    return value.split(',').map((part) => decodeURIComponent(part));
  } catch {
    return null;
  }
}
