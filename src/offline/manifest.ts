/**
 * What the service worker is told about the build it belongs to: which files make up the app and a
 * version that changes with any of them. The build computes it (src/offline/vite-plugin.mjs) and
 * writes it into sw.js, so a new deploy is a new sw.js, which the browser notices and installs.
 */
export interface OfflineBuild {
  /** Changes whenever any listed file changes; names the cache the files are kept in. */
  version: string;
  /** The files to keep, relative to the page's directory ('index.html', 'assets/…'). */
  files: string[];
  /** Of `files`, the gzip archives of the build's own (the data directory) that the copy keeps unpacked. */
  unpack: string[];
}
