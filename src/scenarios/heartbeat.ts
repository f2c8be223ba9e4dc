import type { Scenario } from '../sim/types';

export const heartbeat: Scenario = {
  id: 'heartbeat',
  title: 'Heartbeats keep a long run owned',
  summary: 'A needs longer than one 60 s lease. Every 30 s it renews the lease, so when B looks for work\nat 1:30 the run is still A\'s, though the first lease ran out long ago.',
  workers: [{ id: 'A' }, { id: 'B' }],
  runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
  defaultStrategy: 'skip-locked',
  defaultFencing: true,
  leaseSeconds: 60,
  heartbeatSeconds: 30,
  workSteps: 3,
  costPerCallCents: 40,
  maxClaimAttempts: 3,
  faults: [],
  script: ['A', 'A', 'A', '+30', 'A', 'A', '+30', 'A', '+30', 'B', 'A', 'A', 'A'],
  concepts: ['heartbeat', 'lease'],
};
