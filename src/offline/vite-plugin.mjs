/**
 * Writes the service worker (sw.js) into the build output once everything else is there: the
 * TypeScript of src/offline/service-worker.ts with its types stripped, and in front of it the list of
 * files to keep offline and a version computed from their contents. Build only: the dev server never
 * has a service worker.
 *
 * Plain JavaScript, like scripts/build-datadir-plugin.mjs, so vite.config.ts imports it as is (with
 * its extension, as Vite's native config loader wants); its types are in vite-plugin.d.mts.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformWithOxc } from 'vite';

/** The service worker's file, next to index.html; src/offline/status.ts registers it by this name. */
const SERVICE_WORKER_FILE = 'sw.js';
const SOURCE = fileURLToPath(new URL('./service-worker.ts', import.meta.url));

/** @returns {import('vite').Plugin} */
export function offlineCopy() {
  let outDir = '';
  return {
    name: 'lease-lab:offline-copy',
    apply: 'build',
    configResolved(config) {
      outDir = resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      async handler() {
        writeFileSync(join(outDir, SERVICE_WORKER_FILE), await serviceWorkerScript(describeBuild(outDir)));
      },
    },
  };
}

/**
 * sw.js for a build: src/offline/service-worker.ts as a classic script, with the build's file list and
 * version defined in front. Tests run this same text (tests/unit/service-worker.test.ts).
 * @param {import('./manifest').OfflineBuild} build
 * @returns {Promise<string>}
 */
export async function serviceWorkerScript(build) {
  const { code } = await transformWithOxc(readFileSync(SOURCE, 'utf8'), SOURCE, { lang: 'ts', target: 'es2022' });
  const header = `// Lease Lab's service worker (src/offline/service-worker.ts), written by the build.\nconst LEASE_LAB_OFFLINE_BUILD = ${JSON.stringify(build)};\n`;
  return header + asClassicScript(code);
}

/**
 * The files to keep and a version that changes when any of them does.
 * @param {string} outDir
 * @returns {import('./manifest').OfflineBuild}
 */
export function describeBuild(outDir) {
  const files = offlineFiles(listFiles(outDir).map((file) => relative(outDir, file)));
  const hash = createHash('sha256');
  for (const file of files) {
    hash.update(file);
    hash.update('\0');
    hash.update(readFileSync(join(outDir, file)));
  }
  // Pre-compressed copies are not in `files` (offlineFiles): a `.gz` left there is an archive in its own right.
  return { version: hash.digest('hex').slice(0, 16), files, unpack: files.filter((file) => file.endsWith('.gz')) };
}

/**
 * Which files of the build output the service worker keeps: every file the app may load, so the slow
 * start (initdb) and PGlite's lazily loaded file systems work offline too; but not the pre-compressed
 * copies (the browser asks for the original name and the server picks the encoding), source maps, or
 * the service worker itself (the browser fetches that on its own terms).
 * @param {readonly string[]} outputFiles paths relative to the output directory
 * @returns {string[]}
 */
export function offlineFiles(outputFiles) {
  const files = outputFiles.map((file) => file.split('\\').join('/'));
  const present = new Set(files);
  // A `.gz` or `.br` file whose original is in the output is a pre-compressed copy; one without (the
  // pre-built data directory, `lab-datadir.tar-<hash>.gz`) is an asset in its own right.
  /** @param {string} file */
  const isCopy = (file) => /\.(gz|br)$/.test(file) && present.has(file.replace(/\.(gz|br)$/, ''));
  return files.filter((file) => !isCopy(file) && !file.endsWith('.map') && file !== SERVICE_WORKER_FILE).sort();
}

/**
 * The service worker is registered as a classic script (module service workers are not in every
 * browser yet). Its source is a module only for its type imports; those are gone once types are
 * stripped, and the empty `export {}` that marks it a module must go too. Anything else module-like
 * is a mistake.
 * @param {string} code
 * @returns {string}
 */
export function asClassicScript(code) {
  const script = code.replace(/^export \{\};?[ \t]*$/m, '');
  if (/^\s*(import|export)\b/m.test(script)) throw new Error('src/offline/service-worker.ts may import types only: sw.js is a classic script');
  return script;
}

/**
 * @param {string} dir
 * @returns {string[]}
 */
function listFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}
