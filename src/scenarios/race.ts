import { defineScenario } from './define';

export const race = defineScenario({
  id: 'race',
  title: 'Two workers, two pending runs',
  summary: 'A and B poll for work at the same moment. With SELECT then UPDATE both read run 123 as pending,\nboth claim it, and both pay for its model calls.',
  // The default summary is the naive claim's story; every other claim sends B on to run 124.
  summaries: {
    cas: 'A and B poll for work at the same moment and both read run 123 as pending. Compare-and-set lets only\nthe first UPDATE through: the other matches 0 rows, looks again and takes run 124.',
    'skip-locked':
      "A and B poll for work at the same moment. The atomic claim chooses and takes a run in one statement:\nA locks run 123, B's claim skips the locked row and takes run 124. No run is claimed twice.",
    'for-update':
      "A and B poll for work at the same moment. The atomic claim chooses and takes a run in one statement:\nA locks run 123, B's plain FOR UPDATE waits for A to commit, then takes run 124. No run is claimed twice.",
    nowait:
      "A and B poll for work at the same moment. The atomic claim chooses and takes a run in one statement:\nA locks run 123, B's NOWAIT claim fails at once (55P03), tries again and takes run 124. No run is claimed twice.",
  },
  runs: [
    { runId: 123, createdAtSeconds: -120, leaseGeneration: 17 },
    { runId: 124, createdAtSeconds: -60, leaseGeneration: 3 },
  ],
  defaultStrategy: 'naive',
  defaultFencing: false,
  heartbeatSeconds: 20,
  script: ['A', 'B', 'A', 'B', 'A', 'B', 'A', 'B', 'A', 'B'],
  concepts: ['race', 'claim'],
});
