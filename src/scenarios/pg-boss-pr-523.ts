import { defineScenario } from './define';
import { incidentPgBoss529 } from './incident-pg-boss-529';

const { incident: _theIncident, ...story } = incidentPgBoss529;

/** The fix for timgit/pg-boss #529 (PR #523): the same job and schedule, now with the 6 hours of expiry it asked for. */
export const pgBossPr523 = defineScenario({
  ...story,
  id: 'pg-boss-pr-523',
  title: "pg-boss PR #523: the schedule's 6-hour expiry reaches the job (the fix for #529)",
  summary:
    "The job #529's schedule sends now carries the expireInHours: 6 it asked for. A's 20-minute job finishes\nwell inside it: at 15:15:01 pg-boss has nothing to retry, and B finds no job to start.",
  leaseSeconds: 6 * 3600,
});
