import { defineScenario } from './define';
import { incidentDelayedJob1045 } from './incident-delayed-job-1045';

const { incident: _theIncident, ...story } = incidentDelayedJob1045;

/**
 * The fix for collectiveidea/delayed_job #1045: a worker name unique per process. The report proposed the
 * container's id beside hostname and pid; delayed_job lets a worker set its name (collectiveidea/
 * delayed_job@eaef62d:lib/delayed/worker.rb, name=).
 */
export const delayedJobUniqueName = defineScenario({
  ...story,
  id: 'delayed-job-unique-name',
  title: 'delayed_job: a worker name unique per process (the fix for #1045)',
  summary:
    "The same containers, each worker's name now ending in its container's id. A locks run 123; B's reserve\nfinds A's lock live and not under its name, takes nothing, and the job runs once.",
  workers: [
    { id: 'A', name: 'host:worker pid:1 container:3f9c2a' },
    { id: 'B', name: 'host:worker pid:1 container:b71e04' },
  ],
});
