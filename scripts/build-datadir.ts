/**
 * Builds the pre-built PGlite data directory that bootLabDatabase() loads instead of running initdb:
 * .cache/lab-datadir.tar.gz (~1 MB) and .cache/lab-datadir.json (what it was built from); and beside it
 * .cache/spec-datadir.tar.gz, a cluster as initdb leaves it, where `spec` on PGlite starts (buildSpecDataDirTar).
 *
 *   node --import tsx --import ./scripts/raw-loader.mjs scripts/build-datadir.ts [--force] [--out FILE]
 *
 * Usually run for you by the `labDataDir()` Vite plugin (scripts/build-datadir-plugin.mjs) whenever its
 * inputs change. What it does, and why it is safe:
 *  - PGlite with the lab's start parameters, on a real directory (NodeFS), and the lab's schema from
 *    the SQL registry. A fingerprint of that SQL goes in a file at the top of the data directory (read
 *    from the archive at boot, before Postgres starts, so a stale data directory is never used) and in
 *    the comment on schema `sim`.
 *  - template0 and template1 are dropped: the lab never runs CREATE DATABASE (−2 MB gzip).
 *  - WAL: with wal_recycle=off, two segment switches and checkpoints leave one segment holding only the
 *    last checkpoint (−1.5 MB gzip: the old segment is full of initdb's page images).
 *  - close(): a clean shutdown, so the next start needs no crash recovery.
 *  - No relation-cache init files (pg_internal.init, ~150 kB to unpack): every start removes them before
 *    any backend reads them, clean shutdown or not (StartupXLOG calls RelationCacheInitFileRemove: "it
 *    seems safest to just remove them always"), and the first backend builds and writes them again.
 *  - The tar is written here, sorted; the WAL segment is cut after its last written page (Postgres
 *    reads the missing tail as end-of-WAL and extends the file as it writes), 25 MB → 8.5 MB to unpack.
 *  - The configuration files keep their settings but not initdb's comment lines (32 kB → 1 kB to read).
 *  - The few files of PGlite's own bundle that the lab's statements read ride along (LAB_BUNDLE_DIR,
 *    ~30 kB), so a boot in the browser can start Postgres before the 6 MB bundle has arrived.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { constants, gzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { LAB_BUNDLE_DIR, LAB_BUNDLE_FILES, LAB_SCHEMA_FILE, labSchemaComment } from '../src/db/pglite-boot';
import { labStartParams } from '../src/db/pglite-open';
import { sqlText } from '../src/sql/registry';
import { DATA_DIR_FILE, DATA_DIR_META, dataDirKey, SPEC_DATA_DIR_FILE } from './build-datadir-plugin.mjs';

const WAL_PAGE = 8192;

export interface BuiltDataDir {
  tarBytes: number;
  gzipBytes: number;
  ms: number;
}

/** Creates the lab's database and returns its data directory as an uncompressed tar. */
export async function buildLabDataDirTar(): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'lease-lab-pgdata-'));
  try {
    const pg = await PGlite.create({ dataDir: dir, startParams: [...labStartParams(PGlite), '-c', 'wal_recycle=off'] });
    try {
      await pg.exec(sqlText('schema'));
      await pg.exec(`COMMENT ON SCHEMA sim IS '${labSchemaComment()}'`);
      for (const name of ['template0', 'template1']) {
        await pg.exec(`UPDATE pg_database SET datistemplate = false, datallowconn = false WHERE datname = '${name}'`);
        await pg.exec(`DROP DATABASE ${name}`);
      }
      await keepOnlyLastCheckpoint(pg);
    } finally {
      await pg.close();
    }
    writeFileSync(join(dir, LAB_SCHEMA_FILE), `${labSchemaComment()}\n`);
    writeLabBundle(join(dir, LAB_BUNDLE_DIR));
    return tarDirectory(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A cluster as initdb leaves it (no lab schema, the template databases kept), as an uncompressed tar:
 * where `spec` on PGlite starts each spec (src/db/pglite-spec.ts) instead of running initdb, ~2.5 s of its
 * ~3 s start. Only its WAL is trimmed as the lab's is.
 */
export async function buildSpecDataDirTar(): Promise<Uint8Array> {
  const dir = mkdtempSync(join(tmpdir(), 'lease-lab-spec-pgdata-'));
  try {
    const pg = await PGlite.create({ dataDir: dir, startParams: [...labStartParams(PGlite), '-c', 'wal_recycle=off'] });
    try {
      await keepOnlyLastCheckpoint(pg);
    } finally {
      await pg.close();
    }
    return tarDirectory(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** With wal_recycle=off, two segment switches and checkpoints leave one WAL segment holding only the last checkpoint. */
async function keepOnlyLastCheckpoint(pg: PGlite): Promise<void> {
  for (let i = 0; i < 2; i++) {
    await pg.query('SELECT pg_switch_wal()');
    await pg.exec('CHECKPOINT');
  }
}

const PGLITE_DIST = resolve(dirname(fileURLToPath(import.meta.url)), '../node_modules/@electric-sql/pglite/dist');

/**
 * The files of PGlite's bundle (pglite.data) that the lab reads (LAB_BUNDLE_FILES), each named by its
 * offset in the bundle, and the bundle's length in `size`: a boot with bundle 'lab' starts with these
 * alone. Where each file lies comes from the list PGlite's own loader uses (in pglite.js); if that list
 * cannot be read, or does not match pglite.data, the build stops here rather than guess.
 */
export function writeLabBundle(into: string): void {
  const loader = readFileSync(join(PGLITE_DIST, 'pglite.js'), 'utf8');
  const bundle = readFileSync(join(PGLITE_DIST, 'pglite.data'));
  const size = Number(/remote_package_size:(\d+)/.exec(loader)?.[1]);
  if (size !== bundle.length) throw new Error(`pglite.js says its bundle is ${size} bytes; pglite.data is ${bundle.length}`);
  mkdirSync(into, { recursive: true });
  writeFileSync(join(into, 'size'), `${size}\n`);
  for (const file of LAB_BUNDLE_FILES) {
    const found = new RegExp(`filename:"${file.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}",start:(\\d+),end:(\\d+)`).exec(loader);
    if (!found) throw new Error(`pglite.js does not list ${file} in its bundle`);
    const [start, end] = [Number(found[1]), Number(found[2])];
    writeFileSync(join(into, String(start)), bundle.subarray(start, end));
  }
}

/** A ustar archive of `dir`, entries sorted, WAL segments cut after their last non-zero page, without relation-cache init files. */
export function tarDirectory(dir: string): Uint8Array {
  const parts: Uint8Array[] = [];
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder).sort()) {
      const path = join(folder, name);
      const entry = prefix ? `${prefix}/${name}` : name;
      const stat = statSync(path);
      if (stat.isDirectory()) {
        parts.push(tarHeader(`${entry}/`, 0, 0o700, '5'));
        walk(path, entry);
        continue;
      }
      if (name === RELCACHE_INIT_FILE) continue;
      let data: Uint8Array = readFileSync(path);
      if (/^pg_wal\/[0-9A-F]{24}$/.test(entry)) data = cutWalSegment(data);
      if (CONFIG_FILES.has(entry)) data = withoutCommentLines(data);
      parts.push(tarHeader(entry, data.length, 0o600, '0'), data);
      const pad = (512 - (data.length % 512)) % 512;
      if (pad) parts.push(new Uint8Array(pad));
    }
  };
  walk(dir, '');
  parts.push(new Uint8Array(1024));
  return Buffer.concat(parts);
}

/** What Postgres names its relation-cache init files (global/ and each database's directory): see the header. */
const RELCACHE_INIT_FILE = 'pg_internal.init';

/** Postgres's configuration files, as initdb writes them: mostly comments that every start reads through. */
const CONFIG_FILES = new Set(['postgresql.conf', 'pg_hba.conf', 'pg_ident.conf']);

/**
 * A configuration file with its comment-only and blank lines left out; the settings and rules stay as
 * they were, in order. initdb's postgresql.conf is 32 kB, nearly all commented-out defaults, and Postgres
 * lexes all of it at every start: ~12 ms of a cold start in Chromium.
 */
export function withoutCommentLines(data: Uint8Array): Uint8Array {
  const kept = Buffer.from(data)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.trimStart().startsWith('#'));
  return Buffer.from(`# Written by initdb; comment lines removed by scripts/build-datadir.ts.\n${kept.map((line) => `${line}\n`).join('')}`);
}

function cutWalSegment(data: Uint8Array): Uint8Array {
  let end = data.length;
  while (end > 0 && data[end - 1] === 0) end--;
  return data.subarray(0, Math.max(WAL_PAGE, Math.ceil(end / WAL_PAGE) * WAL_PAGE));
}

function tarHeader(name: string, size: number, mode: number, type: '0' | '5'): Uint8Array {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long: ${name}`);
  const h = Buffer.alloc(512);
  h.write(name, 0, 100, 'utf8');
  h.write(`${mode.toString(8).padStart(7, '0')}\0`, 100);
  h.write('0000000\0', 108); // uid
  h.write('0000000\0', 116); // gid
  h.write(`${size.toString(8).padStart(11, '0')}\0`, 124);
  h.write('00000000000\0', 136); // mtime: none (PGlite stamps the load time)
  h.write('        ', 148); // checksum placeholder
  h.write(type, 156);
  h.write('ustar\0', 257);
  h.write('00', 263);
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return h;
}

export async function buildLabDataDir(out = DATA_DIR_FILE, meta: string | null = DATA_DIR_META): Promise<BuiltDataDir> {
  const started = performance.now();
  const key = dataDirKey();
  const tar = await buildLabDataDirTar();
  const gz = gzipSync(tar, { level: constants.Z_BEST_COMPRESSION });
  writeWhole(out, gz);
  // The spec's cluster goes with the lab's default one (not with one written elsewhere by --out).
  if (out === DATA_DIR_FILE) writeWhole(SPEC_DATA_DIR_FILE, gzipSync(await buildSpecDataDirTar(), { level: constants.Z_BEST_COMPRESSION }));
  const built = { tarBytes: tar.length, gzipBytes: gz.length, ms: Math.round(performance.now() - started) };
  if (meta) {
    const tempMeta = `${meta}.${process.pid}.tmp`;
    writeFileSync(tempMeta, `${JSON.stringify({ key, ...built, pglite: pgliteVersion() }, null, 2)}\n`);
    renameSync(tempMeta, meta);
  }
  return built;
}

/** Write then rename: a reader never sees half a file, and two builders racing both leave a whole one. */
function writeWhole(file: string, bytes: Uint8Array): void {
  mkdirSync(dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, bytes);
  renameSync(temp, file);
}

function pgliteVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL('../node_modules/@electric-sql/pglite/package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: string[]): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { out: { type: 'string' }, force: { type: 'boolean' } } });
  const { dataDirIsFresh } = await import('./build-datadir-plugin.mjs');
  if (!values.out && !values.force && dataDirIsFresh()) {
    console.log('lease-lab: the pre-built data directory is up to date');
    return;
  }
  const out = values.out ?? DATA_DIR_FILE;
  const built = await buildLabDataDir(out, values.out ? null : DATA_DIR_META);
  console.log(
    `lease-lab: wrote ${out}: ${(built.gzipBytes / 1024).toFixed(0)} KiB gzip (${(built.tarBytes / 2 ** 20).toFixed(1)} MiB unpacked) in ${(built.ms / 1000).toFixed(1)} s`,
  );
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : error);
    process.exitCode = 1;
  });
}
