import { defineScenario } from './define';

export const crashOrphan = defineScenario({
  id: 'crash-orphan',
  title: 'A crashes: its run is an orphan until the lease expires',
  summary:
    'A claims run 123 and dies mid-work. Nobody can take the run while the lease is valid;\nonce it expires the atomic claim reclaims it for B with the next generation.',
  summaries: {
    naive:
      "A claims run 123 and dies mid-work. The claim's SELECT reads only pending runs, so no one ever\nreclaims it: the run stays running under a dead owner, stranded.",
    cas: "A claims run 123 and dies mid-work. The claim's SELECT reads only pending runs, so no one ever\nreclaims it: the run stays running under a dead owner, stranded.",
  },
  script: ['A', 'A', 'A', 'crash:A', '+30', 'B', '+31', 'B', 'B', 'B', 'B', 'B'],
  concepts: ['lease', 'orphan', 'reclaim'],
});
