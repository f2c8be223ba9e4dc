import type { Scenario } from '../sim/types';

export const race: Scenario = {
  id: 'race',
  title: 'Two workers, one pending run',
  summary: 'A and B poll for work at the same moment. With SELECT then UPDATE both read run 123 as pending,\nboth claim it, and both pay for its model calls.',
  workers: [{ id: 'A' }, { id: 'B' }],
  runs: [
    { runId: 123, createdAtSeconds: -120, leaseGeneration: 17 },
    { runId: 124, createdAtSeconds: -60, leaseGeneration: 3 },
  ],
  defaultStrategy: 'naive',
  defaultFencing: false,
  leaseSeconds: 60,
  heartbeatSeconds: 20,
  workSteps: 2,
  costPerCallCents: 40,
  maxClaimAttempts: 3,
  faults: [],
  script: ['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B'],
  concepts: ['race', 'claim'],
};
