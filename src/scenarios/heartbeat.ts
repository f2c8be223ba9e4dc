import { defineScenario } from './define';

export const heartbeat = defineScenario({
  id: 'heartbeat',
  title: 'Heartbeats keep a long run owned',
  summary: 'A needs longer than one 60 s lease. Every 30 s it renews the lease, so when B looks for work\nat 1:30 the run is still A\'s, though the first lease ran out long ago.',
  heartbeatSeconds: 30,
  workSteps: 3,
  script: ['A', 'A', 'A', '+30', 'A', 'A', '+30', 'A', '+30', 'B', 'A', 'A', 'A'],
  concepts: ['heartbeat', 'lease'],
});
