import { defineScenario } from './define';

/**
 * oban-bg/oban#532, closed by oban-bg/oban@f5afde4bb41784e09069cdfc97b1307f53a6acc1 (lib/oban/queue/supervisor.ex):
 * a producer crashed while its jobs kept running, the job was rescued and run again beside its first
 * attempt, and the older attempt, finishing last, overwrote the newer one's state by id. That fix stops the
 * jobs with their producer; the settlement itself is still by id alone at
 * oban-bg/oban@2939e3134d0812195fbfcfe9a8e8d4bbd30bb23b:lib/oban/engines/basic.ex (complete_job, error_job),
 * which is what this scenario's fix, the lab's fence, guards.
 */
export const incidentOban532 = defineScenario({
  id: 'incident-oban-532',
  title: 'Oban #532: the older attempt finished last and overwrote the newer one',
  summary:
    "A's job outlives its rescue: at 1:00:01 the Lifeline puts it back and B runs it start to finish. A finishes\nlast, and its completion by id overwrites B's finished run with A's answer.",
  // rescue_after: Oban's default of 60 minutes.
  leaseSeconds: 3600,
  heartbeatSeconds: null,
  workSteps: 1,
  defaultStrategy: 'oban',
  defaultFencing: false,
  // The Lifeline is a plugin on a timer, apart from the workers: the rescuer's own session.
  rescuer: {},
  script: ['A', 'A', 'A', '+3601', 'rescue', 'B', 'B', 'B', 'B', 'A'],
  concepts: ['lease', 'fencing'],
  incident: {
    queue: 'oban',
    source: 'oban-bg/oban#532',
    url: 'https://github.com/oban-bg/oban/issues/532',
    whatUsersSaw:
      'Producers terminated on the attempt_range check constraint, and jobs sat retryable with attempt = max_attempts: attempts 2 and 3 of one job had run at once, 3 failed first (discarded), then 2 failed and set the job back to retryable.',
    rootCause:
      "Fencing: the producer crashed while its jobs kept running (its queue supervisor was :rest_for_one), the job was rescued and attempted again, and each attempt settles by the job's id alone, so the older attempt's settlement, landing last, overwrote the newer one's.",
    inTheLab:
      "The report ran Oban Pro's Lifeline and SmartEngine (area:pro); the lab plays the open-source Lifeline, which rescues on time, in the rescuer's lane, and leaves the producer's crash out: either way the job is put back while attempt A still runs. The lab's workers do not fail, so the stale settlement is a completion rather than error_job: B's finished run gets A's answer instead of discarded → retryable. Oban's own fix (one_for_all) stops the running jobs with the producer; the lab plays the guard on the write instead, which Oban's settlement by id still lacks (oban-bg/oban#1496, 2026).",
    anomaly: 'split-ownership',
    fix: {
      strategy: 'oban',
      fencing: true,
      inWords: "the attempt as a fence: A's completion must name the run's current generation, so it matches no row once B's claim raised it",
    },
  },
});
