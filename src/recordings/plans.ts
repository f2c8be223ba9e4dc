/**
 * The traces the page shows recorded on a real PostgreSQL server: which scenario, claim, isolation level and
 * schedule each one plays. The page runs every claim at READ COMMITTED (PGlite is one session), so what a
 * stricter level does is shown from these, recorded by `npm run record-isolation` (scripts/record-isolation.ts)
 * into src/recordings/<id>.json and re-recorded by the ground truth (tests/ground-truth/recordings.test.ts),
 * which fails when PostgreSQL's answer differs from the file.
 *
 * The schedules are the ground truth's for the same claims (tests/ground-truth/isolation-cli.test.ts); after
 * them the workers finish round-robin, as `npm run sim -- run` does.
 */
import type { StrictIsolation } from '../sim/isolation';
import type { Strategy } from '../sim/types';

export interface RecordingPlan {
  /** The file's name (src/recordings/<id>.json) and the link's word for it. */
  id: string;
  scenarioId: string;
  strategy: Strategy;
  isolation: StrictIsolation;
  /** The schedule's given tokens, or the scenario's own script; round-robin finishes the run after them. */
  schedule: readonly string[] | 'script';
  /** What the recording shows, in one line (the chapter's link reads it). */
  shows: string;
}

/**
 * The tenant cap's write skew (the level "Break the tenant cap"): once run 120's lease has run out, A and B
 * each claim with their transactions open at once, then commit in turn.
 */
const WRITE_SKEW = ['+31', 'A', 'B', 'A', 'B'];

export const RECORDING_PLANS = [
  {
    id: 'race-naive-repeatable-read',
    scenarioId: 'race',
    strategy: 'naive',
    isolation: 'repeatable-read',
    schedule: ['A', 'B', 'A', 'B', 'A', 'B', 'B', 'B'],
    shows: "the naive claim at REPEATABLE READ: B's UPDATE waits for A, fails 40001, and B rolls back and claims run 124",
  },
  {
    id: 'race-cas-repeatable-read',
    scenarioId: 'race',
    strategy: 'cas',
    isolation: 'repeatable-read',
    schedule: ['A', 'B', 'A', 'B', 'A', 'B', 'B', 'B'],
    shows: "compare-and-set at REPEATABLE READ: B's UPDATE waits for A, then fails 40001 where READ COMMITTED matches 0 rows",
  },
  {
    id: 'three-workers-skip-locked-serializable',
    scenarioId: 'three-workers',
    strategy: 'skip-locked',
    isolation: 'serializable',
    schedule: 'script',
    shows: "the atomic SKIP LOCKED claim at SERIALIZABLE: A commits, B's and C's COMMIT fail 40001, and they claim again",
  },
  {
    id: 'tenant-cap-repeatable-read',
    scenarioId: 'tenant-backlog',
    strategy: 'tenant-cap',
    isolation: 'repeatable-read',
    schedule: WRITE_SKEW,
    shows:
      'write skew at REPEATABLE READ: A and B each count acme below its cap of one, claim runs 120 and 121, and both COMMITs succeed: acme runs two at once',
  },
  {
    id: 'tenant-cap-serializable',
    scenarioId: 'tenant-backlog',
    strategy: 'tenant-cap',
    isolation: 'serializable',
    schedule: WRITE_SKEW,
    shows:
      "write skew at SERIALIZABLE: A and B each count acme below its cap of one and claim runs 120 and 121; A commits, B's COMMIT fails 40001, and B claims again, sees acme at its cap and takes beta's run 124",
  },
] as const satisfies readonly RecordingPlan[];

export type RecordingId = (typeof RECORDING_PLANS)[number]['id'];
