/**
 * Starts the lab's database on PGlite. One function for the browser's Web Worker and for Node, so
 * start-up work is done in one place.
 *
 * The fast path loads a data directory built ahead of time (scripts/build-datadir.ts: initdb, the lab's
 * schema, a clean shutdown, ~1 MB gzip) instead of running initdb (1.2–2.4 s in Node, ~3 s in a
 * browser). It loads PGlite's JavaScript, compiles its wasm and reads its file bundle and the data
 * directory side by side (downloads, in a browser), then hands them all to PGlite.create(). The data
 * directory's files are placed in Postgres's in-memory file system as views of the archive's bytes,
 * not copied out of it. In the browser the bundle can wait: the data directory carries the two files of
 * it that the lab reads, and the rest is filled in later (BootOptions.bundle).
 *
 * If the data directory is missing, unreadable, stale (built from another schema.sql) or Postgres will
 * not start from it, the lab starts the slow way and the result says why (`source`, `fallbackReason`);
 * nothing is printed.
 */
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { fnv1aHex } from '../sim/random';
import { sqlText } from '../sql/registry';
import { PGliteLab } from './pglite-lab';
import { BundleBlob, dataDirInMemory, type TarEntry, tarEntries } from './pglite-internals';
import { createLabPGlite, labStartParams, loadPGlite } from './pglite-open';

/**
 * The pre-built data directory. In a Vite build this becomes the URL of a hashed asset next to the
 * bundle (so the app works from any sub-path of any static server); in Node it is the file itself.
 */
export const LAB_DATA_DIR_URL = new URL('../../.cache/lab-datadir.tar.gz', import.meta.url);
/**
 * A cluster as initdb leaves it (scripts/build-datadir.ts builds it with LAB_DATA_DIR_URL, beside it), for
 * `spec` on PGlite in Node. Named relative to the lab's file, not as a literal of its own: Vite would make a
 * literal an asset of the page, which has no use for it.
 */
const SPEC_DATA_DIR_NAME = 'spec-datadir.tar.gz';
/** PGlite's own files: the same assets Vite emits for PGlite, fetched early by us in the browser. */
const PGLITE_WASM_URL = new URL('../../node_modules/@electric-sql/pglite/dist/pglite.wasm', import.meta.url);
const PGLITE_DATA_URL = new URL('../../node_modules/@electric-sql/pglite/dist/pglite.data', import.meta.url);

type DataDirSource = URL | string | Blob | ArrayBuffer | Uint8Array;

export interface BootOptions {
  /** The data directory to start from: a URL (http or file), or the bytes (tar or tar.gz). Null: run initdb. Default: LAB_DATA_DIR_URL. */
  dataDir?: DataDirSource | null;
  /** false: when the data directory cannot be used, throw (saying why) instead of running initdb. Default true. */
  fallback?: boolean;
  /**
   * PGlite's file bundle (pglite.data, 6 MB: time zones, text search, extensions, initdb's files).
   * 'full' (the default): all of it before Postgres starts. 'lab': only the files the lab's own statements
   * read, which the data directory carries (LAB_BUNDLE_DIR); the rest comes with completeBundle(), which
   * must have resolved before anything else runs (the learner's SQL console, say). Starts sooner: in
   * Chromium, the bundle's download and copies were ~60 ms of a ~1 s start on two cores.
   */
  bundle?: 'full' | 'lab';
}

export interface LabBoot {
  db: PGliteLab;
  /** 'data-dir': started from the pre-built data directory. 'initdb': created from scratch (slow). */
  source: 'data-dir' | 'initdb';
  /** Why a data directory that was asked for was not used; null when it was, or none was asked for. */
  fallbackReason: string | null;
  /**
   * Files of the lab's saved copy (the service worker's offline copy) that could not be used, each with why:
   * each was discarded from the copy and read from the network instead. Empty on a start that found
   * nothing wrong.
   */
  recovered: string[];
  /** Milliseconds from the call until the database answered. */
  ms: number;
  /** Where the time went, in milliseconds since the call: files ready (downloaded, compiled, unpacked), Postgres started. */
  marks: { files: number; started: number };
  /** Resolves once every file of PGlite's bundle is in place: at once, unless the boot asked for bundle 'lab' and got it. */
  completeBundle: () => Promise<void>;
}

export async function bootLab(options: BootOptions = {}): Promise<LabBoot> {
  const started = performance.now();
  const { recovered, pglite, wasm, dataDir } = (options.dataDir === undefined && takeEarlyRequests()) || requestBootFiles(options.dataDir);
  const wantsLabBundle = options.bundle === 'lab' && options.dataDir !== null;
  const fullBundle = wantsLabBundle ? null : bundleBytes();
  const [pgliteModule, module, read] = await Promise.all([pglite, wasm, dataDir]);
  // The lab's part of the bundle, from the data directory; without it, the whole bundle after all.
  const bundle = (!fullBundle && read?.entries && labBundle(read.entries)) || new WholeBundle(await (fullBundle ?? bundleBytes()));
  const engine: EngineFiles = { ...(module ? { pgliteWasmModule: module } : {}), ...(bundle.bytes ? { fsBundle: new BundleBlob(bundle.bytes) } : {}) };
  const since = () => Math.round(performance.now() - started);
  const marks = { files: since(), started: 0 };
  markStart('files-in');
  const onStarted = () => {
    marks.started = since();
    markStart('postgres-started');
  };
  const completeBundle = () => bundle.complete();
  let fallbackReason = read?.error ?? null;
  if (read?.entries) {
    try {
      const db = await openFromDataDir(pgliteModule, read.entries, engine, onStarted);
      return { db, source: 'data-dir', fallbackReason: null, recovered, ms: since(), marks, completeBundle };
    } catch (startError) {
      fallbackReason = messageOf(startError);
    }
  }
  if (options.fallback === false && fallbackReason !== null) throw new Error(`the data directory was not used: ${fallbackReason}`);
  // initdb reads much of the bundle (postgres.bki, the time zones, ...): all of it first.
  await bundle.complete();
  const pg = await createLabPGlite(pgliteModule, { ...engine, startParams: labStartParams(pgliteModule.PGlite) });
  onStarted();
  const db = await PGliteLab.open(pg);
  return { db, source: 'initdb', fallbackReason, recovered, ms: since(), marks, completeBundle };
}

type DataDirRead = Awaited<ReturnType<typeof readDataDirEntries>>;

/** What a boot waits for before it can start Postgres, each requested as soon as the boot is asked for. */
interface BootFiles {
  /** Files of the saved copy that had to be read again from the network (LabBoot.recovered). */
  recovered: string[];
  pglite: Promise<PGliteModule>;
  wasm: Promise<WebAssembly.Module | null>;
  dataDir: Promise<DataDirRead> | null;
}

/** Everything is requested at once: in a browser PGlite's script and its wasm compile while the rest downloads. */
function requestBootFiles(dataDir: DataDirSource | null | undefined): BootFiles {
  const recovered: string[] = [];
  return {
    recovered,
    pglite: loadPGlite().then(marked('pglite-script')),
    wasm: compiledWasm(recovered).then(marked('wasm-compiled')),
    dataDir: dataDir === null ? null : readDataDirEntries(dataDir, recovered).then(marked('data-dir-read')),
  };
}

let earlyRequests: BootFiles | null = null;

/**
 * Requests the default boot's files (the build's data directory) now, for the next bootLab that would read
 * them. The browser's engine worker calls it before its own modules are evaluated (src/webworker/engine-early.ts):
 * the downloads, and the service worker's answers, then overlap that evaluation instead of following it.
 */
export function requestBootFilesEarly(): void {
  earlyRequests ??= requestBootFiles(undefined);
}

/** The early requests, once: a later boot (live mode's fallback, say) requests its own. */
function takeEarlyRequests(): BootFiles | null {
  const taken = earlyRequests;
  earlyRequests = null;
  return taken;
}

/** The database alone, for callers that do not care how it started. */
export async function bootLabDatabase(options: BootOptions = {}): Promise<PGliteLab> {
  return (await bootLab(options)).db;
}

/**
 * What the data directory records about the schema it holds: a hash of the schema SQL this code would
 * create. A data directory built from another schema.sql is not used. The build writes it twice: in the
 * file LAB_SCHEMA_FILE at the top of the data directory (Postgres ignores files it does not know), which
 * the boot reads from the archive before starting Postgres, and as the comment on schema `sim`.
 */
export function labSchemaComment(): string {
  return `lease-lab schema ${fnv1aHex(sqlText('schema'))}`;
}

/** The data directory's record of its schema (see labSchemaComment). */
export const LAB_SCHEMA_FILE = 'lease-lab-schema';

type EngineFiles = Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>;

async function openFromDataDir(pglite: PGliteModule, entries: readonly TarEntry[], files: EngineFiles, onStarted: () => void): Promise<PGliteLab> {
  let pg: PGlite;
  try {
    pg = await createLabPGlite(pglite, {
      ...files,
      // initdb never runs when a data directory is present; an empty module stops PGlite fetching its wasm.
      initdbWasmModule: emptyWasmModule(),
      // The files of LAB_BUNDLE_DIR are the bundle's, not Postgres's.
      fs: dataDirInMemory(pglite, entries, (name) => bundleEntryName(name) !== null),
      startParams: labStartParams(pglite.PGlite),
    });
  } catch (error) {
    throw new Error(`Postgres did not start from it: ${messageOf(error)}`);
  }
  onStarted();
  try {
    return await PGliteLab.open(pg, { schemaPresent: true });
  } catch (error) {
    await pg.close().catch(() => undefined);
    throw error;
  }
}

/**
 * PGlite started on the pre-built fresh cluster (SPEC_DATA_DIR_NAME): no initdb, ~2.5 s of a ~3 s start.
 * Null where there is none to use (in a browser, not built yet, or one Postgres will not start from, such as
 * one built by another PGlite): the caller runs initdb then.
 */
export async function startPrebuiltFreshCluster(pglite: PGliteModule, files: EngineFiles, startParams: string[]): Promise<PGlite | null> {
  if (!IN_NODE || LAB_DATA_DIR_URL.protocol !== 'file:') return null;
  let entries: TarEntry[];
  try {
    entries = tarEntries(await readDataDir(new URL(SPEC_DATA_DIR_NAME, LAB_DATA_DIR_URL), true)).map(withWholeWalSegment);
  } catch {
    return null;
  }
  try {
    return await createLabPGlite(pglite, { ...files, initdbWasmModule: emptyWasmModule(), fs: dataDirInMemory(pglite, entries, () => false), startParams });
  } catch {
    return null;
  }
}

const WAL_SEGMENT_BYTES = 16 * 2 ** 20;

/**
 * A WAL segment the build cut after its last written page (scripts/build-datadir.ts), back at its full size
 * with zeros, as initdb leaves it: Postgres reads the zeros as the end of WAL either way. Every spec
 * writes WAL, and the in-memory file system grows a file by copying it into one an eighth larger: with the
 * cut segment that was ~8 % of a permutation's time.
 */
function withWholeWalSegment(entry: TarEntry): TarEntry {
  if (entry.directory || !/^pg_wal\/[0-9A-F]{24}$/.test(entry.name) || entry.data.length >= WAL_SEGMENT_BYTES) return entry;
  const data = new Uint8Array(WAL_SEGMENT_BYTES);
  data.set(entry.data);
  return { ...entry, data };
}

const IN_NODE = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

/** Node built-ins, imported only in Node and hidden from the browser bundle. */
function nodeModule<T>(name: string): Promise<T> {
  return import(/* @vite-ignore */ name) as Promise<T>;
}

/**
 * The data directory's entries, checked to hold this code's schema; or why it cannot be used. The
 * default one (the build's, LAB_DATA_DIR_URL) may come from the lab's saved copy: if that copy's bytes
 * will not do, it is discarded and the file read once more, from the network (noted in `recovered`).
 */
async function readDataDirEntries(
  source: DataDirSource | undefined,
  recovered: string[],
): Promise<{ entries: TarEntry[]; error: null } | { entries: null; error: string }> {
  // Bytes read here are this boot's own; bytes it was given are copied first.
  const read = (init?: RequestInit) => (source === undefined ? readDataDir(LAB_DATA_DIR_URL, true, init) : readDataDir(source, false));
  const attempt = async (init?: RequestInit) => {
    const tar = await read(init).catch((error: unknown) => {
      throw new Error(`it could not be read: ${messageOf(error)}`);
    });
    const entries = tarEntries(tar);
    checkSchema(entries);
    return { entries, error: null } as const;
  };
  try {
    return await attempt();
  } catch (error) {
    const again = source === undefined ? await readAgainPastSavedCopy(LAB_DATA_DIR_URL, 'the data directory', error, recovered) : null;
    if (!again) return { entries: null, error: messageOf(error) };
    return attempt(again).catch((secondError: unknown) => ({ entries: null, error: messageOf(secondError) }));
  }
}

/**
 * Reads a data directory from wherever it is, and returns it as an uncompressed tar. The tar becomes
 * Postgres's files, which it writes to; `owned` says the bytes given are this boot's to change.
 */
async function readDataDir(source: DataDirSource, owned: boolean, init?: RequestInit): Promise<Uint8Array> {
  let bytes: Uint8Array;
  if (source instanceof Blob) bytes = new Uint8Array(await source.arrayBuffer());
  else if (source instanceof ArrayBuffer) bytes = owned ? new Uint8Array(source) : new Uint8Array(source.slice(0));
  else if (source instanceof Uint8Array) bytes = owned ? source : new Uint8Array(source);
  else bytes = await readBytes(typeof source === 'string' ? new URL(source, globalThis.location?.href) : source, init);
  // Unpacked already where the service worker's copy answers (it keeps the tar: src/offline/service-worker.ts
  // forCopy), or a server sent it with Content-Encoding: gzip; look, don't trust names.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await gunzip(bytes);
  if (bytes.length < 512 || String.fromCharCode(...bytes.subarray(257, 262)) !== 'ustar') {
    throw new Error(`it is not a tar archive (${bytes.length} bytes)`);
  }
  // A plain Uint8Array (not a Node Buffer, whose slice() shares memory): the file system keeps views of it.
  return bytes.constructor === Uint8Array ? bytes : new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

type PGliteModule = Parameters<typeof createLabPGlite>[0] & Pick<typeof import('@electric-sql/pglite'), 'MemoryFS'>;

/**
 * Read from the archive, before Postgres starts: a query at start would cost more than the whole check
 * (its first run in a process compiles much of Postgres), and a stale directory is never started.
 */
function checkSchema(entries: readonly TarEntry[]): void {
  const schema = entryText(entries, LAB_SCHEMA_FILE);
  if (schema !== labSchemaComment()) {
    throw new Error(
      `it holds another schema (${schema ?? 'none recorded'}, this code expects ${labSchemaComment()}): rebuild it with scripts/build-datadir.ts`,
    );
  }
}

/** The text of a file among an archive's entries, or null if it has none of that name. */
function entryText(entries: readonly TarEntry[], name: string): string | null {
  const entry = entries.find((candidate) => candidate.name === name && !candidate.directory);
  return entry ? new TextDecoder().decode(entry.data).trim() : null;
}

async function gunzip(bytes: Uint8Array): Promise<Uint8Array> {
  if (IN_NODE) {
    const zlib = await nodeModule<typeof import('node:zlib')>('node:zlib');
    return zlib.gunzipSync(bytes);
  }
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * PGlite's wasm, compiled while the other files load; null if it cannot be had (PGlite then loads it
 * itself, and reports a failure in its own words). A saved copy that will not compile is discarded and the
 * wasm fetched once more, from the network (noted in `recovered`). Kept for the next boot in the same
 * process (Node tests start many instances).
 */
let loadedWasm: Promise<WebAssembly.Module | null> | null = null;
function compiledWasm(recovered: string[]): Promise<WebAssembly.Module | null> {
  loadedWasm ??= compileWasm(PGLITE_WASM_URL)
    .catch(async (error: unknown) => {
      const again = await readAgainPastSavedCopy(PGLITE_WASM_URL, "PGlite's wasm", error, recovered);
      if (!again) throw error;
      return compileWasm(PGLITE_WASM_URL, again);
    })
    .catch(() => {
      loadedWasm = null;
      return null;
    });
  return loadedWasm;
}

/**
 * PGlite's wasm as the lab's boot compiled it (or compiles it now), for another PGlite in the same process:
 * a spec's fresh cluster (pglite-spec.ts) then neither downloads nor compiles it again. Null: PGlite loads it itself.
 */
export function compiledPGliteWasm(): Promise<WebAssembly.Module | null> {
  return compiledWasm([]);
}

/**
 * The lab's saved copy of the build (the service worker's offline copy, in the browser's Cache Storage)
 * may hold a damaged file: a disk error, storage cut short. When a file of the build will not do and a
 * copy holds it, it is read once more past every cache (request option `cache: 'no-store'`): the service
 * worker then answers from the network and puts that file in its copy in place of the damaged one
 * (src/offline/service-worker.ts). Only the worker writes its copy: a page that opened caches by name could
 * make again one a new deploy's worker had just dropped (`caches.open` creates). Returns the request options
 * for that read, or null when no copy holds the file (there is nothing to recover from: the network's own
 * file will not do).
 */
async function readAgainPastSavedCopy(url: URL, what: string, error: unknown, recovered: string[]): Promise<RequestInit | null> {
  if (url.protocol === 'file:' || typeof caches === 'undefined') return null;
  let saved = false;
  try {
    saved = (await caches.match(url.href)) !== undefined;
  } catch {
    // Storage refused (a browser setting): nothing was saved there either.
  }
  if (!saved) return null;
  recovered.push(`the saved copy of ${what} could not be used (${messageOf(error)}), so it was discarded and read from the network`);
  return { cache: 'no-store' };
}

/** PGlite's whole file bundle, read afresh for each boot (its files are views of these bytes); null if it cannot be had. */
function bundleBytes(): Promise<Uint8Array | null> {
  return readBytes(PGLITE_DATA_URL).catch(() => null);
}

/**
 * The files of PGlite's bundle that the lab's own statements read: the session's time zone and the time
 * zone abbreviations, read as Postgres starts. tests/unit/boot.test.ts checks that every scenario, the
 * warm-up and a reset read no other (a statement reading a file that is not yet there would find zeros).
 */
export const LAB_BUNDLE_FILES = ['/pglite/share/postgresql/timezone/UTC', '/pglite/share/postgresql/timezonesets/Default'];
/**
 * Where the data directory carries them: `size` holds the bundle's length, and each file is named by its
 * offset in the bundle (scripts/build-datadir.ts reads both from PGlite's own list of its files).
 */
export const LAB_BUNDLE_DIR = 'lease-lab-bundle';

/** For an entry of the data directory's archive in LAB_BUNDLE_DIR, its name there ('' for the folder itself); null for any other. */
function bundleEntryName(name: string): string | null {
  if (name === LAB_BUNDLE_DIR) return '';
  return name.startsWith(`${LAB_BUNDLE_DIR}/`) ? name.slice(LAB_BUNDLE_DIR.length + 1) : null;
}

/** PGlite's bundle as a boot hands it over: the bytes (null: PGlite loads the bundle itself), and a way to have all of it. */
interface Bundle {
  readonly bytes: Uint8Array | null;
  complete(): Promise<void>;
}

class WholeBundle implements Bundle {
  constructor(readonly bytes: Uint8Array | null) {}

  complete(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The bundle at its full length with only the lab's files in it, the rest zeros. PGlite makes each of its
 * files a view of these bytes, so complete() has only to copy the whole bundle over them when it arrives.
 */
class LabBundle implements Bundle {
  private completing: Promise<void> | null = null;

  constructor(readonly bytes: Uint8Array) {}

  complete(): Promise<void> {
    this.completing ??= readBytes(PGLITE_DATA_URL).then(
      (whole) => {
        if (whole.length !== this.bytes.length)
          throw new Error(`PGlite's file bundle is ${whole.length} bytes, not the ${this.bytes.length} the data directory was built for`);
        this.bytes.set(whole);
      },
      (error: unknown) => {
        // Asked again later, it tries again (a dropped connection, say).
        this.completing = null;
        throw new Error(`PGlite's file bundle could not be read: ${messageOf(error)}`);
      },
    );
    return this.completing;
  }
}

/** The lab's part of the bundle, from a data directory's entries; null if they do not carry it. */
function labBundle(entries: readonly TarEntry[]): LabBundle | null {
  const size = Number(entryText(entries, `${LAB_BUNDLE_DIR}/size`));
  if (!Number.isSafeInteger(size) || size <= 0) return null;
  const bytes = new Uint8Array(size);
  for (const { name, directory, data } of entries) {
    const file = bundleEntryName(name);
    if (directory || file === null || !/^\d+$/.test(file)) continue;
    const offset = Number(file);
    if (offset + data.length > size) return null;
    bytes.set(data, offset);
  }
  return new LabBundle(bytes);
}

async function compileWasm(url: URL, init?: RequestInit): Promise<WebAssembly.Module> {
  if (url.protocol === 'file:') return WebAssembly.compile((await readBytes(url)) as Uint8Array<ArrayBuffer>);
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  // Streaming compilation needs the right Content-Type; some plain servers send another.
  if (response.headers.get('content-type')?.startsWith('application/wasm')) return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A file's bytes: from disk in Node (file: URLs), over HTTP otherwise. */
async function readBytes(url: URL, init?: RequestInit): Promise<Uint8Array> {
  if (url.protocol === 'file:') {
    const fs = await nodeModule<typeof import('node:fs/promises')>('node:fs/promises');
    return fs.readFile(url);
  }
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url.pathname.split('/').pop()}`);
  return new Uint8Array(await response.arrayBuffer());
}

let emptyModule: WebAssembly.Module | null = null;
function emptyWasmModule(): WebAssembly.Module {
  emptyModule ??= new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  return emptyModule;
}

/**
 * Where the start went, as User Timing marks (`lease-lab:<name>`) in the timeline of the thread that boots
 * (the engine worker's, in the page): the browser benchmarks read them to show where a start goes.
 */
export function markStart(name: string): void {
  performance.mark(`lease-lab:${name}`);
}

/** Marks when a piece of the start is in (markStart), and passes its value on. */
function marked<T>(name: string): (value: T) => T {
  return (value) => {
    markStart(name);
    return value;
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
