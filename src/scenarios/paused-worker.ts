import { defineScenario } from './define';

export const pausedWorker = defineScenario({
  id: 'paused-worker',
  title: 'A pauses past its lease, then writes',
  summary:
    'A owns run 123 with generation 18 and freezes for 90 s. B reclaims the run as generation 19.\nA wakes and writes its result: fencing rejects it; without fencing both believe they own the run.',
  summaries: {
    naive:
      'A owns run 123 with generation 18 and freezes for 90 s. Its lease runs out, but this claim reads only\npending runs: B finds no work, and A wakes and finishes the run. No takeover, so nothing for fencing to reject.',
    cas: 'A owns run 123 with generation 18 and freezes for 90 s. Its lease runs out, but this claim reads only\npending runs: B finds no work, and A wakes and finishes the run. No takeover, so nothing for fencing to reject.',
  },
  // No heartbeat thread here (as by default, but on purpose): the point is what A's first write after waking does.
  heartbeatSeconds: null,
  workSteps: 1,
  faults: [{ kind: 'pause', worker: 'A', atSeconds: 10, forSeconds: 90 }],
  script: ['A', 'A', 'A', '+10', '+51', 'B', 'B', 'B', '+40', 'A', 'B'],
  concepts: ['fencing', 'lease'],
});
