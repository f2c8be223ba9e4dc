import { defineScenario } from './define';

export const race = defineScenario({
  id: 'race',
  title: 'Two workers, one pending run',
  summary: 'A and B poll for work at the same moment. With SELECT then UPDATE both read run 123 as pending,\nboth claim it, and both pay for its model calls.',
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
