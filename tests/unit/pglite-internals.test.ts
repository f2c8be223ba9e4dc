/**
 * The PGlite internals the lab relies on (src/db/pglite-internals.ts), pinned to the PGlite version they
 * were checked against: an upgrade fails the first test until each piece has been checked again, and the
 * others fail if a piece no longer does what the lab needs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { MemoryFS, PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { bootLab } from '../../src/db/pglite-boot';
import { BundleBlob, PGLITE_VERSION, tarEntries } from '../../src/db/pglite-internals';

/** A ustar archive of these entries (names under 100 characters), as tar writes them. */
function ustar(entries: { name: string; data?: string }[]): Uint8Array {
  const blocks: Uint8Array[] = [];
  const encoder = new TextEncoder();
  for (const { name, data } of entries) {
    const header = new Uint8Array(512);
    const body = encoder.encode(data ?? '');
    header.set(encoder.encode(name), 0);
    header.set(encoder.encode(`${body.length.toString(8).padStart(11, '0')}\0`), 124);
    header[156] = data === undefined ? 0x35 : 0x30;
    header.set(encoder.encode('ustar\0'), 257);
    // The checksum: every byte of the header, its own field counted as spaces.
    header.fill(0x20, 148, 156);
    const sum = header.reduce((total, byte) => total + byte, 0);
    header.set(encoder.encode(`${sum.toString(8).padStart(6, '0')}\0 `), 148);
    blocks.push(header, body, new Uint8Array((512 - (body.length % 512)) % 512));
  }
  blocks.push(new Uint8Array(1024));
  const out = new Uint8Array(blocks.reduce((size, block) => size + block.length, 0));
  let offset = 0;
  for (const block of blocks) {
    out.set(block, offset);
    offset += block.length;
  }
  return out;
}

describe('PGlite internals', () => {
  it(`are checked against the installed PGlite (${PGLITE_VERSION})`, () => {
    const installed = JSON.parse(readFileSync(join(__dirname, '../../node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string };
    const pinned = (JSON.parse(readFileSync(join(__dirname, '../../package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies[
      '@electric-sql/pglite'
    ];
    expect(installed.version).toBe(PGLITE_VERSION);
    expect(pinned).toBe(PGLITE_VERSION);
  });

  it('PGlite still has the hooks the lab overrides or extends', () => {
    expect(typeof (PGlite.prototype as unknown as { _initArrayTypes?: unknown })._initArrayTypes).toBe('function');
    expect(typeof MemoryFS.prototype.init).toBe('function');
  });

  it('the lab starts from its data directory (the MemoryFS subclass) and still turns arrays in query() results into arrays (its own array types)', async () => {
    const { db, source, fallbackReason } = await bootLab();
    try {
      expect(fallbackReason).toBeNull();
      expect(source).toBe('data-dir');
      const { rows } = await db.pg.query<{ a: number[]; t: string[] }>("SELECT ARRAY[1, 2]::int[] AS a, ARRAY['x', 'y']::text[] AS t");
      expect(rows[0]).toEqual({ a: [1, 2], t: ['x', 'y'] });
    } finally {
      await db.close();
    }
  }, 60_000);

  it('the tar reader reads files and directories, each file a view of the archive', () => {
    const tar = ustar([{ name: 'base/' }, { name: 'base/1/PG_VERSION', data: '17\n' }, { name: 'global/pg_control', data: 'x'.repeat(700) }]);
    const entries = tarEntries(tar);
    expect(entries.map(({ name, directory, data }) => [name, directory, data.length])).toEqual([
      ['base', true, 0],
      ['base/1/PG_VERSION', false, 3],
      ['global/pg_control', false, 700],
    ]);
    expect(entries[1]!.data.buffer).toBe(tar.buffer);
    expect(new TextDecoder().decode(entries[1]!.data)).toBe('17\n');
  });

  it('the tar reader refuses a damaged archive: a header that does not match its checksum, an archive cut short', () => {
    const tar = ustar([
      { name: 'base/1/PG_VERSION', data: '17\n' },
      { name: 'global/pg_control', data: 'x'.repeat(700) },
    ]);
    expect(tarEntries(tar)).toHaveLength(2);
    const flipped = tar.slice();
    flipped[1024 + 3] = flipped[1024 + 3]! ^ 0x01;
    expect(() => tarEntries(flipped)).toThrow(/header at byte 1024 is damaged/);
    // Cut inside a file, and cut at a file's end (before the end-of-archive block).
    expect(() => tarEntries(tar.subarray(0, 1024 + 512 + 300))).toThrow(/cut short .*global\/pg_control ends past it/);
    expect(() => tarEntries(tar.subarray(0, 1024 + 512 + 1024))).toThrow(/cut short .*no end-of-archive block/);
  });

  it("the bundle Blob hands PGlite the bundle's own bytes, not a copy (so they can be filled in later)", async () => {
    const bytes = new Uint8Array([1, 2, 3, 4]);
    expect(await new BundleBlob(bytes).arrayBuffer()).toBe(bytes.buffer);
    const slice = new Uint8Array(bytes.buffer, 1, 2);
    expect([...new Uint8Array(await new BundleBlob(slice).arrayBuffer())]).toEqual([2, 3]);
  });
});
