import { defineScenario } from './define';

/** hexpm/hexpm PR #1825: under Oban's Lifeline, a job longer than rescue_after ran two or three times. */
export const incidentObanHexpm1825 = defineScenario({
  id: 'incident-oban-hexpm-1825',
  title: 'Oban (hexpm #1825): the Lifeline rescued a long stats job that was still running',
  summary:
    "A runs a job longer than Oban's rescue_after of 6 minutes. At 6:01 the Lifeline puts it back to available,\npurely on time, B runs it as well, and A's completion by id still lands.",
  leaseSeconds: 6 * 60,
  // The lab's worker looks at its run every 4 minutes; under Oban that renews nothing.
  heartbeatSeconds: 240,
  workSteps: 2,
  defaultStrategy: 'oban',
  defaultFencing: false,
  script: ['A', 'A', 'A', '+240', 'A', '+121', 'rescue', 'B', 'B', 'B', 'A', 'A', 'B', 'B'],
  concepts: ['lease', 'heartbeat'],
  // The Lifeline is a plugin on a timer, apart from the workers: the rescuer's own session.
  rescuer: {},
  incident: {
    queue: 'oban',
    source: 'hexpm/hexpm PR #1825',
    url: 'https://github.com/hexpm/hexpm/pull/1825',
    whatUsersSaw: 'A nightly stats job that takes 9 to 47 minutes ran two or three times a night for a week.',
    rootCause:
      "Lease: Oban's Lifeline puts an executing job back once its attempt is older than rescue_after (6 minutes there), purely on time; the job ran longer than that and nothing renews it (no heartbeat).",
    inTheLab: "The Lifeline is the rescuer's lane: one UPDATE, on time alone; the job is two model calls just over 6 minutes apart.",
    anomaly: 'duplicate-execution',
    fix: { strategy: 'skip-locked', fencing: true, inWords: "a lease its heartbeat renews (the lab's atomic claim): the run stays A's while A is alive" },
  },
});
