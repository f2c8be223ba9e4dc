import { defineScenario } from './define';

export const lockWait = defineScenario({
  id: 'lock-wait',
  title: 'A holds its claim open: does B wait, fail or skip?',
  summary: 'A has locked run 123 and not committed yet when B claims. Plain FOR UPDATE makes B wait,\nNOWAIT makes B fail at once, SKIP LOCKED hands B the next run.',
  runs: [
    { runId: 123, createdAtSeconds: -120, leaseGeneration: 17 },
    { runId: 124, createdAtSeconds: -60 },
  ],
  defaultStrategy: 'for-update',
  heartbeatSeconds: 20,
  workSteps: 1,
  script: ['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B'],
  concepts: ['atomic-claim', 'for-update', 'nowait'],
});
