import { defineScenario } from './define';

export const threeWorkers = defineScenario({
  id: 'three-workers',
  title: 'Three workers, three runs',
  summary:
    'Each claim locks the oldest free run inside its transaction. SKIP LOCKED lets the next worker\npass over a run someone is claiming, so every run gets exactly one owner.',
  summaries: {
    naive:
      'Each worker reads the oldest pending run, then claims it with an UPDATE that checks nothing. Workers\nthat read before anyone writes all claim the same run: nothing stops a double claim.',
    cas: 'Each worker reads the oldest pending run, then claims it only if it is still pending. Of the workers\nthat read the same run one wins; the others match 0 rows and look again.',
    'for-update':
      'Each claim locks the oldest free run inside its transaction. With plain FOR UPDATE a worker that\nreaches a locked run waits until its claimer commits; no run gets two owners.',
    nowait:
      'Each claim locks the oldest free run inside its transaction. With NOWAIT a worker that reaches a\nlocked run fails at once (55P03) and tries again; no run gets two owners.',
  },
  workers: [{ id: 'A' }, { id: 'B' }, { id: 'C' }],
  runs: [
    { runId: 123, createdAtSeconds: -180, leaseGeneration: 17 },
    { runId: 124, createdAtSeconds: -120 },
    { runId: 125, createdAtSeconds: -60 },
  ],
  heartbeatSeconds: 20,
  workSteps: 1,
  script: ['A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C'],
  concepts: ['atomic-claim', 'skip-locked'],
});
