/**
 * The truth corpus of claim/complete variants (tests/ground-truth/claim-corpus/*.sql): each file's SQL and
 * the outcome its header declares for the two-worker scene of src/sql/analyze/scenario.ts.
 *   -- variant: a one-line name        -- role: claim | complete
 *   -- a: what A's statement returns    -- b-waits: yes | no
 *   -- b-after-commit / b-after-rollback: what B's statement returns once A commits / rolls back
 *   -- predict: yes | refuse            -- why: one line
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Role } from '../../src/sql/analyze/contract';

export interface CorpusOutcome {
  a: string;
  bWaits: boolean;
  bAfterCommit: string;
  bAfterRollback: string;
}

export interface CorpusVariant {
  file: string;
  title: string;
  role: Role;
  sql: string;
  outcome: CorpusOutcome;
  /** false: the predictor must refuse this shape (it cannot know the outcome from the shape alone). */
  predictable: boolean;
  why: string;
}

const CORPUS_DIR = join(import.meta.dirname, '..', 'ground-truth', 'claim-corpus');

export function readCorpus(): CorpusVariant[] {
  return readdirSync(CORPUS_DIR)
    .filter((file) => file.endsWith('.sql'))
    .sort()
    .map((file) => parseVariant(file, readFileSync(join(CORPUS_DIR, file), 'utf8')));
}

function parseVariant(file: string, sql: string): CorpusVariant {
  const header = new Map<string, string>();
  for (const line of sql.split('\n')) {
    const match = /^-- ([a-z-]+): (.*)$/.exec(line);
    if (!match) break;
    header.set(match[1]!, match[2]!.trim());
  }
  const field = (name: string) => {
    const value = header.get(name);
    if (value === undefined) throw new Error(`${file}: the header has no "-- ${name}:" line`);
    return value;
  };
  const waits = field('b-waits');
  if (waits !== 'yes' && waits !== 'no') throw new Error(`${file}: b-waits must be yes or no`);
  const role = field('role');
  if (role !== 'claim' && role !== 'complete') throw new Error(`${file}: role must be claim or complete`);
  return {
    file,
    title: field('variant'),
    role,
    sql,
    outcome: { a: field('a'), bWaits: waits === 'yes', bAfterCommit: field('b-after-commit'), bAfterRollback: field('b-after-rollback') },
    predictable: field('predict') === 'yes',
    why: field('why'),
  };
}

/** The corpus as the Markdown table in docs/check-your-own-claim.md. */
export function corpusTable(variants: readonly CorpusVariant[] = readCorpus()): string {
  const rows = variants.map((v) => {
    const cells = [
      v.file.replace(/\.sql$/, ''),
      v.title,
      v.outcome.a,
      v.outcome.bWaits ? 'yes' : 'no',
      v.outcome.bAfterCommit,
      v.outcome.bAfterRollback,
      v.predictable ? 'agrees' : 'refuses',
    ];
    return `| ${cells.map((cell) => cell.replaceAll('|', '\\|')).join(' | ')} |`;
  });
  return ['| file | variant | A gets | B waits? | B after A commits | B after A rolls back | predictor |', '|---|---|---|---|---|---|---|', ...rows].join('\n');
}
