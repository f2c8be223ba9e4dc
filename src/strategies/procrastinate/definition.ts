/**
 * procrastinate (procrastinate-org/procrastinate@f099a75): a skip-locked fetch, a worker heartbeat, stalled
 * jobs retried only by a task the user schedules, and a finish guarded by status todo or doing. Fencing off
 * plays procrastinate's own guard; fencing on puts the lab's generation fence on the owner's writes instead.
 */
import { SHARED_WRITES } from '../shared';
import { ownerWritesById, queueClaim, queueWrite } from '../queue';
import { neverWaits, strategyText } from '../statement';
import type { StrategyDefinition } from '../types';
import cancelAck from './procrastinate-cancel-ack.sql?raw';
import claim from './procrastinate-claim.sql?raw';
import claimTodo from './procrastinate-claim-todo.sql?raw';
import probeRetry from './procrastinate-probe-retry.sql?raw';
import probeRetryFenced from './procrastinate-probe-retry-fenced.sql?raw';
import retry from './procrastinate-retry.sql?raw';
import retryFenced from './procrastinate-retry-fenced.sql?raw';
import stalledFetch from './procrastinate-stalled-fetch.sql?raw';
import complete from './procrastinate-complete.sql?raw';
import probe from './procrastinate-probe-todo-or-doing.sql?raw';
import work from './procrastinate-work.sql?raw';

const FOLDER = 'procrastinate';
const TODO_OR_DOING = strategyText(FOLDER, 'procrastinate-probe-todo-or-doing', probe);

export const procrastinate = {
  id: 'procrastinate',
  label: 'procrastinate: worker heartbeat, stalled-job retry, finish if todo or doing',
  inWords: "procrastinate's fetch (skip-locked, a worker heartbeat, finish while todo or doing)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim(FOLDER, 'procrastinate-claim', claim) },
  // The worker's heartbeat, per run here (one lab worker runs one run).
  heartbeat: SHARED_WRITES.heartbeat,
  ...ownerWritesById(FOLDER, 'procrastinate', { work, complete, cancelAck }, TODO_OR_DOING),
  rescuer: {
    shape: 'read-then-write',
    claim: queueClaim(FOLDER, 'procrastinate-claim-todo', claimTodo),
    fetch: neverWaits(strategyText(FOLDER, 'procrastinate-stalled-fetch', stalledFetch), []),
    rescue: {
      unfenced: queueWrite(strategyText(FOLDER, 'procrastinate-retry', retry), ['run'], strategyText(FOLDER, 'procrastinate-probe-retry', probeRetry)),
      fenced: queueWrite(
        strategyText(FOLDER, 'procrastinate-retry-fenced', retryFenced),
        ['run', 'generation'],
        strategyText(FOLDER, 'procrastinate-probe-retry-fenced', probeRetryFenced),
      ),
    },
    inWords:
      "Fencing off: procrastinate's retry_job, while the job is still doing. On: the lab's fence also re-checks the attempt the stalled-job read saw, which procrastinate does not.",
  },
  queue: {
    name: 'procrastinate',
    source: 'procrastinate-org/procrastinate@f099a753730d5492bdebdc1c1f2796ffa5cf5671',
    files: ['procrastinate/sql/schema.sql', 'procrastinate/sql/queries.sql'],
    ownershipEnds:
      'A stalled worker: a doing job whose worker has not heartbeated for 30 seconds is stalled, and it is retried only when a task the user schedules calls get_stalled_jobs and retry_job.',
    heartbeat: 'Per worker, every 10 seconds (procrastinate_update_heartbeat_v1): it renews the worker, not a job.',
    completionGuard: "status IN ('todo', 'doing') only (procrastinate_finish_job_v1): no check of which worker holds the job.",
    fencingSwitch:
      "Off: procrastinate's own guard, todo or doing. On: the lab's generation fence on progress, completion and cancel, which procrastinate does not have.",
    inTheLab:
      "The stall age is the scenario's lease and the heartbeat is per run, so a worker whose run was retried learns it at its next heartbeat (procrastinate's worker heartbeat would not tell it). The user's stalled-job task is folded into the claim, except where a scenario has a rescuer (issue #1408's): there it is its own session, a read of stalled jobs then a retry per job, and the fetch takes pending runs only. Locks, queueing locks and priorities are not modelled.",
  },
} as const satisfies StrategyDefinition;
