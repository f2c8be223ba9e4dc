/**
 * For memo() on components fed flat objects that the store's read-outs rebuild on every step (a worker's
 * card, a row of the runs table): equal field by field is equal, whatever the object's identity.
 */
export function sameFields<T extends object>(a: T, b: T): boolean {
  if (a === b) return true;
  const keys = Object.keys(a) as (keyof T)[];
  return keys.length === Object.keys(b).length && keys.every((key) => Object.is(a[key], b[key]));
}
