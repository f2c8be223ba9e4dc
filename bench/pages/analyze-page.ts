// The page bench/analyze.bench.ts drives in Chromium: "Your SQL"'s parse + derive per statement, timed in
// the page, as the browser's Apply runs it (the parser loaded by a dynamic import, as the app loads it).
import claimSkipLocked from '../../src/strategies/skip-locked/claim-skip-locked.sql?raw';
import completeFenced from '../../src/sql/complete-fenced.sql?raw';
import heartbeatFenced from '../../src/sql/heartbeat-fenced.sql?raw';

type Role = 'claim' | 'heartbeat' | 'complete';
const STATEMENTS: { what: string; role: Role; sql: string }[] = [
  { what: 'claim-skip-locked.sql', role: 'claim', sql: claimSkipLocked },
  { what: 'heartbeat-fenced.sql', role: 'heartbeat', sql: heartbeatFenced },
  { what: 'complete-fenced.sql', role: 'complete', sql: completeFenced },
];

async function benchAnalyze(runs: number): Promise<{ loadMs: number; statements: { what: string; samples: number[] }[] }> {
  const loadStart = performance.now();
  const { loadParser } = await import('../../src/sql/analyze/parser');
  const { analyzeWith } = await import('../../src/sql/analyze/analyze');
  const parser = await loadParser();
  const loadMs = performance.now() - loadStart;
  const statements = STATEMENTS.map(({ what, role, sql }) => {
    for (let i = 0; i < Math.min(runs, 20); i++) analyzeWith(parser, sql, role); // warm-up
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const start = performance.now();
      const analysis = analyzeWith(parser, sql, role);
      samples.push(performance.now() - start);
      if (!analysis.ok) throw new Error(`${what}: ${analysis.error.message}`);
    }
    return { what, samples };
  });
  return { loadMs, statements };
}

(window as unknown as { benchAnalyze: typeof benchAnalyze }).benchAnalyze = benchAnalyze;
