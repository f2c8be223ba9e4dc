import { defineScenario } from './define';

export const stuckHeartbeat = defineScenario({
  id: 'stuck-heartbeat',
  title: 'Alive but stuck: heartbeats without progress',
  summary:
    'A renews its lease on time but never finishes a model call. The lease never expires, so no one\nrescues the run: a heartbeat says the worker is alive, not that it is getting anywhere.',
  workers: [{ id: 'A', stuck: true }, { id: 'B' }],
  summaries: {
    naive:
      'A renews its lease on time but never finishes a model call. No one rescues the run, and not because of\nthe lease: this claim reads only pending runs. A heartbeat says the worker is alive, not that it is getting anywhere.',
    cas: 'A renews its lease on time but never finishes a model call. No one rescues the run, and not because of\nthe lease: this claim reads only pending runs. A heartbeat says the worker is alive, not that it is getting anywhere.',
  },
  heartbeatSeconds: 20,
  script: ['A', 'A', '+20', 'A', '+20', 'A', '+20', 'A', '+20', 'B'],
  concepts: ['heartbeat', 'progress'],
});
