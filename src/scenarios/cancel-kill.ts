import { defineScenario } from './define';

export const cancelKill = defineScenario({
  id: 'cancel-kill',
  title: 'Cancelling by killing the process',
  summary:
    'The operator kills A to stop run 123, but nothing records that the run should stop.\nThe lease expires, B reclaims the run and carries on: the cancel is lost.',
  summaries: {
    naive:
      'The operator kills A to stop run 123, but nothing records that the run should stop. The lease expires,\nyet this claim reads only pending runs: the run stays running under a dead worker, stranded.',
    cas: 'The operator kills A to stop run 123, but nothing records that the run should stop. The lease expires,\nyet this claim reads only pending runs: the run stays running under a dead worker, stranded.',
  },
  script: ['A', 'A', 'A', 'kill:123', '+61', 'B', 'B', 'B', 'B', 'B'],
  concepts: ['cancellation'],
});
