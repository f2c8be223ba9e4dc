/**
 * Keeps the pre-built PGlite data directory (.cache/lab-datadir.tar.gz) fresh, for every way the
 * project runs: `vite` (dev), `vite build`, `vitest` and the benchmarks all load vite.config.ts, whose
 * plugin list includes `labDataDir()`. When the inputs changed (or the file is missing, as on a fresh
 * clone) it runs scripts/build-datadir.ts in a child process (~2–5 s); otherwise it costs a few hashes.
 *
 * After `vite build` it also writes pre-compressed siblings (`x.wasm.gz` and `x.wasm.br`, `x.js.gz`, …)
 * next to the big files in the output, for static servers that can serve them (nginx `gzip_static` /
 * `brotli_static`, scripts/serve-static.ts). A plain static server ignores them and still works.
 *
 * Plain JavaScript with Node built-ins only, so vite.config.ts can import it as is (with its extension,
 * as Vite's native config loader wants); its types are in build-datadir-plugin.d.mts.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the data directory is written; src/db/pglite-boot.ts points at the same file. */
export const DATA_DIR_FILE = join(REPO_ROOT, '.cache', 'lab-datadir.tar.gz');
/** What the data directory was built from: { key, … }. */
export const DATA_DIR_META = join(REPO_ROOT, '.cache', 'lab-datadir.json');
/** A cluster as initdb leaves it, built with the lab's (scripts/build-datadir.ts); src/db/pglite-boot.ts points at it. */
export const SPEC_DATA_DIR_FILE = join(REPO_ROOT, '.cache', 'spec-datadir.tar.gz');

/** Files whose content decides the data directory; a change to any of them rebuilds it. */
const INPUTS = [
  'src/sql/schema.sql',
  'src/db/pglite-open.ts',
  'src/db/pglite-boot.ts',
  'scripts/build-datadir.ts',
  'node_modules/@electric-sql/pglite/package.json',
];

/** @returns {string} */
export function dataDirKey() {
  const hash = createHash('sha256');
  for (const file of INPUTS) {
    hash.update(file);
    hash.update('\0');
    hash.update(readFileSync(join(REPO_ROOT, file)));
    hash.update('\0');
  }
  return hash.digest('hex').slice(0, 20);
}

/** @returns {boolean} */
export function dataDirIsFresh() {
  if (!existsSync(DATA_DIR_FILE) || !existsSync(DATA_DIR_META) || !existsSync(SPEC_DATA_DIR_FILE)) return false;
  try {
    const meta = JSON.parse(readFileSync(DATA_DIR_META, 'utf8'));
    return meta.key === dataDirKey();
  } catch {
    return false;
  }
}

/**
 * Builds the data directory unless it is fresh. Returns true when it built.
 * @param {(message: string) => void} [log]
 * @returns {boolean}
 */
export function ensureLabDataDir(log = () => {}) {
  if (dataDirIsFresh()) return false;
  log('lease-lab: building the pre-built Postgres data directory (.cache/lab-datadir.tar.gz)…');
  execFileSync(process.execPath, ['--import', 'tsx', '--import', './scripts/raw-loader.mjs', 'scripts/build-datadir.ts'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return true;
}

/** Extensions worth serving pre-compressed. */
const COMPRESSIBLE = /\.(wasm|data|js|mjs|css|html|svg|json|map|txt|tar)$/;
const MIN_BYTES = 1024;
/**
 * gzip level 6 and Brotli quality 5: measured on pglite.wasm and pglite.data, gzip 9 is up to 3x slower
 * for 0.2 % smaller files, and Brotli 5 is ~10 % (wasm) and ~37 % (data) smaller than gzip in about a
 * second each, where Brotli 11 takes a minute or more.
 */
const GZIP_OPTIONS = { level: 6 };
/** @param {Buffer} body */
const brotliOptions = (body) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: 5, [constants.BROTLI_PARAM_SIZE_HINT]: body.length } });
const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

/**
 * The files in `dir` (recursively) worth a compressed copy.
 * @param {string} dir
 * @returns {string[]}
 */
function compressibleFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return compressibleFiles(path);
    return COMPRESSIBLE.test(name) && statSync(path).size >= MIN_BYTES ? [path] : [];
  });
}

/**
 * Writes the copies that save at least a tenth. Returns whether any was written.
 * @param {string} path
 * @param {Buffer} body
 * @param {[string, Buffer][]} copies
 */
function keepWorthwhile(path, body, copies) {
  const worthwhile = copies.filter(([, copy]) => copy.length < body.length * 0.9);
  for (const [suffix, copy] of worthwhile) writeFileSync(`${path}${suffix}`, copy);
  return worthwhile.length > 0;
}

/**
 * Writes `file.gz` and `file.br` beside every compressible file in `dir` (recursively), each only when it
 * saves at least a tenth. Returns the files that got a compressed copy.
 * @param {string} dir
 * @returns {string[]}
 */
export function precompress(dir) {
  return compressibleFiles(dir)
    .filter((path) => {
      const body = readFileSync(path);
      return keepWorthwhile(path, body, [
        ['.gz', gzipSync(body, GZIP_OPTIONS)],
        ['.br', brotliCompressSync(body, brotliOptions(body))],
      ]);
    })
    .map((path) => relative(dir, path));
}

/**
 * precompress(), with every file and both encodings compressed at once on libuv's thread pool: on two
 * cores the build waits about half as long.
 * @param {string} dir
 * @returns {Promise<string[]>}
 */
async function precompressInParallel(dir) {
  const done = await Promise.all(
    compressibleFiles(dir).map(async (path) => {
      const body = readFileSync(path);
      const [gz, br] = await Promise.all([gzipAsync(body, GZIP_OPTIONS), brotliAsync(body, brotliOptions(body))]);
      return keepWorthwhile(path, body, [
        ['.gz', gz],
        ['.br', br],
      ])
        ? [relative(dir, path)]
        : [];
    }),
  );
  return done.flat();
}

/**
 * @param {{ precompress?: boolean }} [options] precompress: write `.gz` siblings into the build output (default true)
 * @returns {import('vite').Plugin}
 */
export function labDataDir(options = {}) {
  let outDir = '';
  let isBuild = false;
  return {
    name: 'lease-lab:data-dir',
    // `config` runs for dev, build, preview and vitest alike, before anything is bundled or tested.
    config() {
      try {
        ensureLabDataDir((message) => console.log(message));
      } catch (error) {
        // Not fatal: without it the lab still starts (by running initdb, slowly) and says why.
        console.warn(`lease-lab: could not build the pre-built data directory: ${error instanceof Error ? error.message : error}`);
      }
    },
    configResolved(config) {
      isBuild = config.command === 'build' && !config.build.ssr;
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      async handler() {
        if (!isBuild || options.precompress === false || !existsSync(outDir)) return;
        await precompressInParallel(outDir);
      },
    },
  };
}
