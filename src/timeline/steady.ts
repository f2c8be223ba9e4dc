/**
 * Keeps what did not move. layoutTimeline() builds every mark, bar and tick afresh, so after a step each
 * layer of the drawing would get new objects and React would compare every element's attributes again,
 * although a step adds one mark and moves little else. steady() hands back the previous layout's objects
 * wherever the new ones hold the same values, so the memoised layers and items in TimelineSvg skip all
 * that did not change: a step costs about what it draws.
 */

type Keyed = { step: number };

function hasStep(value: unknown): value is Keyed {
  return typeof value === 'object' && value !== null && typeof (value as { step?: unknown }).step === 'number';
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function steadyArray(previous: readonly unknown[], next: readonly unknown[]): readonly unknown[] {
  // Items that stand for a step are matched by it (a zoomed-in view slides, so indexes shift); others by place.
  let byStep: Map<number, unknown> | null = null;
  let same = previous.length === next.length;
  const out = next.map((item, i) => {
    let before = previous[i];
    if (hasStep(item) && !(hasStep(before) && before.step === item.step)) {
      byStep ??= new Map(previous.filter(hasStep).map((p) => [p.step, p]));
      before = byStep.get(item.step);
    }
    const kept = before === undefined ? item : steady(before, item);
    if (kept !== previous[i]) same = false;
    return kept;
  });
  return same ? previous : out;
}

function steadyObject(previous: Record<string, unknown>, next: Record<string, unknown>): Record<string, unknown> {
  const keys = Object.keys(next);
  let same = keys.length === Object.keys(previous).length;
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const kept = key in previous ? steady(previous[key], next[key]) : next[key];
    if (kept !== previous[key]) same = false;
    out[key] = kept;
  }
  return same ? previous : out;
}

/** `next`, with every part (at any depth) that equals the same part of `previous` replaced by that part. */
export function steady<T>(previous: T, next: T): T {
  if (Object.is(previous, next)) return previous;
  if (Array.isArray(previous) && Array.isArray(next)) return steadyArray(previous, next) as T;
  if (isPlainObject(previous) && isPlainObject(next)) return steadyObject(previous, next) as T;
  return next;
}
