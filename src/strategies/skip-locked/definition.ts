/** The atomic claim: one statement chooses and takes a run, skipping rows other claims have locked. */
import { SHARED_WRITES } from '../shared';
import { neverWaits, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
import claimSkipLocked from './claim-skip-locked.sql?raw';

export const skipLocked = {
  id: 'skip-locked',
  label: 'Atomic claim (FOR UPDATE SKIP LOCKED)',
  inWords: 'the atomic claim (one statement, FOR UPDATE SKIP LOCKED)',
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  raceQuestion: true,
  claim: { shape: 'one-statement', claim: neverWaits(strategyText('skip-locked', 'claim-skip-locked', claimSkipLocked), roleParams('claim', true)) },
  ...SHARED_WRITES,
} as const satisfies StrategyDefinition;
