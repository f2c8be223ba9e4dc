/**
 * The session-level advisory locks a spec step's statement takes or releases, read from its parse tree, for
 * the engine that follows a spec's sessions on one PGlite (src/db/pglite-spec.ts). PGlite is one backend:
 * it grants every session's request at once, so the engine keeps which emulated session holds which lock
 * and sends a statement only when PostgreSQL would not make it wait. It can only do that for a key it can
 * read from the text: every argument a constant.
 */
import { body, type Json, type JsonObject, list, names, nodeOf, walk } from './tree';

type AdvisoryAction = 'lock' | 'try' | 'unlock';
type AdvisoryMode = 'ExclusiveLock' | 'ShareLock';

export interface AdvisoryCall {
  /** The function as written (pg_advisory_lock_shared …), to name it and to call it again on a replay. */
  name: string;
  action: AdvisoryAction;
  /** The lock mode pg_locks shows for it. */
  mode: AdvisoryMode;
  /** The key as pg_locks shows it, "classid:objid:objsubid" (one bigint key: objsubid 1; two int keys: 2). */
  key: string;
  /** The arguments as written, for a message and a replay's compensation. */
  args: string[];
}

export interface AdvisoryUse {
  calls: AdvisoryCall[];
  /** pg_advisory_unlock_all(): every session-level advisory lock the backend holds. */
  unlocksAll: boolean;
  /**
   * Each call evaluated exactly once, in order: a SELECT of them with no FROM, WHERE or anything else. Only
   * such a statement can be replayed (its calls then undone one for one); one in a WHERE is evaluated once
   * per row, as often as the plan says.
   */
  once: boolean;
}

const ADVISORY = /^pg_(try_)?advisory_/;
const SESSION_LEVEL = /^pg_(try_)?advisory_(lock|unlock)(_shared)?$/;

function constantInteger(arg: Json): bigint | null {
  const constant = body(arg, 'A_Const');
  if (!constant) return null;
  const ival = constant.ival as JsonObject | undefined;
  if (ival && typeof ival === 'object') return BigInt(typeof ival.ival === 'number' ? ival.ival : 0);
  const fval = (constant.fval as JsonObject | undefined)?.fval;
  return typeof fval === 'string' && /^-?\d+$/.test(fval) ? BigInt(fval) : null;
}

/** The key as pg_locks shows it, or null when the arguments are no key of the function's. */
function keyOf(values: bigint[]): string | null {
  const uint32 = (value: bigint) => BigInt.asUintN(32, value).toString();
  if (values.length === 1) {
    const [k] = values as [bigint];
    if (k < -(2n ** 63n) || k >= 2n ** 63n) return null;
    const unsigned = BigInt.asUintN(64, k);
    return `${(unsigned >> 32n).toString()}:${uint32(unsigned)}:1`;
  }
  if (values.length === 2 && values.every((v) => v >= -(2n ** 31n) && v < 2n ** 31n)) return `${uint32(values[0]!)}:${uint32(values[1]!)}:2`;
  return null;
}

/**
 * The advisory locks a statement uses, null when it uses none; a string when the engine cannot follow them
 * (the one-line reason).
 */
export function advisoryUse(stmt: Json): AdvisoryUse | string | null {
  const calls: AdvisoryCall[] = [];
  let unlocksAll = false;
  let why: string | null = null;
  walk(stmt, (visit) => {
    if (visit.type !== 'FuncCall' || why) return !why;
    const name = names(visit.body.funcname).at(-1) ?? '';
    if (!ADVISORY.test(name)) return true;
    if (name === 'pg_advisory_unlock_all') {
      unlocksAll = true;
      return true;
    }
    if (!SESSION_LEVEL.test(name)) {
      why = `it calls ${name}(): a transaction-level advisory lock goes with the transaction the lab parks as a prepared one, where the one PGlite backend would wait for it forever`;
      return false;
    }
    const values = list(visit.body.args).map(constantInteger);
    const key = values.every((v) => v !== null) ? keyOf(values as bigint[]) : null;
    if (!key) {
      why = `it calls ${name}() with a key that is not written as constants: the lab decides from the text which session holds which advisory lock`;
      return false;
    }
    calls.push({
      name,
      action: name.startsWith('pg_try_') ? 'try' : name.includes('unlock') ? 'unlock' : 'lock',
      mode: name.endsWith('_shared') ? 'ShareLock' : 'ExclusiveLock',
      key,
      args: (values as bigint[]).map(String),
    });
    return true;
  });
  if (why) return why;
  if (calls.length === 0 && !unlocksAll) return null;
  const node = nodeOf(stmt);
  const select = node?.type === 'SelectStmt' ? node.body : null;
  const onlyTargets = select !== null && Object.keys(select).every((k) => ['targetList', 'limitOption', 'op'].includes(k)) && select.op === 'SETOP_NONE';
  const direct = list(select?.targetList).filter((target) => ADVISORY.test(names(body(body(target, 'ResTarget')?.val, 'FuncCall')?.funcname).at(-1) ?? ''));
  const once = onlyTargets && direct.length === calls.length + (unlocksAll ? 1 : 0);
  if (!once && (unlocksAll || calls.some((call) => call.action === 'unlock'))) {
    return 'it releases an advisory lock where it may be evaluated other than once (pass a SELECT of the calls alone)';
  }
  return { calls, unlocksAll, once };
}

/**
 * The statement for a NOWAIT probe: each advisory call replaced by the value it gives once the engine lets
 * the statement run (pg_advisory_lock: a void; the try forms: true, the key being no other session's), so
 * that the probe, which is rolled back, does not take a session lock, which a rollback keeps.
 */
export function withoutAdvisoryCalls(stmt: Json): Json {
  const copy = structuredClone(stmt);
  const replace = (value: Json): void => {
    if (Array.isArray(value)) {
      for (const item of value) replace(item);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const call = (value as JsonObject).FuncCall as JsonObject | undefined;
    const name = call ? (names(call.funcname).at(-1) ?? '') : '';
    if (call && ADVISORY.test(name)) {
      delete (value as JsonObject).FuncCall;
      if (name.startsWith('pg_try_')) (value as JsonObject).A_Const = { boolval: { boolval: true } };
      else
        (value as JsonObject).TypeCast = {
          arg: { A_Const: { sval: { sval: '' } } },
          typeName: { names: [{ String: { sval: 'void' } }], typemod: -1 },
        };
      return;
    }
    for (const child of Object.values(value)) replace(child);
  };
  replace(copy);
  return copy;
}
