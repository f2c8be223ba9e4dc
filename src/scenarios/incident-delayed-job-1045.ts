import { defineScenario } from './define';

/** delayed_job's default worker name, "host:<hostname> pid:<pid>", for a container whose hostname is set and whose worker is pid 1. */
const SHARED_NAME = 'host:worker pid:1';

/**
 * collectiveidea/delayed_job #1045: workers in ECS containers all had pid 1 and the same explicitly set
 * hostname, so every worker had the same name (and #866's comment of 2018-05-21: workers in one Kubernetes
 * pod shared hostname and pid). The code it follows: collectiveidea/delayed_job_active_record@e5b4fbf:
 * lib/delayed/backend/active_record.rb (ready_to_run's `OR locked_by = ?` with the worker's name) and
 * collectiveidea/delayed_job@eaef62d:lib/delayed/worker.rb (name: by default host and pid; a worker
 * resumes jobs locked under its name, assuming it crashed before).
 */
export const incidentDelayedJob1045 = defineScenario({
  id: 'incident-delayed-job-1045',
  title: 'delayed_job #1045: two live workers shared one name and ran one job',
  summary:
    "A and B both reserve as 'host:worker pid:1' (the same hostname, pid 1). A locks run 123; B's reserve takes\nit too by name (OR locked_by = name) while A's 4-hour lock is live, and both run and complete it.",
  workers: [
    { id: 'A', name: SHARED_NAME },
    { id: 'B', name: SHARED_NAME },
  ],
  // max_run_time's default, 4 hours: A's lock is nowhere near its end when B reserves.
  leaseSeconds: 4 * 60 * 60,
  heartbeatSeconds: null,
  workSteps: 2,
  defaultStrategy: 'delayed-job',
  defaultFencing: false,
  script: ['A', 'A', 'A', '+60', 'B', 'B', 'B', 'A', 'A', 'B', 'B'],
  concepts: ['lease', 'fencing'],
  incident: {
    queue: 'delayed-job',
    source: 'collectiveidea/delayed_job#1045',
    url: 'https://github.com/collectiveidea/delayed_job/issues/1045',
    whatUsersSaw:
      "Scaling out delayed_job workers in ECS containers, every worker's pid was 1 and its hostname was set explicitly, so all workers had the same name instead of a unique one (#1045). In #866 ('Jobs firing twice'), a comment of 2018-05-21 reports the same or a similar issue with several workers in one Kubernetes pod, which shared hostname and pid.",
    rootCause:
      "Worker identity reused: the reserve takes any job whose locked_by is the worker's own name, live lock or not, because delayed_job takes its name for its identity and assumes a worker finding its name on a job crashed before. Two live workers with one name each take the other's jobs.",
    inTheLab:
      "max_run_time (4 hours) is the lease and locked_by the run's lease_owner; A and B are two containers whose default names agree. B's completion lands on the run A finished: delayed_job deletes the job, so its second destroy deletes nothing, where the lab's marks the done run done again with B's answer. Priorities, queues, attempts and the Timeout around the job are left out.",
    anomaly: 'duplicate-execution',
    fix: {
      strategy: 'delayed-job',
      fencing: false,
      scenarioId: 'delayed-job-unique-name',
      inWords:
        "A name unique per process, as #1045 proposed (the container's id beside hostname and pid): B reserves under its own name, A's live lock is not its own, and B takes nothing",
    },
  },
});
