/** The atomic claim with a plain FOR UPDATE: where another claim holds the row it wants, it waits. */
import { SHARED_WRITES } from '../shared';
import { mayWait, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
import claimNowait from '../nowait/claim-nowait.sql?raw';
import claimCandidates from './claim-candidates.sql?raw';
import claimForUpdate from './claim-for-update.sql?raw';
import relockCandidate from './relock-candidate.sql?raw';

/** Its NOWAIT probe is the NOWAIT strategy's claim: the same row test, failing with 55P03 where this one would wait. */
const PROBE = strategyText('nowait', 'claim-nowait', claimNowait);

export const forUpdate = {
  id: 'for-update',
  label: 'Claim with plain FOR UPDATE (waits)',
  inWords: 'the claim with plain FOR UPDATE',
  lock: { clause: 'plain FOR UPDATE', whenLocked: 'waits' },
  raceQuestion: false,
  claim: {
    shape: 'one-statement',
    claim: mayWait(strategyText('for-update', 'claim-for-update', claimForUpdate), roleParams('claim', true), PROBE, {
      kind: 'relock-found',
      candidates: strategyText('for-update', 'claim-candidates', claimCandidates),
      relock: strategyText('for-update', 'relock-candidate', relockCandidate),
    }),
  },
  ...SHARED_WRITES,
} as const satisfies StrategyDefinition;
