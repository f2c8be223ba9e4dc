/**
 * The claim analyzer in Node: parse + derive (shape, NOWAIT probe, after-wait statements) per statement,
 * for the lab's own claim and completion and for the corpus's variants, and the one-off cost of loading
 * PostgreSQL's parser (its wasm). Target: ≤ 5 ms per statement.
 *   node --import tsx --import ./scripts/raw-loader.mjs bench/analyze.bench.ts
 * BENCH_ANALYZE_RUNS (default 200) analyses of each statement. Then the same in headless Chromium (the
 * browser's "Your SQL" Apply): bench/pages/analyze.html, built here with Vite and served by the project's
 * static server; BENCH_ANALYZE_BROWSER=0 leaves it out.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { build } from 'vite';
import { startStaticServer } from '../scripts/serve-static';
import { analyzeWith } from '../src/sql/analyze/analyze';
import type { Role } from '../src/sql/analyze/contract';
import { loadParser } from '../src/sql/analyze/parser';
import { labStatementText } from '../src/strategies';
import { machineLine, median, ms, printTable, quantile, type Row, range, runsFromEnv } from './lib';

const RUNS = runsFromEnv('BENCH_ANALYZE_RUNS', 200);
const TARGET_MS = 5;

const here = import.meta.dirname;
/** One of the lab's own statements (src/sql/ or a strategy's folder), as the lab sends it. */
const labText = (id: string) => {
  const found = labStatementText(id);
  if (!found) throw new Error(`no lab statement ${id}`);
  return found.text;
};
const corpusDir = join(here, '..', 'tests', 'ground-truth', 'claim-corpus');

const statements: { what: string; role: Role; sql: string }[] = [
  { what: 'claim-for-update.sql', role: 'claim', sql: labText('claim-for-update') },
  { what: 'claim-skip-locked.sql', role: 'claim', sql: labText('claim-skip-locked') },
  { what: 'complete-fenced.sql', role: 'complete', sql: labText('complete-fenced') },
  { what: 'heartbeat-fenced.sql', role: 'heartbeat', sql: labText('heartbeat-fenced') },
];
const corpus = readdirSync(corpusDir)
  .filter((file) => file.endsWith('.sql'))
  .map((file) => {
    const sql = readFileSync(join(corpusDir, file), 'utf8');
    return { file, sql, role: (/^-- role: (\w+)/m.exec(sql)?.[1] ?? 'claim') as Role };
  });

const loadStart = performance.now();
const parser = await loadParser();
const loadMs = performance.now() - loadStart;

function timeOne(sql: string, role: Role): number[] {
  for (let i = 0; i < Math.min(RUNS, 20); i++) analyzeWith(parser, sql, role); // warm-up
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    analyzeWith(parser, sql, role);
    samples.push(performance.now() - start);
  }
  return samples;
}

const rows: Row[] = [{ what: 'load the parser (first call, once)', median: ms(loadMs, 1), n: 1 }];
for (const statement of statements) {
  const samples = timeOne(statement.sql, statement.role);
  const p95 = quantile(samples, 0.95);
  rows.push({
    what: `parse + derive ${statement.what}`,
    median: ms(median(samples), 2),
    p95: ms(p95, 2),
    range: range(samples, (v) => ms(v, 2)),
    n: samples.length,
    target: `≤ ${TARGET_MS} ms`,
    ok: p95 <= TARGET_MS,
  });
}
const perVariant = corpus.map((variant) => median(timeOne(variant.sql, variant.role)));
const worst = Math.max(...perVariant);
rows.push({
  what: `parse + derive, ${corpus.length} corpus variants (median of each)`,
  median: ms(median(perVariant), 2),
  range: range(perVariant, (v) => ms(v, 2)),
  n: corpus.length,
  target: `≤ ${TARGET_MS} ms`,
  ok: worst <= TARGET_MS,
});

console.log(machineLine());
printTable('Claim analyzer (Node): PostgreSQL parser + shape, probe and after-wait derivation', rows);

/** parse + derive per statement in Chromium, timed inside the page. */
async function browserRows(): Promise<Row[]> {
  const outDir = mkdtempSync(join(tmpdir(), 'lease-lab-analyze-bench-'));
  const pages = join(here, 'pages');
  try {
    await build({
      configFile: false,
      root: pages,
      base: './',
      logLevel: 'error',
      build: { outDir, emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 5000, rolldownOptions: { input: { analyze: join(pages, 'analyze.html') } } },
    });
    const site = await startStaticServer({ root: outDir, port: 0, precompressed: false, contentSecurityPolicy: null });
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const page = await browser.newPage();
      await page.goto(`${site.url}analyze.html`);
      await page.waitForFunction(() => typeof (window as unknown as { benchAnalyze?: unknown }).benchAnalyze === 'function');
      const result = await page.evaluate(
        (runs) =>
          (window as unknown as { benchAnalyze(runs: number): Promise<{ loadMs: number; statements: { what: string; samples: number[] }[] }> }).benchAnalyze(
            runs,
          ),
        RUNS,
      );
      const rows: Row[] = [{ what: 'load the parser in the page (first Apply, once)', median: ms(result.loadMs, 1), n: 1 }];
      for (const { what, samples } of result.statements) {
        const p95 = quantile(samples, 0.95);
        rows.push({
          what: `parse + derive ${what}`,
          median: ms(median(samples), 2),
          p95: ms(p95, 2),
          range: range(samples, (v) => ms(v, 2)),
          n: samples.length,
          target: `≤ ${TARGET_MS} ms`,
          ok: p95 <= TARGET_MS,
        });
      }
      return rows;
    } finally {
      await browser.close();
      await site.close();
    }
  } finally {
    rmSync(outDir, { recursive: true, force: true });
  }
}

if (process.env.BENCH_ANALYZE_BROWSER !== '0')
  printTable('Claim analyzer (Chromium): parse + derive per statement, as "Your SQL" applies it', await browserRows());
