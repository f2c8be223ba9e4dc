import type { Plugin } from 'vite';
import type { OfflineBuild } from './manifest';

/** Vite plugin (build only): writes sw.js, the service worker that keeps the built app for offline use. */
export declare function offlineCopy(): Plugin;
/** The files of a build output the service worker keeps, and a version that changes with any of them. */
export declare function describeBuild(outDir: string): OfflineBuild;
/** Which output files (relative paths) the service worker keeps: all but pre-compressed copies, source maps and sw.js. */
export declare function offlineFiles(outputFiles: readonly string[]): string[];
/** The type-stripped service worker as a classic script; throws if it still imports or exports anything. */
export declare function asClassicScript(code: string): string;
/** sw.js for a build: the service worker as a classic script with the build's files and version in front. */
export declare function serviceWorkerScript(build: OfflineBuild): Promise<string>;
