import { defineScenario } from './define';

/** riverqueue/river PR #141: a job that finished before the cancel reached it completed as if never cancelled. */
export const incidentRiver141 = defineScenario({
  id: 'incident-river-141',
  title: 'River PR #141: a job cancelled just before it finished completed anyway',
  summary:
    "A has made both model calls for run 123 when the operator cancels it. A's completion checks only that the\nrun is running, so it marks the run done: the cancel request stays in the row, and nothing acted on it.",
  workSteps: 2,
  defaultStrategy: 'river',
  defaultFencing: false,
  script: ['A', 'A', 'A', 'A', 'cancel:123', 'A', 'B'],
  concepts: ['cancellation'],
  incident: {
    queue: 'river',
    source: 'riverqueue/river PR #141',
    url: 'https://github.com/riverqueue/river/pull/141',
    whatUsersSaw:
      "Found while River's Cancel API was written: a job that finished running before the cancel signal reached its client was completed, or retried, as though no one had cancelled it.",
    rootCause:
      "Cancellation: River's cancel of a running job writes the request into the row (cancel_attempted_at in its metadata) and signals the job's client; the completion write checks only state = 'running', not the request, so a job past its last safe point completes. River's fix checks the request in that write, but only to cancel a job that would be retried: one that returned success is still completed.",
    inTheLab:
      "River's LISTEN/NOTIFY signal is left out: the lab's worker sees cancel_requested only at a safe point (a progress write or heartbeat), and A has none left after its last model call. The job's error and retry are not modelled.",
    anomaly: 'lost-cancel',
    fix: {
      strategy: 'river',
      fencing: true,
      inWords:
        "the lab's completion guarded by the cancel request, River PR #141's check applied to every finish (River applies it only to a retry): A's finish marks the run cancelled",
    },
  },
});
