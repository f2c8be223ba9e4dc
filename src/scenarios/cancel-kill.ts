import { defineScenario } from './define';

export const cancelKill = defineScenario({
  id: 'cancel-kill',
  title: 'Cancelling by killing the process',
  summary: 'The operator kills A to stop run 123, but nothing records that the run should stop.\nThe lease expires, B reclaims the run and carries on: the cancel is lost.',
  script: ['A', 'A', 'A', 'kill:123', '+61', 'B', 'B', 'B', 'B', 'B'],
  concepts: ['cancellation'],
});
