import { defineScenario } from './define';

/**
 * The per-tenant cap of the chapter "Backpressure", played: acme has a backlog older than beta's one run,
 * and starts at its cap, with run 120 held by a worker that is gone until its lease runs out at 15:00:30.
 * So workers that simply take turns from the start give beta its run; the level "Break the tenant cap" has
 * the learner overlap two claims once acme is below its cap.
 */
export const tenantBacklog = defineScenario({
  id: 'tenant-backlog',
  title: "One tenant's backlog and another tenant's run, under a cap per tenant",
  summary:
    "Acme is at its cap of one running run (run 120, whose lease ends at 15:00:30), three more queued before beta's run 124.\nA passes over acme's runs for beta's run 124; B takes run 120 once its lease runs out: acme never runs two at once.",
  runs: [
    { runId: 120, tenant: 'acme', status: 'running', leaseOwner: 'C', leaseExpiresAtSeconds: 30, createdAtSeconds: -400, leaseGeneration: 1 },
    { runId: 121, tenant: 'acme', createdAtSeconds: -300, leaseGeneration: 1 },
    { runId: 122, tenant: 'acme', createdAtSeconds: -240, leaseGeneration: 1 },
    { runId: 123, tenant: 'acme', createdAtSeconds: -180, leaseGeneration: 1 },
    { runId: 124, tenant: 'beta', createdAtSeconds: -60, leaseGeneration: 1 },
  ],
  defaultStrategy: 'tenant-cap',
  script: ['A', 'A', 'B', '+31', 'B', 'B', 'A', 'A', 'A', 'B', 'B', 'B'],
  concepts: ['backpressure'],
});
