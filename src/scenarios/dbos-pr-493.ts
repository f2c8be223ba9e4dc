import { defineScenario } from './define';
import { incidentDbos491 } from './incident-dbos-491';

const { incident: _theIncident, ...story } = incidentDbos491;

/**
 * The fix for dbos-inc/dbos-transact-java #491, PR #493 ("Stop recovery adopting workflows this executor is
 * already running"): recoverWorkflow begins with `if (activeWorkflows.containsKey(workflowId))`, logs
 * "recoverWorkflow skip active" and returns the workflow's handle. A look in the process's memory, between the
 * recovery's read and its write: the recovery lane here skips a run another lane of its process is running.
 */
export const dbosPr493 = defineScenario({
  ...story,
  id: 'dbos-pr-493',
  title: 'DBOS: recovery skips a workflow its process runs (the fix for #491)',
  summary:
    "The same launch: B's recovery reads workflow 123, then looks in its process's memory, where A is running it.\nSo B skips it and sends nothing; the body runs once.",
  workers: [
    { id: 'A', name: 'local', process: 'app' },
    { id: 'B', name: 'local', process: 'app', recovery: { skipsActive: true } },
  ],
});
