import { defineScenario } from './define';

export const cancelDurable = defineScenario({
  id: 'cancel-durable',
  title: 'Durable cancellation: the request lives in the row',
  summary:
    'An operator sets cancel_requested on run 123 while A works on it. A sees the flag at its next\nsafe point and stops; had A died first, whoever reclaimed the run would see it too.',
  summaries: {
    naive:
      'An operator sets cancel_requested on run 123 while A works on it. A sees the flag at its next safe point\nand stops. Had A died first, this claim would never take the run again: the request would sit in a stranded row.',
    cas: 'An operator sets cancel_requested on run 123 while A works on it. A sees the flag at its next safe point\nand stops. Had A died first, this claim would never take the run again: the request would sit in a stranded row.',
  },
  workSteps: 3,
  script: ['A', 'A', 'A', 'cancel:123', 'A', 'A', 'B'],
  concepts: ['cancellation'],
});
