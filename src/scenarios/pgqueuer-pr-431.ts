import { defineScenario } from './define';
import { incidentPgqueuer430 } from './incident-pgqueuer-430';

const { incident: _theIncident, ...story } = incidentPgqueuer430;

/**
 * The fix for janbjorge/pgqueuer #430 (PR #431, janbjorge/pgqueuer@daedb72:pgqueuer/qm.py): the same job,
 * now beating every half retry_timer (and the buffer flushing every quarter).
 */
export const pgqueuerPr431 = defineScenario({
  ...story,
  id: 'pgqueuer-pr-431',
  title: 'pgqueuer PR #431: a heartbeat every half retry_timer (the fix for #430)',
  summary:
    "The same 60 s retry_timer, but A now beats every 30 s. Its beat at 0:30 keeps the job until 1:30, so B's\ndequeue at 1:01 finds nothing to pick, and the job runs once.",
  heartbeatSeconds: 30,
});
