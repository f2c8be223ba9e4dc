import type { StorageLike } from '../../src/persist/saved';

/** localStorage in memory, for tests of what the page saves and reads: `data` is what is stored. */
export class MemoryStorage implements StorageLike {
  readonly data: Map<string, string>;
  constructor(initial: Record<string, string> = {}) {
    this.data = new Map(Object.entries(initial));
  }
  getItem(key: string): string | null {
    return this.data.get(key) ?? null;
  }
  setItem(key: string, value: string): void {
    this.data.set(key, value);
  }
  removeItem(key: string): void {
    this.data.delete(key);
  }
}
