/**
 * `npm run sim -- check three-workers --claim FILE --db URL`: three workers often wait on one row, and one
 * commit then wakes two of them at once. A real server lets them on in an order of its own (usually the
 * first to have waited, not always), and a statement that waited keeps the row locked until its
 * transaction ends, even an UPDATE that then matched no row (corpus 19). The check used to ask the waiters
 * oldest first and leave one shown waiting on a statement that had already finished; the next step of the
 * worker it waited for then really waited on the server, and the check stopped, exit 2, with "A cannot
 * move: A is waiting for a row lock held by B" and no schedule. Now every schedule plays to the end on
 * both, with the same outcomes: the same groups, counts and witnesses as on PGlite.
 *
 * Every schedule of three workers, through the CLI on both databases, is minutes of work: these run in the
 * full ground truth (GROUND_TRUTH=full, what CI runs); every \`npm test\` holds the same logic without a server
 * in tests/unit/wake-order.test.ts. Measured with a load average of 25 on 2 cores: corpus 19 (its UPDATE
 * waits, then matches nothing: 45,000 schedules) 8 min, FOR UPDATE 2.1 min (12,609 schedules), SKIP LOCKED
 * 1.4 min. NOWAIT's claim is left out: it never waits for a row lock, so no commit wakes two of its claims.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot, simStarted } from '../support/cli';
import { testDatabaseUrl } from './differential';

const TIMEOUT_MS = 900_000;
const FULL = process.env.GROUND_TRUTH === 'full';

interface Report {
  coverage: 'all' | 'sample';
  total: number;
  exitCode: number;
  groups: { key: string; count: number; witness: string[] }[];
}

const claims = [
  'tests/ground-truth/claim-corpus/19-cte-no-lock-recheck-in-update.sql',
  'src/strategies/for-update/claim-for-update.sql',
  'src/strategies/skip-locked/claim-skip-locked.sql',
];

describe('check three-workers --db: every schedule to the end, the same outcomes as on PGlite', () => {
  for (const file of claims) {
    const name = file.split('/').at(-1)!;
    if (!FULL) {
      it.skip(`${name}: in the full ground truth (GROUND_TRUTH=full)`, () => {});
      continue;
    }
    it(name, { timeout: TIMEOUT_MS }, async () => {
      const url = await testDatabaseUrl(`three_workers_wake_${name.replace(/\W+/g, '_')}`);
      const args = ['check', 'three-workers', '--claim', join(projectRoot, file), '--json'];
      const [onServer, onPglite] = await Promise.all([simStarted([...args, '--db', url], TIMEOUT_MS).answer, simStarted(args, TIMEOUT_MS).answer]);
      expect(onServer.stderr, 'the server').toBe('');
      expect(onPglite.stderr, 'PGlite').toBe('');
      const [server, pglite] = [JSON.parse(onServer.stdout), JSON.parse(onPglite.stdout)] as Report[];
      // Past the explorer's state limit both would play the same seeded sample.
      expect(server!.coverage).toBe(pglite!.coverage);
      expect(server!.total).toBeGreaterThan(0);
      expect(server!.total).toBe(pglite!.total);
      expect(server!.groups).toEqual(pglite!.groups);
      expect(onServer.code).toBe(onPglite.code);
    });
  }
});
