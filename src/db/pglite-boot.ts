/**
 * Starts the lab's database on PGlite. One function for the browser's Web Worker and for Node, so
 * start-up work is done in one place.
 *
 * The fast path loads a data directory built ahead of time (scripts/build-datadir.ts: initdb, the lab's
 * schema, a clean shutdown, ~1 MB gzip) instead of running initdb (1.2–2.4 s in Node, ~3 s in a
 * browser). It loads PGlite's JavaScript, compiles its wasm and reads its file bundle and the data
 * directory side by side (downloads, in a browser), then hands them all to PGlite.create().
 *
 * If the data directory is missing, unreadable, stale (built from another schema.sql) or Postgres will
 * not start from it, the lab starts the slow way and the result says why (`source`, `fallbackReason`);
 * nothing is printed.
 */
import type { PGlite, PGliteOptions } from '@electric-sql/pglite';
import { sqlText } from '../sql/registry';
import { PGliteLab } from './pglite-lab';
import { createLabPGlite, labStartParams, loadPGlite } from './pglite-open';

/**
 * The pre-built data directory. In a Vite build this becomes the URL of a hashed asset next to the
 * bundle (so the app works from any sub-path of any static server); in Node it is the file itself.
 */
export const LAB_DATA_DIR_URL = new URL('../../.cache/lab-datadir.tar.gz', import.meta.url);
/** PGlite's own files: the same assets Vite emits for PGlite, fetched early by us in the browser. */
const PGLITE_WASM_URL = new URL('../../node_modules/@electric-sql/pglite/dist/pglite.wasm', import.meta.url);
const PGLITE_DATA_URL = new URL('../../node_modules/@electric-sql/pglite/dist/pglite.data', import.meta.url);

export type DataDirSource = URL | string | Blob | ArrayBuffer | Uint8Array;

export interface BootOptions {
  /** The data directory to start from: a URL (http or file), or the bytes (tar or tar.gz). Null: run initdb. Default: LAB_DATA_DIR_URL. */
  dataDir?: DataDirSource | null;
  /** false: when the data directory cannot be used, throw (saying why) instead of running initdb. Default true. */
  fallback?: boolean;
}

export interface LabBoot {
  db: PGliteLab;
  /** 'data-dir': started from the pre-built data directory. 'initdb': created from scratch (slow). */
  source: 'data-dir' | 'initdb';
  /** Why a data directory that was asked for was not used; null when it was, or none was asked for. */
  fallbackReason: string | null;
  /** Milliseconds from the call until the database answered. */
  ms: number;
  /** Where the time went, in milliseconds since the call: files ready (downloaded, compiled, unpacked), Postgres started. */
  marks: { files: number; started: number };
}

export async function bootLab(options: BootOptions = {}): Promise<LabBoot> {
  const started = performance.now();
  const source = options.dataDir === undefined ? LAB_DATA_DIR_URL : options.dataDir;
  // Everything is requested at once: in a browser the wasm compiles while the rest downloads.
  const pglite = loadPGlite();
  const files = engineFiles();
  const dataDir = source === null ? null : readDataDir(source).then(
    (tar) => ({ tar, error: null }),
    (error: unknown) => ({ tar: null, error: `it could not be read: ${messageOf(error)}` }),
  );
  const [pgliteModule, engine, read] = await Promise.all([pglite, files, dataDir]);
  const since = () => Math.round(performance.now() - started);
  const marks = { files: since(), started: 0 };
  const onStarted = () => {
    marks.started = since();
  };
  let fallbackReason = read?.error ?? null;
  if (read?.tar) {
    try {
      const db = await openFromDataDir(pgliteModule, read.tar, engine, onStarted);
      return { db, source: 'data-dir', fallbackReason: null, ms: since(), marks };
    } catch (startError) {
      fallbackReason = messageOf(startError);
    }
  }
  if (options.fallback === false && fallbackReason !== null) throw new Error(`the data directory was not used: ${fallbackReason}`);
  const pg = await createLabPGlite(pgliteModule, { ...engine, startParams: labStartParams(pgliteModule.PGlite) });
  onStarted();
  const db = await PGliteLab.open(pg);
  return { db, source: 'initdb', fallbackReason, ms: since(), marks };
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
  return `lease-lab schema ${fnv1a(sqlText('schema'))}`;
}

/** The data directory's record of its schema (see labSchemaComment). */
export const LAB_SCHEMA_FILE = 'lease-lab-schema';

type EngineFiles = Pick<PGliteOptions, 'pgliteWasmModule' | 'fsBundle'>;

async function openFromDataDir(
  pglite: Parameters<typeof createLabPGlite>[0],
  tar: Uint8Array,
  files: EngineFiles,
  onStarted: () => void,
): Promise<PGliteLab> {
  checkSchema(tar);
  let pg: PGlite;
  try {
    pg = await createLabPGlite(pglite, {
      ...files,
      // initdb never runs when a data directory is loaded; an empty module stops PGlite fetching its wasm.
      initdbWasmModule: emptyWasmModule(),
      loadDataDir: new Blob([tar as Uint8Array<ArrayBuffer>], { type: 'application/x-tar' }),
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

const IN_NODE = typeof process !== 'undefined' && typeof process.versions?.node === 'string';

/** Node built-ins, imported only in Node and hidden from the browser bundle. */
function nodeModule<T>(name: string): Promise<T> {
  return import(/* @vite-ignore */ name) as Promise<T>;
}

/** Reads a data directory from wherever it is, and returns it as an uncompressed tar. */
async function readDataDir(source: DataDirSource): Promise<Uint8Array> {
  let bytes: Uint8Array;
  if (source instanceof Blob) bytes = new Uint8Array(await source.arrayBuffer());
  else if (source instanceof ArrayBuffer) bytes = new Uint8Array(source);
  else if (source instanceof Uint8Array) bytes = source;
  else bytes = await readBytes(typeof source === 'string' ? new URL(source, globalThis.location?.href) : source);
  // A server may have unpacked it already (Content-Encoding: gzip for a .gz file); look, don't trust names.
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = await gunzip(bytes);
  if (bytes.length < 512 || String.fromCharCode(...bytes.subarray(257, 262)) !== 'ustar') {
    throw new Error(`it is not a tar archive (${bytes.length} bytes)`);
  }
  return bytes;
}

/**
 * Read from the archive, before Postgres starts: a query at start would cost more than the whole check
 * (its first run in a process compiles much of Postgres), and a stale directory is never started.
 */
function checkSchema(tar: Uint8Array): void {
  const schema = tarEntryText(tar, LAB_SCHEMA_FILE);
  if (schema !== labSchemaComment()) {
    throw new Error(`it holds another schema (${schema ?? 'none recorded'}, this code expects ${labSchemaComment()}): rebuild it with scripts/build-datadir.ts`);
  }
}

/** The text of a file in a ustar archive, or null if it has none of that name. */
function tarEntryText(tar: Uint8Array, name: string): string | null {
  const decoder = new TextDecoder();
  for (let offset = 0; offset + 512 <= tar.length; ) {
    const header = tar.subarray(offset, offset + 512);
    const nameEnd = header.indexOf(0);
    const entry = decoder.decode(header.subarray(0, nameEnd < 0 || nameEnd > 100 ? 100 : nameEnd));
    if (entry === '') return null;
    const size = Number.parseInt(decoder.decode(header.subarray(124, 136)).replace(/\0.*$/s, '').trim() || '0', 8);
    if (entry === name) return decoder.decode(tar.subarray(offset + 512, offset + 512 + size)).trim();
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return null;
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
 * PGlite's wasm, compiled while the other files load, and its file bundle. If either cannot be had,
 * PGlite is left to load it itself (and to report a failure in its own words). Kept for the next boot
 * in the same process (Node tests start many instances).
 */
let loadedEngineFiles: Promise<EngineFiles> | null = null;
function engineFiles(): Promise<EngineFiles> {
  loadedEngineFiles ??= Promise.allSettled([compileWasm(PGLITE_WASM_URL), readBytes(PGLITE_DATA_URL)]).then(([module, bundle]) => {
    if (module.status === 'rejected' || bundle.status === 'rejected') loadedEngineFiles = null;
    return {
      ...(module.status === 'fulfilled' ? { pgliteWasmModule: module.value } : {}),
      ...(bundle.status === 'fulfilled' ? { fsBundle: new Blob([bundle.value as Uint8Array<ArrayBuffer>]) } : {}),
    };
  });
  return loadedEngineFiles;
}

async function compileWasm(url: URL): Promise<WebAssembly.Module> {
  if (url.protocol === 'file:') return WebAssembly.compile((await readBytes(url)) as Uint8Array<ArrayBuffer>);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  // Streaming compilation needs the right Content-Type; some plain servers send another.
  if (response.headers.get('content-type')?.startsWith('application/wasm')) return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

/** A file's bytes: from disk in Node (file: URLs), over HTTP otherwise. */
async function readBytes(url: URL): Promise<Uint8Array> {
  if (url.protocol === 'file:') {
    const fs = await nodeModule<typeof import('node:fs/promises')>('node:fs/promises');
    return fs.readFile(url);
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status} for ${url.pathname.split('/').pop()}`);
  return new Uint8Array(await response.arrayBuffer());
}

let emptyModule: WebAssembly.Module | null = null;
function emptyWasmModule(): WebAssembly.Module {
  emptyModule ??= new WebAssembly.Module(new Uint8Array([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]));
  return emptyModule;
}

function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, '0');
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
