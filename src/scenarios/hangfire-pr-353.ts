import { defineScenario } from './define';
import { incidentHangfire352 } from './incident-hangfire-352';

const { incident: _theIncident, ...story } = incidentHangfire352;

/**
 * The fix for hangfire-postgres/Hangfire.PostgreSql #352: UseSlidingInvisibilityTimeout, added by PR #353
 * (hangfire-postgres/Hangfire.PostgreSql@942fccb:src/Hangfire.PostgreSql/PostgreSqlFetchedJob.cs), refreshes
 * the fetched job's fetchedat every InvisibilityTimeout / 5 while it runs.
 */
export const hangfirePr353 = defineScenario({
  ...story,
  id: 'hangfire-pr-353',
  title: 'Hangfire.PostgreSql PR #353: a sliding invisibility timeout (the fix for #352)',
  summary:
    "The same job with UseSlidingInvisibilityTimeout on: A refreshes fetchedat every 6 minutes. Its refresh at\n24:00 keeps the entry invisible until 54:00, so B's fetch at 30:01 finds nothing and the job runs once.",
  heartbeatSeconds: 6 * 60,
});
