/**
 * pgqueuer (janbjorge/pgqueuer@0aa3dde, the commit before the fix for issue #430): a skip-locked dequeue
 * that also re-picks a picked job whose heartbeat is older than its entrypoint's retry_timer, a heartbeat
 * by job id, and a completion that deletes the job by id. Fencing off plays pgqueuer's own guard (the id);
 * fencing on puts the lab's generation fence on the owner's writes instead.
 */
import { SHARED_WRITES } from '../shared';
import { ownerWritesById, queueClaim, queueWrite } from '../queue';
import { sharedText, strategyText } from '../statement';
import type { StrategyDefinition } from '../types';
import cancelAck from './pgqueuer-cancel-ack.sql?raw';
import claim from './pgqueuer-claim.sql?raw';
import complete from './pgqueuer-complete.sql?raw';
import heartbeat from './pgqueuer-heartbeat.sql?raw';
import probeById from './pgqueuer-probe-by-id.sql?raw';
import work from './pgqueuer-work.sql?raw';

const FOLDER = 'pgqueuer';
const BY_ID = strategyText(FOLDER, 'pgqueuer-probe-by-id', probeById);

export const pgqueuer = {
  id: 'pgqueuer',
  label: 'pgqueuer: heartbeat against retry_timer, complete by id',
  inWords: "pgqueuer's dequeue (skip-locked, a picked job re-picked once its heartbeat is older than retry_timer, completion by id)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim(FOLDER, 'pgqueuer-claim', claim) },
  heartbeat: {
    // The heartbeat tests the same row as the lab's unfenced completion (the run, still running), so its probe fits it.
    unfenced: queueWrite(strategyText(FOLDER, 'pgqueuer-heartbeat', heartbeat), ['run', 'leaseSeconds'], sharedText('probe-complete-unfenced')),
    fenced: SHARED_WRITES.heartbeat.fenced,
  },
  ...ownerWritesById(FOLDER, 'pgqueuer', { work, complete, cancelAck }, BY_ID),
  queue: {
    name: 'pgqueuer',
    source: 'janbjorge/pgqueuer@0aa3dde8cca5bb49116a952785cbc24cfe22641c',
    files: ['pgqueuer/qb.py', 'pgqueuer/qm.py', 'pgqueuer/heartbeat.py'],
    ownershipEnds:
      "A stale heartbeat: the dequeue takes a picked job again once its heartbeat is older than its entrypoint's retry_timer, whether or not the worker that picked it still runs it.",
    heartbeat:
      'Per job, through a buffer: before PR #431 each running job beat once per retry_timer and the buffer wrote beats every half retry_timer, so the heartbeat in the table could be older than retry_timer while the job ran. Since PR #431, a beat every half retry_timer, written every quarter.',
    completionGuard: 'The id only: a finished job is deleted by id and logged, so a worker whose job was re-picked still finishes it.',
    fencingSwitch:
      "Off: pgqueuer's own guard, the id. On: the lab's generation fence on the heartbeat, progress, completion and cancel, which pgqueuer does not have.",
    inTheLab:
      "retry_timer is the scenario's lease and the heartbeat interval its heartbeat; a beat is written when the worker sends it, so the buffer's delay is a poll that comes before the worker's next step. Priorities, execute_after, entrypoints, serialized dispatch, concurrency limits and the log table are not modelled; the lab marks the run done rather than deleting it.",
  },
} as const satisfies StrategyDefinition;
