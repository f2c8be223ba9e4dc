/** Builds the benchmark's own pages (bench/pages): the plain PGlite baseline and bootLab() in a worker. */
import { resolve } from 'node:path';
import { defineConfig } from 'vite';
import { labDataDir } from '../scripts/build-datadir-plugin.mjs';

const pages = resolve(import.meta.dirname, 'pages');

export default defineConfig({
  root: pages,
  base: './',
  cacheDir: resolve(import.meta.dirname, '../node_modules/.vite-bench'),
  plugins: [labDataDir()],
  optimizeDeps: { exclude: ['@electric-sql/pglite'] },
  worker: { format: 'es' },
  logLevel: 'warn',
  build: {
    target: 'es2022',
    chunkSizeWarningLimit: 20_000,
    rollupOptions: { input: { plain: resolve(pages, 'plain.html'), worker: resolve(pages, 'worker.html') } },
  },
});
