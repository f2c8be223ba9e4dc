/**
 * Oban (oban-bg/oban@2939e31): a skip-locked claim, a rescue purely on time (Lifeline), no heartbeat,
 * and a completion by id. Fencing off plays Oban's own guard (the id);
 * fencing on puts the lab's generation fence on the owner's writes instead.
 */

import { noHeartbeat, ownerWritesById, queueClaim, queueSweep } from '../queue';
import { strategyText } from '../statement';
import type { StrategyDefinition } from '../types';
import cancelAck from './oban-cancel-ack.sql?raw';
import claim from './oban-claim.sql?raw';
import claimAvailable from './oban-claim-available.sql?raw';
import complete from './oban-complete.sql?raw';
import heartbeat from './oban-no-heartbeat.sql?raw';
import heartbeatFenced from './oban-no-heartbeat-fenced.sql?raw';
import lifelineRescue from './oban-lifeline-rescue.sql?raw';
import probeById from './oban-probe-by-id.sql?raw';
import work from './oban-work.sql?raw';

const FOLDER = 'oban';
const BY_ID = strategyText(FOLDER, 'oban-probe-by-id', probeById);

export const oban = {
  id: 'oban',
  label: 'Oban: Lifeline rescue on time, no heartbeat, complete by id',
  inWords: "Oban's claim (skip-locked, a rescue purely on time, completion by id)",
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: queueClaim(FOLDER, 'oban-claim', claim) },
  heartbeat: noHeartbeat(FOLDER, 'oban', heartbeat, heartbeatFenced),
  ...ownerWritesById(FOLDER, 'oban', { work, complete, cancelAck }, BY_ID),
  rescuer: {
    shape: 'one-statement',
    claim: queueClaim(FOLDER, 'oban-claim-available', claimAvailable),
    sweep: queueSweep(FOLDER, 'oban-lifeline-rescue', lifelineRescue, "the Lifeline's UPDATE"),
    inWords:
      "The Lifeline: one UPDATE puts every executing job older than rescue_after back to available, purely on time. It reads nothing first and checks no attempt, so the fencing switch changes only the workers' writes.",
  },
  queue: {
    name: 'Oban',
    source: 'oban-bg/oban@2939e3134d0812195fbfcfe9a8e8d4bbd30bb23b',
    files: ['lib/oban/engines/basic.ex', 'lib/oban/lifeline.ex'],
    ownershipEnds:
      'A rescue on a timer: the Lifeline plugin puts an executing job whose attempted_at is older than rescue_after (60 minutes by default) back to available, purely on time.',
    heartbeat: 'None in open-source Oban: nothing renews a job while it runs.',
    completionGuard: 'The id only: complete_job sets state completed where the id matches, with no check of state, node or attempt.',
    fencingSwitch: "Off: Oban's own guard, the id. On: the lab's generation fence on progress, completion and cancel, which Oban does not have.",
    inTheLab:
      "rescue_after is the scenario's lease; the Lifeline's rescue is folded into the claim, so a run is claimable as soon as its attempt is older than that. Where a scenario has a rescuer (hexpm #1825's), the Lifeline is its own session: one UPDATE of every stuck run, and the claim takes pending runs only. Queue limits, priorities and max_attempts are not modelled.",
  },
} as const satisfies StrategyDefinition;
