import { clockIso } from './clock';
import type { Scenario } from './types';

/** The scenario's runs as the JSON that seed-runs.sql reads. */
export function seedJson(scenario: Scenario): string {
  return JSON.stringify(
    scenario.runs.map((run) => ({
      run_id: run.runId,
      tenant: run.tenant ?? 'acme',
      status: run.status ?? 'pending',
      lease_owner: run.leaseOwner ?? null,
      lease_expires_at: run.leaseExpiresAtSeconds == null ? null : clockIso(run.leaseExpiresAtSeconds),
      lease_generation: run.leaseGeneration ?? 0,
      heartbeat_at: null,
      cancel_requested: false,
      created_at: clockIso(run.createdAtSeconds),
      progress: 0,
      cost_cents: run.costCents ?? 0,
      result: null,
    })),
  );
}
