import type { Scenario } from '../sim/types';

export const stuckHeartbeat: Scenario = {
  id: 'stuck-heartbeat',
  title: 'Alive but stuck: heartbeats without progress',
  summary: 'A renews its lease on time but never finishes a model call. The lease never expires, so no one\nrescues the run: a heartbeat says the worker is alive, not that it is getting anywhere.',
  workers: [{ id: 'A', stuck: true }, { id: 'B' }],
  runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
  defaultStrategy: 'skip-locked',
  defaultFencing: true,
  leaseSeconds: 60,
  heartbeatSeconds: 20,
  workSteps: 2,
  costPerCallCents: 40,
  maxClaimAttempts: 3,
  faults: [],
  script: ['A', 'A', '+20', 'A', '+20', 'A', '+20', 'A', '+20', 'B'],
  concepts: ['heartbeat', 'progress'],
};
