import type { Plugin } from 'vite';

/** Where the data directory is written; src/db/pglite-boot.ts points at the same file. */
export declare const DATA_DIR_FILE: string;
/** What the data directory was built from: { key, … }. */
export declare const DATA_DIR_META: string;
/** A cluster as initdb leaves it, where `spec` on PGlite starts; built with the data directory. */
export declare const SPEC_DATA_DIR_FILE: string;
/** A hash of everything the data directory is built from. */
export declare function dataDirKey(): string;
export declare function dataDirIsFresh(): boolean;
/** Builds the data directory unless it is fresh. Returns true when it built. */
export declare function ensureLabDataDir(log?: (message: string) => void): boolean;
/** Writes `file.gz` and `file.br` beside every compressible file in `dir` (recursively). Returns the files that got a copy. */
export declare function precompress(dir: string): string[];
export interface LabDataDirOptions {
  /** Write `.gz` and `.br` siblings into the build output (default true). */
  precompress?: boolean;
}
/** Vite plugin: keeps .cache/lab-datadir.tar.gz fresh; after a build, pre-compresses the output. */
export declare function labDataDir(options?: LabDataDirOptions): Plugin;
