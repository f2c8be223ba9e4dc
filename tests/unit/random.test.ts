/** The one seeded random module and hash (src/sim/random.ts) that every draw in the lab comes from. */
import { describe, expect, it } from 'vitest';
import { between, fnv1a, fnv1aHex, pick, seededRandom, shuffled } from '../../src/sim/random';

describe('seeded draws', () => {
  it('the same seed draws the same numbers; another seed, others', () => {
    const draw = (seed: number) => Array.from({ length: 5 }, seededRandom(seed));
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
  });

  it('between reaches both ends and nothing outside them', () => {
    const random = seededRandom(1);
    const seen = new Set(Array.from({ length: 500 }, () => between(random, 3, 6)));
    expect([...seen].sort()).toEqual([3, 4, 5, 6]);
  });

  it('shuffled is a permutation of a copy, and leaves the items as they were', () => {
    const items = ['a', 'b', 'c', 'd', 'e', 'f'] as const;
    const orders = new Set<string>();
    for (let seed = 0; seed < 50; seed++) {
      const order = shuffled(seededRandom(seed), items);
      expect([...order].sort()).toEqual([...items]);
      orders.add(order.join(''));
    }
    expect(items.join('')).toBe('abcdef');
    expect(orders.size).toBeGreaterThan(40);
  });

  it('pick refuses an empty list', () => {
    expect(() => pick(seededRandom(1), [])).toThrow(/empty/);
  });
});

describe('FNV-1a, 32 bits', () => {
  it("gives the algorithm's published values", () => {
    expect(fnv1a('')).toBe(0x811c9dc5);
    expect(fnv1a('a')).toBe(0xe40c292c);
    expect(fnv1a('foobar')).toBe(0xbf9cf968);
    expect(fnv1aHex('')).toBe('811c9dc5');
  });
});
