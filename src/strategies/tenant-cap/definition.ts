/**
 * The atomic claim with a per-tenant cap counted inside it: the chapter "Backpressure"'s sketch, run. It
 * is not one of the lab's claims the lessons teach with (LAB_STRATEGY_IDS) but a limit of its own, offered
 * with the scenarios that play it (LIMIT_SCENARIOS), so the ground truth does not play it under every scenario.
 */
import { SHARED_WRITES } from '../shared';
import { neverWaits, strategyText } from '../statement';
import { roleParams, type StrategyDefinition } from '../types';
// The cap (1 running run per tenant) is a literal in the claim's SQL, its one home.
import claimTenantCap from './claim-tenant-cap.sql?raw';

export const tenantCap = {
  id: 'tenant-cap',
  label: 'Atomic claim with a per-tenant cap of 1 (counted in the claim)',
  inWords: 'the atomic claim with a per-tenant cap (it counts the tenant’s running runs, then FOR UPDATE SKIP LOCKED)',
  lock: { clause: 'FOR UPDATE SKIP LOCKED', whenLocked: 'skips' },
  // Its race is about tenants, not about which run B gets next to a locked one: the predict questions keep to the lab's claims.
  raceQuestion: false,
  claim: { shape: 'one-statement', claim: neverWaits(strategyText('tenant-cap', 'claim-tenant-cap', claimTenantCap), roleParams('claim', true)) },
  limitedTo: 'whose tenant was below its cap of 1 running run',
  ...SHARED_WRITES,
} as const satisfies StrategyDefinition;
