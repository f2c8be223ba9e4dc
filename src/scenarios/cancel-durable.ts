import type { Scenario } from '../sim/types';

export const cancelDurable: Scenario = {
  id: 'cancel-durable',
  title: 'Durable cancellation: the request lives in the row',
  summary: 'An operator sets cancel_requested on run 123 while A works on it. A sees the flag at its next\nsafe point and stops; had A died first, whoever reclaimed the run would see it too.',
  workers: [{ id: 'A' }, { id: 'B' }],
  runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
  defaultStrategy: 'skip-locked',
  defaultFencing: true,
  leaseSeconds: 60,
  heartbeatSeconds: null,
  workSteps: 3,
  costPerCallCents: 40,
  maxClaimAttempts: 3,
  faults: [],
  script: ['A', 'A', 'A', 'cancel:123', 'A', 'A', 'B'],
  concepts: ['cancellation'],
};
