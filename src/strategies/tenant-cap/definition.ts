/**
 * The atomic claim with a per-tenant cap counted inside it: the chapter "Backpressure"'s sketch, run. It
 * is not one of the lab's claims the lessons teach with (LAB_STRATEGY_IDS) but a limit of its own, offered
 * with the scenarios that play it (LIMIT_SCENARIOS), so the ground truth does not play it under every scenario.
 */
import { SHARED_WRITES } from '../shared';
import { neverWaits, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
// The cap (1 running run per tenant) is a literal in the claim's SQL, its one home; CAP reads it from there.
import claimTenantCap from './claim-tenant-cap.sql?raw';

/** The number the claim compares a tenant's running runs with: `coalesce(b.active, 0) < N`. */
function capIn(sql: string): number {
  const literal = /coalesce\(b\.active, 0\) < (\d+)/.exec(sql)?.[1];
  if (literal === undefined) throw new Error('claim-tenant-cap.sql: no "coalesce(b.active, 0) < N" to read the cap from');
  return Number(literal);
}

const CAP = capIn(claimTenantCap);

export const tenantCap = {
  id: 'tenant-cap',
  label: `Atomic claim with a per-tenant cap of ${CAP} (counted in the claim)`,
  inWords: 'the atomic claim with a per-tenant cap (it counts the tenant’s running runs, then FOR UPDATE SKIP LOCKED)',
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  // Its race is about tenants, not about which run B gets next to a locked one: the predict questions keep to the lab's claims.
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: neverWaits(strategyText('tenant-cap', 'claim-tenant-cap', claimTenantCap), roleParams('claim', true)) },
  limitedTo: `whose tenant was below its cap of ${CAP} running run${CAP === 1 ? '' : 's'}`,
  tenantCap: CAP,
  ...SHARED_WRITES,
} as const satisfies StrategyDefinition;
