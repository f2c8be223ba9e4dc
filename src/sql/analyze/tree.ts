/**
 * Reading PostgreSQL's JSON parse tree: every node is an object with one key, its type
 * ({"SelectStmt": {...}}); lists are arrays of nodes. Just enough to walk it and to read names.
 */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** A node's type and body, when `value` is a node ({"Type": {...}}). */
export function nodeOf(value: Json | undefined): { type: string; body: JsonObject } | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  if (keys.length !== 1) return null;
  const type = keys[0]!;
  const body = value[type];
  if (!body || typeof body !== 'object' || Array.isArray(body) || !/^[A-Z]/.test(type)) return null;
  return { type, body };
}

export function body(value: Json | undefined, type: string): JsonObject | null {
  const node = nodeOf(value);
  return node?.type === type ? node.body : null;
}

export function list(value: Json | undefined): Json[] {
  return Array.isArray(value) ? value : [];
}

export function text(value: Json | undefined): string | null {
  return typeof value === 'string' ? value : null;
}

/** The names in a list of String nodes (a column reference's fields, a function's name). */
export function names(value: Json | undefined): string[] {
  return list(value).map((item) => {
    const string = body(item, 'String');
    if (string) return text(string.sval) ?? '';
    return body(item, 'A_Star') ? '*' : '';
  });
}

/**
 * Every node under `root` (root included), depth first, with the chain of nodes above it (outermost first)
 * and the key under which each was found. `visit` returning false skips the node's children.
 */
export interface Visit {
  type: string;
  body: JsonObject;
  /** The nodes above, outermost first, with the key in the parent's body that led to each. */
  ancestors: readonly { type: string; body: JsonObject; key: string }[];
}

export function walk(root: Json, visit: (node: Visit) => boolean | undefined): void {
  const ancestors: { type: string; body: JsonObject; key: string }[] = [];
  const go = (value: Json, key: string) => {
    if (Array.isArray(value)) {
      for (const item of value) go(item, key);
      return;
    }
    const node = nodeOf(value);
    if (!node) {
      if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) go(v, k);
      return;
    }
    if (visit({ type: node.type, body: node.body, ancestors }) === false) return;
    ancestors.push({ type: node.type, body: node.body, key });
    for (const [k, v] of Object.entries(node.body)) go(v, k);
    ancestors.pop();
  };
  go(root, '');
}
