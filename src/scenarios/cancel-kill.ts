import type { Scenario } from '../sim/types';

export const cancelKill: Scenario = {
  id: 'cancel-kill',
  title: 'Cancelling by killing the process',
  summary: 'The operator kills A to stop run 123, but nothing records that the run should stop.\nThe lease expires, B reclaims the run and carries on: the cancel is lost.',
  workers: [{ id: 'A' }, { id: 'B' }],
  runs: [{ runId: 123, createdAtSeconds: -120, leaseGeneration: 17 }],
  defaultStrategy: 'skip-locked',
  defaultFencing: true,
  leaseSeconds: 60,
  heartbeatSeconds: null,
  workSteps: 2,
  costPerCallCents: 40,
  maxClaimAttempts: 3,
  faults: [],
  script: ['A', 'A', 'A', 'kill:123', '+61', 'B', 'B', 'B', 'B', 'B'],
  concepts: ['cancellation'],
};
