/**
 * One exported name, one meaning: no name is declared and exported by two files of src/. Two `Preset`s or two
 * `Role`s read alike at the import and mean different things (issue #21); a second module that re-exports the
 * same binding (`export { X } from …`) is the same thing and is allowed. A `.d.mts` beside its `.mjs` types that
 * module and is not a second definition.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const src = join(__dirname, '../../src');

/** `export const X`, `export async function X`, `export abstract class X`, `export declare type X`, … at a line's start. */
const DECLARATION =
  /^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:abstract\s+)?(?:const|let|var|function\*?|class|interface|type|enum)\s+([A-Za-z_$][\w$]*)/gm;

interface SourceFile {
  path: string;
  text: string;
}

function sourceFiles(dir: string): SourceFile[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.mts'))
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { path: relative(src, path), text: readFileSync(path, 'utf8') };
    });
}

/** Each name declared and exported by more than one file, with those files. */
function duplicateExports(files: readonly SourceFile[]): Record<string, string[]> {
  const where = new Map<string, Set<string>>();
  for (const file of files) {
    for (const match of file.text.matchAll(DECLARATION)) {
      const name = match[1]!;
      where.set(name, (where.get(name) ?? new Set()).add(file.path));
    }
  }
  return Object.fromEntries(
    [...where]
      .filter(([, paths]) => paths.size > 1)
      .map(([name, paths]) => [name, [...paths].sort()])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
  );
}

describe('exported names', () => {
  it('src/ declares no exported name in two files', () => {
    const files = sourceFiles(src);
    expect(files.length).toBeGreaterThan(100);
    expect(duplicateExports(files)).toEqual({});
  });

  it('a name declared in two files is found, whatever kind of declaration each is', () => {
    const files = [
      { path: 'a.ts', text: 'export interface Preset {\n  id: string;\n}\nexport const only = 1;\n' },
      { path: 'b.tsx', text: 'export function Preset() {\n  return null;\n}\n' },
      { path: 'c.ts', text: "export { Preset } from './a';\nexport declare type Preset2 = string;\n" },
      { path: 'd.ts', text: 'export async function Preset2() {}\n' },
    ];
    expect(duplicateExports(files)).toEqual({ Preset: ['a.ts', 'b.tsx'], Preset2: ['c.ts', 'd.ts'] });
  });
});

/**
 * "worker" means a simulated worker of the lab (A, B, C…) and nothing else; a browser thread is a Web Worker
 * (docs/ARCHITECTURE.md, "Words"). So no folder of src/ is called worker, and the code that starts a Web
 * Worker lives where the Web Workers are: the lab's in src/webworker/, the explorer's in src/explorer/.
 * (src/cli/ starts a Node worker thread for PGlite, which is not a browser's.)
 */
const WEB_WORKER_HOMES = ['webworker/', 'explorer/', 'cli/'];

function misplacedWorkerWords(files: readonly SourceFile[]): string[] {
  const folders = files.filter((file) => file.path.split('/').slice(0, -1).includes('worker')).map((file) => `${file.path}: a folder named worker`);
  const starts = files
    .filter((file) => /\bnew Worker\(/.test(file.text) && !WEB_WORKER_HOMES.some((home) => file.path.startsWith(home)))
    .map((file) => `${file.path}: starts a Web Worker outside ${WEB_WORKER_HOMES.join(', ')}`);
  return [...folders, ...starts].sort();
}

describe('the word worker', () => {
  it('names the simulated worker only: no folder of src/ is called worker, and Web Workers start in their own folders', () => {
    expect(misplacedWorkerWords(sourceFiles(src))).toEqual([]);
  });

  it('a folder called worker, or a Web Worker started elsewhere, is found', () => {
    const files = [
      { path: 'worker/client.ts', text: 'export const a = 1;\n' },
      { path: 'store/spawn.ts', text: "const w = new Worker(new URL('./x.ts', import.meta.url));\n" },
      { path: 'webworker/spawn.ts', text: "const w = new Worker(new URL('./x.ts', import.meta.url));\n" },
      { path: 'sim/simulated-worker.ts', text: 'export const b = 2;\n' },
    ];
    expect(misplacedWorkerWords(files)).toEqual([
      'store/spawn.ts: starts a Web Worker outside webworker/, explorer/, cli/',
      'worker/client.ts: a folder named worker',
    ]);
  });
});
