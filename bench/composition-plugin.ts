/**
 * Records what the bundle is made of, for the benchmark's size table: the rendered code of every module
 * of every chunk (main build and worker build), grouped into the app's own code, libraries, and PGlite.
 * Appends one JSON line per bundle to $BENCH_COMPOSITION_OUT.
 */
import { appendFileSync } from 'node:fs';
import type { Plugin } from 'vite';

export type CompositionGroup = 'app' | 'libraries' | 'pglite';

export interface CompositionLine {
  chunks: Array<{ fileName: string; modules: Array<{ group: CompositionGroup; id: string; code: string }> }>;
}

export function groupOf(id: string): CompositionGroup {
  if (id.includes('node_modules/@electric-sql/pglite')) return 'pglite';
  if (id.includes('node_modules/')) return 'libraries';
  return 'app';
}

export function composition(): Plugin {
  return {
    name: 'lease-lab:bench-composition',
    apply: 'build',
    generateBundle(_options, bundle) {
      const out = process.env.BENCH_COMPOSITION_OUT;
      if (!out) return;
      const line: CompositionLine = { chunks: [] };
      for (const item of Object.values(bundle)) {
        if (item.type !== 'chunk') continue;
        line.chunks.push({
          fileName: item.fileName,
          modules: Object.entries(item.modules).map(([id, info]) => ({ group: groupOf(id), id, code: info.code ?? '' })),
        });
      }
      appendFileSync(out, `${JSON.stringify(line)}\n`);
    },
  };
}
