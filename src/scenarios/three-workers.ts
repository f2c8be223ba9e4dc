import type { Scenario } from '../sim/types';

export const threeWorkers: Scenario = {
  id: 'three-workers',
  title: 'Three workers, three runs, one atomic claim',
  summary: 'Each claim locks the oldest free run inside its transaction. SKIP LOCKED lets the next worker\npass over a run someone is claiming, so every run gets exactly one owner.',
  workers: [{ id: 'A' }, { id: 'B' }, { id: 'C' }],
  runs: [
    { runId: 123, createdAtSeconds: -180, leaseGeneration: 17 },
    { runId: 124, createdAtSeconds: -120 },
    { runId: 125, createdAtSeconds: -60 },
  ],
  defaultStrategy: 'skip-locked',
  defaultFencing: true,
  leaseSeconds: 60,
  heartbeatSeconds: 20,
  workSteps: 1,
  costPerCallCents: 40,
  maxClaimAttempts: 3,
  faults: [],
  script: ['A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C', 'A', 'B', 'C'],
  concepts: ['atomic-claim', 'skip-locked'],
};
