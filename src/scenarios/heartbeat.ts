import { defineScenario } from './define';

export const heartbeat = defineScenario({
  id: 'heartbeat',
  title: 'Heartbeats keep a long run owned',
  summary:
    "A needs longer than one 60 s lease. Every 30 s it renews the lease, so when B looks for work\nat 1:30 the run is still A's, though the first lease ran out long ago.",
  // The select-then-update claims never look at a lease: renewing it changes nothing for them.
  summaries: {
    naive:
      'A needs longer than one 60 s lease and renews it every 30 s. B looks for work at 1:30 and finds none:\nthis claim reads only pending runs, so B would pass over run 123 even had the lease run out.',
    cas: 'A needs longer than one 60 s lease and renews it every 30 s. B looks for work at 1:30 and finds none:\nthis claim reads only pending runs, so B would pass over run 123 even had the lease run out.',
  },
  heartbeatSeconds: 30,
  workSteps: 3,
  script: ['A', 'A', 'A', '+30', 'A', 'A', '+30', 'A', '+30', 'B', 'A', 'A', 'A'],
  concepts: ['heartbeat', 'lease'],
});
