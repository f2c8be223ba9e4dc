import type { Scenario } from '../sim/types';

export const crashOrphan: Scenario = {
  id: 'crash-orphan',
  title: 'A crashes: its run is an orphan until the lease expires',
  summary: 'A claims run 123 and dies mid-work. Nobody can take the run while the lease is valid;\nonce it expires the atomic claim reclaims it for B with the next generation.',
  summaries: {
    naive: "A claims run 123 and dies mid-work. The claim's SELECT reads only pending runs, so no one ever\nreclaims it: the run stays running under a dead owner, stranded.",
    cas: "A claims run 123 and dies mid-work. The claim's SELECT reads only pending runs, so no one ever\nreclaims it: the run stays running under a dead owner, stranded.",
  },
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
  script: ['A', 'A', 'A', 'crash:A', '+30', 'B', '+31', 'B', 'B', 'B', 'B', 'B'],
  concepts: ['lease', 'orphan', 'reclaim'],
};
