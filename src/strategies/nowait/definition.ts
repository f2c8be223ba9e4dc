/** The atomic claim with FOR UPDATE NOWAIT: where another claim holds the row it wants, it fails at once. */
import { SHARED_WRITES } from '../shared';
import { neverWaits, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
import claimNowait from './claim-nowait.sql?raw';

export const nowait = {
  id: 'nowait',
  label: 'Claim with FOR UPDATE NOWAIT (errors)',
  inWords: 'the claim with FOR UPDATE NOWAIT',
  lock: { clause: 'FOR UPDATE NOWAIT', whenLocked: 'errors' },
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: neverWaits(strategyText('nowait', 'claim-nowait', claimNowait), roleParams('claim', true)) },
  ...SHARED_WRITES,
} as const satisfies StrategyDefinition;
