import { defineScenario } from './define';

export const lockWait = defineScenario({
  id: 'lock-wait',
  title: 'A holds its claim open: does B wait, fail or skip?',
  summary:
    "A has locked run 123 and not committed yet when B claims. With plain FOR UPDATE B waits for A's\nlock; once A commits, B's claim finds run 123 taken and takes run 124.",
  summaries: {
    'skip-locked':
      'A has locked run 123 and not committed yet when B claims. With SKIP LOCKED B passes over the\nlocked row at once and takes run 124: nobody waits.',
    nowait:
      "A has locked run 123 and not committed yet when B claims. With NOWAIT B's claim fails at once\n(55P03); B tries again once A has committed and takes run 124.",
    naive:
      'The naive claim holds no lock between its SELECT and its UPDATE, so there is nothing to wait for:\nA and B both read run 123, both claim it and both pay for it.',
    cas: "Compare-and-set holds no lock between its SELECT and its UPDATE, so nobody waits: both read run 123,\nA's UPDATE wins, B's matches 0 rows, and B looks again and takes run 124.",
  },
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
