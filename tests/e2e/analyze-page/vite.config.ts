/**
 * Builds the analyzer's check page (tests/e2e/analyze-parser.spec.ts) the way the app is built: relative
 * asset URLs, the app's own Content-Security-Policy (copied from the app's index.html into this page).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

const appHtml = readFileSync(resolve(import.meta.dirname, '../../../index.html'), 'utf8');
const policyTag = /<meta\s+http-equiv="Content-Security-Policy"[^>]*>/.exec(appHtml)?.[0];
if (!policyTag) throw new Error("the app's index.html has no Content-Security-Policy <meta> tag");

function appPolicy(): Plugin {
  return {
    name: 'analyze-page:app-policy',
    transformIndexHtml: (html) => html.replace('<meta charset="UTF-8" />', `<meta charset="UTF-8" />\n    ${policyTag}`),
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  cacheDir: resolve(import.meta.dirname, '../../../node_modules/.vite-analyze-page'),
  plugins: [appPolicy()],
  logLevel: 'warn',
  build: {
    target: 'es2022',
    emptyOutDir: true,
    chunkSizeWarningLimit: 5000,
    // libpg-query's Emscripten glue requires node:fs and node:crypto behind a check that passes only in Node.
    rolldownOptions: {
      onLog(level, log, handler) {
        if (/"node:(fs|crypto)" has been externalized/.test(log.message) && /libpg-query/.test(log.message)) return;
        handler(level, log);
      },
    },
  },
});
