/**
 * Prints the README's list of refused shapes from ./refusals.ts, as Markdown:
 *   node --import tsx src/sql/analyze/print-refusals.ts
 */
import { REFUSALS } from './refusals';

export function refusalList(): string {
  return Object.entries(REFUSALS)
    .map(([id, reason]) => `- \`${id}\`: ${reason}.`)
    .join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) console.log(refusalList());
