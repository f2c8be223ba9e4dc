/**
 * Every place the lab relies on PGlite's internals rather than its documented API, gathered here so an
 * upgrade of @electric-sql/pglite has one file to re-check. tests/unit/pglite-internals.test.ts is pinned to
 * PGLITE_VERSION: it fails on any other version until each piece below has been checked against it.
 *
 * - LabPGlite overrides `_initArrayTypes` (PGlite's start-up query of the array types) and fills PGlite's
 *   `serializers` and `parsers` itself, on first use.
 * - dataDirInMemory subclasses `MemoryFS` and adds an Emscripten `preRun` that places the data directory's
 *   files (FS.mkdirTree, FS.createDataFile with canOwn) before Postgres starts.
 * - BundleBlob relies on PGlite reading `fsBundle` only through arrayBuffer() and keeping views of it.
 * - tarEntries reads the ustar archives PGlite's dumpDataDir writes (and scripts/build-datadir.ts keeps).
 */
import type { PGlite, QueryOptions, Results, Transaction } from '@electric-sql/pglite';
import { sqlText } from '../sql/registry';

/** The PGlite version every piece here was checked against (package.json pins it). */
export const PGLITE_VERSION = '0.5.17';

export type PGliteClassModule = Pick<typeof import('@electric-sql/pglite'), 'PGlite' | 'types'>;
type MemoryFSModule = Pick<typeof import('@electric-sql/pglite'), 'PGlite' | 'MemoryFS'>;

const labClasses = new WeakMap<PGliteClassModule['PGlite'], typeof PGlite>();

export function labPGliteClass({ PGlite: Base, types }: PGliteClassModule): typeof PGlite {
  const known = labClasses.get(Base);
  if (known) return known;
  class LabPGlite extends Base {
    private arrayTypes: Promise<void> | null = null;

    /** Called by PGlite at start (skipped: see createLabPGlite) and by refreshArrayTypes() (forced). */
    override async _initArrayTypes(options: { force?: boolean } = {}): Promise<void> {
      if (options.force) {
        this.arrayTypes = this.readArrayTypes();
        await this.arrayTypes;
      }
    }

    override async query<T>(query: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
      await this.withArrayTypes();
      return super.query<T>(query, params, options);
    }

    override async exec(query: string, options?: QueryOptions): Promise<Results[]> {
      await this.withArrayTypes();
      return super.exec(query, options);
    }

    override async transaction<T>(callback: (tx: Transaction) => Promise<T>): Promise<T> {
      await this.withArrayTypes();
      return super.transaction(callback);
    }

    private withArrayTypes(): Promise<void> {
      if (!this.arrayTypes) {
        this.arrayTypes = this.readArrayTypes();
        // Failed (PGlite closing, say): the next query() asks again instead of failing for good.
        this.arrayTypes.catch(() => {
          this.arrayTypes = null;
        });
      }
      return this.arrayTypes;
    }

    /** What PGlite does at start: a parser and a serializer for each array type, from its element type's. */
    private async readArrayTypes(): Promise<void> {
      const found = await super.query<{ oid: number; typarray: number }>(sqlText('array-types-pglite'));
      for (const { oid, typarray } of found.rows) {
        this.serializers[typarray] = (value) => types.arraySerializer(value, this.serializers[oid], typarray);
        // A type without a parser of its own (undefined here) keeps its elements as text, as in PGlite.
        this.parsers[typarray] = (text) => types.arrayParser(text, this.parsers[oid]!, typarray);
      }
    }
  }
  labClasses.set(Base, LabPGlite);
  return LabPGlite;
}

export interface TarEntry {
  name: string;
  directory: boolean;
  data: Uint8Array;
}

/**
 * The entries of a ustar archive, their data as views of the archive's bytes. A damaged archive is refused
 * (a header whose checksum does not match, an archive cut short of its end): the service worker's offline copy
 * keeps the data directory unpacked, with no gzip check over it, and a refusal makes the boot read it again
 * from the network.
 */
export function tarEntries(tar: Uint8Array): TarEntry[] {
  const decoder = new TextDecoder();
  const entries: TarEntry[] = [];
  const field = (header: Uint8Array, from: number, to: number) => decoder.decode(header.subarray(from, to)).replace(/\0.*$/s, '').trim();
  for (let offset = 0; ; ) {
    if (offset + 512 > tar.length) throw new Error(`the archive is cut short (${tar.length} bytes, no end-of-archive block)`);
    const header = tar.subarray(offset, offset + 512);
    const nameEnd = header.indexOf(0);
    const name = decoder.decode(header.subarray(0, nameEnd < 0 || nameEnd > 100 ? 100 : nameEnd));
    if (name === '') break;
    if (headerChecksum(header) !== Number.parseInt(field(header, 148, 156) || '-1', 8)) throw new Error(`the archive's header at byte ${offset} is damaged`);
    const size = Number.parseInt(field(header, 124, 136) || '0', 8);
    if (offset + 512 + size > tar.length) throw new Error(`the archive is cut short (${tar.length} bytes, ${name} ends past it)`);
    const directory = header[156] === 0x35; // '5'
    entries.push({ name: name.replace(/\/$/, ''), directory, data: tar.subarray(offset + 512, offset + 512 + size) });
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return entries;
}

/** A ustar header's checksum: the sum of its bytes, the checksum field counted as spaces. */
function headerChecksum(header: Uint8Array): number {
  let sum = 8 * 0x20;
  for (let i = 0; i < 148; i++) sum += header[i]!;
  for (let i = 156; i < 512; i++) sum += header[i]!;
  return sum;
}

/** The subset of Emscripten's file system this boot uses. */
interface EmscriptenFiles {
  mkdirTree(path: string): void;
  createDataFile(parent: string, name: string, data: Uint8Array, canRead: boolean, canWrite: boolean, canOwn: boolean): unknown;
}

/**
 * PGlite's in-memory file system with the data directory already in it. PGlite's own `loadDataDir` copies
 * the archive (to unpack it, and again into each file, ~8.5 MB); here each file is a view of the tar's
 * bytes (Emscripten's "canOwn"), placed before Postgres starts, and PGlite finds an existing database.
 */
export function dataDirInMemory(
  { MemoryFS, PGlite: Base }: MemoryFSModule,
  entries: readonly TarEntry[],
  skip: (name: string) => boolean,
): InstanceType<typeof MemoryFS> {
  const root = Base.paths.PGDATA;
  class DataDirInMemory extends MemoryFS {
    override async init(...args: Parameters<InstanceType<typeof MemoryFS>['init']>) {
      const { emscriptenOpts } = await super.init(...args);
      const place = ({ FS }: { FS: EmscriptenFiles }) => {
        FS.mkdirTree(root);
        for (const { name, directory, data } of entries) {
          if (skip(name)) continue;
          const path = `${root}/${name}`;
          if (directory) FS.mkdirTree(path);
          else {
            const slash = path.lastIndexOf('/');
            FS.createDataFile(path.slice(0, slash), path.slice(slash + 1), data, true, true, true);
          }
        }
      };
      return { emscriptenOpts: { ...emscriptenOpts, preRun: [...(emscriptenOpts.preRun ?? []), place] } };
    }
  }
  return new DataDirInMemory();
}

/**
 * PGlite's file bundle, handed over as the bytes themselves. PGlite reads `fsBundle` only through
 * `arrayBuffer()` and makes each of its files a view of that buffer. A real Blob would hand it a copy
 * (by way of the browser's blob store), which LabBundle.complete() could not fill in; this Blob is empty
 * and answers arrayBuffer() with our own buffer.
 */
export class BundleBlob extends Blob {
  constructor(private readonly contents: Uint8Array) {
    super([]);
  }

  override arrayBuffer(): Promise<ArrayBuffer> {
    const { buffer, byteOffset, byteLength } = this.contents;
    // A Node Buffer may be a slice of a larger pool: hand over exactly the bundle's bytes.
    return Promise.resolve(
      byteOffset === 0 && byteLength === buffer.byteLength ? (buffer as ArrayBuffer) : (buffer.slice(byteOffset, byteOffset + byteLength) as ArrayBuffer),
    );
  }
}
