/**
 * Writes the queue comparison (src/lessons/queue-comparison.ts, the data the page's "Compare queues" shows)
 * into README.md between its markers. Without --write it prints the table and exits 1 if README differs.
 *
 *   node --import tsx --import ./scripts/raw-loader.mjs scripts/readme-comparison.ts --write
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { comparisonMarkdown, withComparison } from '../src/lessons/queue-comparison-markdown';

const README = new URL('../README.md', import.meta.url);
const readme = readFileSync(README, 'utf8');
const updated = withComparison(readme);
if (updated === null) {
  console.error('README.md has no queue-comparison markers.');
  process.exit(2);
}
if (process.argv.includes('--write')) {
  if (updated !== readme) writeFileSync(README, updated);
  console.log(updated === readme ? 'README.md: the comparison is up to date.' : 'README.md: the comparison table was rewritten.');
} else {
  console.log(comparisonMarkdown());
  if (updated !== readme) {
    console.error('README.md differs from the data: run with --write.');
    process.exit(1);
  }
}
