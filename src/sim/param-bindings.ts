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

/** The statements a binding binds: the claim's by default (`1=5`), a write's by its role (`complete:1=run`). */
export type BindingRole = 'claim' | WriteRole;

const BINDING_ROLES: readonly BindingRole[] = ['claim', 'heartbeat', 'work', 'complete'];

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
    Object.fromEntries(roleParams(role, true).map((value, i) => [VALUE_WORDS[value], { value, type: CONTRACTS[role].parameters[i]!.type }])),
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

export type BindingsChecked<T> = { ok: true; value: T } | { ok: false; message: string };

/** "claim" → "", "complete" → "complete:": how a binding names its statement. */
export function rolePrefix(role: BindingRole): string {
  return role === 'claim' ? '' : `${role}:`;
}

/** A binding's text in its parts (`[STATEMENT:]N=VALUE`), or null when it is not of that shape: the one reading of it. */
export function splitBinding(flag: string): { roleWord: string; position: number; value: string } | null {
  const match = /^(?:([a-z]+):)?(\d{1,5})=(.*)$/s.exec(flag);
  if (!match) return null;
  const [, roleWord = 'claim', digits, value = ''] = match;
  return { roleWord, position: Number(digits), value };
}

/** The statement a binding's text names ("complete:1=run" → complete, "1=5" → claim), as parseBindings reads it. */
export function bindingRoleOf(flag: string): string {
  return /^([a-z]+):\d/.exec(flag)?.[1] ?? 'claim';
}

/**
 * Reads bindings, each `[STATEMENT:]N=VALUE`. `word` leads each message as the caller's syntax names a
 * binding (the CLI's "--param ", the page's "parameter "); everything after it is the same everywhere.
 * `malformed` is the caller's own line for text that is not of that shape.
 */
export function parseBindings(flags: readonly string[], word: string, malformed: (flag: string) => string): BindingsChecked<ParamBindings> {
  const bindings: ParamBinding[] = [];
  for (const flag of flags) {
    const parts = splitBinding(flag);
    if (!parts) return { ok: false, message: malformed(flag) };
    const { roleWord, position, value } = parts;
    if (!Object.hasOwn(NAMED_VALUES, roleWord)) {
      return {
        ok: false,
        message: `${word}${clip(flag)}: "${clip(roleWord)}" is not a statement with parameters; the statements are the claim (no prefix), heartbeat:, work: and complete: (a reaper is given none)`,
      };
    }
    const role = roleWord as BindingRole;
    const prefix = rolePrefix(role);
    if (position < 1) return { ok: false, message: `${word}${clip(flag)}: parameters are numbered from $1` };
    if (bindings.some((b) => b.role === role && b.position === position))
      return { ok: false, message: `${word}${clip(flag)}: $${position} of the ${role} is bound twice` };
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
      return {
        ok: false,
        message: `${word}${clip(flag)}: unknown name "${clip(value)}"; the ${role}'s names are ${listWorkers(Object.keys(names))} (or a number, or text in single quotes: ${prefix}${position}='${clip(value)}')`,
      };
    }
    bindings.push({ role, position, source, type, flag: `${prefix}${position}=${value}` });
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
 * of one it skips. `shown` names the statement in a message (its file, "your claim").
 */
export function bindStatement(
  used: readonly number[],
  bindings: ParamBindings,
  role: BindingRole,
  shown: string,
  word: string,
): BindingsChecked<BoundParameters | null> {
  const own = bindings.filter((binding) => binding.role === role).sort((a, b) => a.position - b.position);
  if (own.length === 0) return { ok: true, value: null };
  const unbound = used.find((n) => !own.some((binding) => binding.position === n));
  const prefix = rolePrefix(role);
  if (unbound !== undefined) return { ok: false, message: `${shown}: uses $${unbound}, which no ${word}${prefix}${unbound}=… binds` };
  const unused = own.find((binding) => !used.includes(binding.position));
  if (unused) return { ok: false, message: `${word}${clip(unused.flag)}: ${shown} does not use $${unused.position}` };
  const gap = Array.from({ length: used.length }, (_, i) => i + 1).find((n) => !used.includes(n));
  if (gap !== undefined) {
    return {
      ok: false,
      message: `${shown}: uses ${used.map((n) => `$${n}`).join(', ')} but not $${gap}: PostgreSQL cannot tell the type of a parameter a statement skips; number them from $1`,
    };
  }
  if (role !== 'claim' && own[0]!.source !== 'run') {
    return {
      ok: false,
      message: `${word}${clip(own[0]!.flag)}: a ${role === 'complete' ? 'completion' : role}'s $1 is its run (${word}${role}:1=run): the lab finds the row a waiting write waits on by it`,
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
