import react from '@vitejs/plugin-react';
import type { HtmlTagDescriptor, Plugin, Rolldown } from 'vite';
import { configDefaults, defineConfig } from 'vitest/config';
import { labDataDir } from './scripts/build-datadir-plugin.mjs';
import { offlineCopy } from './src/offline/vite-plugin.mjs';

/**
 * The dev server serves index.html without its Content-Security-Policy: hot reload injects an inline
 * script and inline styles that the production policy rightly refuses. Builds keep it.
 */
function contentSecurityPolicyOnlyInBuilds(): Plugin {
  return {
    name: 'lease-lab:csp-only-in-builds',
    apply: 'serve',
    transformIndexHtml: (html) => html.replace(/<meta\s+http-equiv="Content-Security-Policy"[^>]*>/, ''),
  };
}

/**
 * A link preview's image must be an absolute URL, and the built app does not know where it will be
 * served. With SITE_URL set at build time (e.g. SITE_URL=https://example.org/lease-lab/ npm run build)
 * og:image points there; without it, it stays relative to the page, which some previewers resolve.
 */
function absolutePreviewImage(): Plugin {
  return {
    name: 'lease-lab:absolute-preview-image',
    apply: 'build',
    transformIndexHtml(html) {
      const site = process.env.SITE_URL;
      if (!site) return html;
      const image = new URL('og-image.png', site.endsWith('/') ? site : `${site}/`).href;
      return html.replace('<meta property="og:image" content="./og-image.png" />', `<meta property="og:image" content="${image}" />`);
    },
  };
}

/**
 * main.tsx asks for React DOM and the page with import(), so without a hint the browser fetches them only
 * once main.tsx runs. These <link rel="modulepreload"> tags let it fetch and compile them while it parses
 * index.html; React DOM then runs around 150 ms into the load, before Postgres's compile in the worker
 * takes most of the CPU (on two cores its evaluation went from 60–100 ms of wall time to 35–50).
 */
function preloadPageModules(): Plugin {
  const wanted = (chunk: Rolldown.OutputChunk) => /\/src\/app\/page\.tsx$|\/react-dom\/client\.js$/.test(chunk.facadeModuleId ?? '');
  return {
    name: 'lease-lab:preload-page-modules',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        if (!bundle) return [];
        const chunks = Object.values(bundle).filter((file): file is Rolldown.OutputChunk => file.type === 'chunk');
        const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
        const files = new Set<string>();
        const add = (chunk: Rolldown.OutputChunk | undefined) => {
          if (!chunk || chunk.isEntry || files.has(chunk.fileName)) return;
          files.add(chunk.fileName);
          for (const name of chunk.imports) add(byName.get(name));
        };
        for (const chunk of chunks.filter(wanted)) add(chunk);
        return [...files].map(
          (file): HtmlTagDescriptor => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `./${file}` }, injectTo: 'head' }),
        );
      },
    },
  };
}

/**
 * React and React DOM are CommonJS: the bundle wraps each in an arrow function that runs on first
 * require. V8 compiles a function expression in parentheses eagerly, on a background thread while the
 * file streams in, but an arrow function only when it is first called: then the main thread compiled
 * React DOM's whole body as it evaluated it, and that evaluation was the start's longest task (20–33 ms
 * of CPU; 14–24 ms as a function expression). So the wrappers are written as function expressions.
 * The meaning is the same: the wrapper is called as a plain function in module (strict) code, so `this`
 * is undefined either way, and a top-level `arguments` would have thrown inside the arrow. A build whose
 * wrappers no longer look like this fails, rather than silently losing the gain.
 */
function eagerCommonJsWrappers(): Plugin {
  const wrapper = /\b__commonJSMin\(\(\(([\w$]+(?:, [\w$]+)*)\) => \{/g;
  let rewritten = 0;
  return {
    name: 'lease-lab:eager-commonjs-wrappers',
    apply: 'build',
    buildStart() {
      rewritten = 0;
    },
    renderChunk(code) {
      if (!code.includes('__commonJSMin(((')) return null;
      const out = code.replace(wrapper, (_match, params: string) => {
        rewritten++;
        return `__commonJSMin((function(${params}) {`;
      });
      return out === code ? null : { code: out, map: null };
    },
    generateBundle(_options, bundle) {
      const reactDom = Object.values(bundle).some((file) => file.type === 'chunk' && file.moduleIds.some((id) => id.includes('/react-dom/')));
      if (reactDom && rewritten === 0) this.error('no CommonJS wrapper was rewritten: the bundler writes them differently now (see eagerCommonJsWrappers)');
    },
  };
}

/**
 * Two kinds of build log come from PGlite's own code and say nothing about ours, so a build prints
 * nothing when all is well: its Emscripten glue calls `eval` directly (to load its extensions), and it
 * imports `node:module` behind a check that only passes in Node. Every other log still shows.
 */
function quietAboutPGlitesOwnCode(
  level: string,
  log: Rolldown.RolldownLog,
  handler: (level: 'warn' | 'info' | 'debug', log: Rolldown.RolldownLog) => void,
): void {
  const fromPGlite = /@electric-sql[\\/]pglite[\\/]/.test(`${log.id ?? ''} ${log.message}`);
  if (fromPGlite && (log.code === 'EVAL' || /"node:module" has been externalized for browser compatibility/.test(log.message))) return;
  handler(level as 'warn' | 'info' | 'debug', log);
}

/**
 * Unit files that keep a process of their own, as vitest's default isolation gives every file: a vi.mock
 * would otherwise stay in force for the files the process runs after it, and a module it mocks may already
 * be loaded (unmocked) by the files before.
 */
const OWN_PROCESS = ['tests/unit/check-soundness.test.ts'];

// Only vitest needs its sequencer (and vitest/node, which takes ~0.4 s to load); vite itself does not.
const sequencer = process.env.VITEST ? (await import('./tests/support/sequencer.ts')).LongRunningFirst : undefined;

export default defineConfig({
  // Relative asset URLs let the built app run from any sub-path of any static server.
  base: './',
  // labDataDir(): (re)builds .cache/lab-datadir.tar.gz, the pre-built Postgres data directory the lab boots
  // from, whenever its inputs change (dev, build, preview and vitest alike); after a build it writes .gz
  // siblings of the big files for servers that serve them pre-compressed.
  // offlineCopy(): after a build, writes the service worker (sw.js) that keeps the app for offline use.
  plugins: [react(), labDataDir(), offlineCopy(), contentSecurityPolicyOnlyInBuilds(), preloadPageModules(), eagerCommonJsWrappers(), absolutePreviewImage()],
  optimizeDeps: { exclude: ['@electric-sql/pglite'] },
  worker: { format: 'es' },
  build: { target: 'es2022', chunkSizeWarningLimit: 2000, rolldownOptions: { onLog: quietAboutPGlitesOwnCode } },
  server: { host: '127.0.0.1' },
  test: {
    // Two projects that differ only in isolation (each inherits the rest of this block).
    projects: [
      {
        extends: true,
        // A unit file runs in a worker process that ran other files before it (isolate: false): the modules
        // it shares with them are imported once per process, and PGlite's wasm compiled once (pglite-boot.ts
        // keeps it). Each file still loads itself afresh and gets a lab database of its own (tests/support/lab.ts).
        // Measured on 16 unit files that each boot the lab: 99–109 s of CPU with a process per file, 50–62 s so.
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: [...configDefaults.exclude, ...OWN_PROCESS], isolate: false },
      },
      { extends: true, test: { name: 'own-process', include: ['tests/ground-truth/**/*.test.ts', ...OWN_PROCESS] } },
    ],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: 'forks',
    // One throwaway PostgreSQL server for the ground-truth tests (they fail, never skip, without it).
    globalSetup: ['tests/ground-truth/global-setup.ts'],
    // The suite is CPU-bound; on two cores the default would run one file at a time.
    maxWorkers: 2,
    // The state-graph files first: small files that run longest (tests/support/sequencer.ts).
    ...(sequencer ? { sequence: { sequencer } } : {}),
  },
});
