/** The naive claim: read a pending run, then UPDATE it by id without checking it is still pending. */
import { SHARED_WRITES, PENDING_SELECT } from '../shared';
import { mayWait, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
import naiveUpdate from './naive-update.sql?raw';
import probeNaiveUpdate from './probe-naive-update.sql?raw';

export const naive = {
  id: 'naive',
  label: 'Naive SELECT then UPDATE',
  inWords: 'the naive claim (SELECT a pending run, then UPDATE it)',
  lock: null,
  raceQuestion: true,
  claim: {
    shape: 'select-then-update',
    select: PENDING_SELECT,
    // It waits only on a row another worker's open claim holds, and then overwrites that row as it is.
    update: mayWait(
      strategyText('naive', 'naive-update', naiveUpdate),
      roleParams('claim-update', true),
      strategyText('naive', 'probe-naive-update', probeNaiveUpdate),
      {
        kind: 'recheck-row',
      },
    ),
    action: 'naive-update',
    markWord: 'UPDATE',
    checksPending: false,
  },
  ...SHARED_WRITES,
} as const satisfies StrategyDefinition;
