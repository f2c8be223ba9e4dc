/** Compare-and-set: read a pending run, then UPDATE it only if it is still pending. */
import { SHARED_WRITES, PENDING_SELECT } from '../shared';
import { mayWait, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
import casClaim from './cas-claim.sql?raw';
import probeCasClaim from './probe-cas-claim.sql?raw';

export const cas = {
  id: 'cas',
  label: 'Compare-and-set UPDATE',
  inWords: "compare-and-set (SELECT, then UPDATE … WHERE status = 'pending')",
  lock: null,
  raceQuestion: true,
  claim: {
    shape: 'select-then-update',
    select: PENDING_SELECT,
    // After waiting on another claim's row it re-checks status = 'pending' on the row's new version.
    update: mayWait(strategyText('cas', 'cas-claim', casClaim), roleParams('claim-update', true), strategyText('cas', 'probe-cas-claim', probeCasClaim), {
      kind: 'recheck-row',
    }),
    action: 'cas-claim',
    markWord: 'CAS',
    checksPending: true,
  },
  ...SHARED_WRITES,
} as const satisfies StrategyDefinition;
