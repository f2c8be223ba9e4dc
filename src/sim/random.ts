/**
 * The lab's only randomness, and its only hash: every draw (the swarm's scenarios, the quiz's choice
 * orders and parameters, a finishing policy's picks, a sampled exploration) comes from a seeded generator
 * here, so the same seed gives the same draw everywhere.
 */

/** A small seeded generator (mulberry32). */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** A whole number from `low` to `high`, both included. */
export function between(random: () => number, low: number, high: number): number {
  return low + Math.floor(random() * (high - low + 1));
}

/** A copy of the items in a random order (Fisher–Yates). */
export function shuffled<T>(random: () => number, items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = between(random, 0, i);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** FNV-1a over the text's UTF-16 code units, 32 bits: a seed or a short fingerprint, never a secret. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

/** fnv1a as 8 hex digits. */
export function fnv1aHex(text: string): string {
  return fnv1a(text).toString(16).padStart(8, '0');
}
