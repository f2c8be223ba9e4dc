import { defineScenario } from './define';

/** graphile/worker #169: a job that outlives the fixed 4-hour lock runs twice. */
export const incidentGraphile169 = defineScenario({
  id: 'incident-graphile-169',
  title: 'graphile-worker #169: a 6-hour job ran twice (the 4-hour lock)',
  summary:
    "A claims run 123, a job longer than graphile-worker's 4-hour lock. Nothing renews the lock: at 4 h the reset\nfrees it and B takes the run as well. Both pay for its model calls, and A's completion by id still lands.",
  leaseSeconds: 4 * 3600,
  // The lab's worker looks at its run every 3 hours; under graphile-worker that renews nothing.
  heartbeatSeconds: 3 * 3600,
  workSteps: 2,
  defaultStrategy: 'graphile-worker',
  defaultFencing: false,
  script: ['A', 'A', 'A', '+10800', 'A', '+3601', 'rescue', 'B', 'B', 'B', 'A', 'A', 'B', 'B'],
  concepts: ['lease', 'heartbeat'],
  // The stale-lock reset is a pass of its own on a timer, apart from the claims: the rescuer's own session.
  rescuer: {},
  incident: {
    queue: 'graphile-worker',
    source: 'graphile/worker#169',
    url: 'https://github.com/graphile/worker/issues/169',
    whatUsersSaw: 'A job that takes about 6 hours was started a second time while the first run was still going.',
    rootCause:
      'Lease: graphile-worker treats a lock older than 4 hours as abandoned, and nothing (no heartbeat) tells it the job is still alive, so a second worker claims it; completion deletes by id, so the first worker still completes it.',
    inTheLab:
      "The periodic reset of stale locks is the rescuer's lane: one UPDATE, on lock age alone; the 6-hour job is two model calls just over 4 hours apart, enough to outlive the lock.",
    anomaly: 'duplicate-execution',
    fix: { strategy: 'skip-locked', fencing: true, inWords: "a lease its heartbeat renews (the lab's atomic claim): the run stays A's while A is alive" },
  },
});
