import { defineScenario } from './define';

/** The executor id a DBOS process without DBOS__VMID runs under, and which a restarted process keeps. */
const EXECUTOR_ID = 'local';

/**
 * dbos-inc/dbos-transact-java #491 (and #488, very likely #477): AsyncWorkflowTest.sameWorkflowId saw the
 * workflow's body run twice. The code it follows, at dbos-inc/dbos-transact-java@f78a0ce (the commit the
 * failing run was on): transact/src/main/java/dev/dbos/transact/execution/DBOSExecutor.java (start(): the
 * recovery's ListWorkflowsInput, PENDING, this executor id, withEndTime(Instant.now()), run in the background;
 * recoverWorkflow: a workflow with no queue goes to executeWorkflowById), and
 * transact/src/main/java/dev/dbos/transact/database/dao/WorkflowDAO.java (listWorkflows' created_at <= ?,
 * insertWorkflowStatus's ON CONFLICT). The fix, PR #493, adds a look in activeWorkflows at the head of
 * recoverWorkflow: the scenario dbos-pr-493.
 */
export const incidentDbos491 = defineScenario({
  id: 'incident-dbos-491',
  title: 'DBOS Transact #491: a recovery at launch adopted a workflow still running',
  summary:
    "One process, executor 'local': A starts workflow 123 at launch; B, that process's recovery, reads it at once.\nIt is PENDING under 'local' and created by the cutoff: B writes it again by id and runs its body a second time.",
  // One process, two lanes: A the app's thread, B the recovery task start() submits. Both are executor 'local'.
  workers: [
    { id: 'A', name: EXECUTOR_ID, process: 'app' },
    { id: 'B', name: EXECUTOR_ID, process: 'app', recovery: { skipsActive: false } },
  ],
  // Workflow 123 is created in the launch's own instant (clock 0): the row the app's start writes.
  runs: [{ runId: 123, createdAtSeconds: 0, leaseGeneration: 0 }],
  heartbeatSeconds: null,
  workSteps: 2,
  defaultStrategy: 'dbos',
  defaultFencing: false,
  // A starts 123 (its claim, then its commit); in the same instant B reads and writes it. A runs the body; B's
  // runs once A's is over and before A's outcome write, the window #488's log shows (see inTheLab).
  script: ['A', 'A', 'B', 'B', 'A', 'A', 'B', 'A', 'B', 'B'],
  concepts: ['lease', 'fencing'],
  incident: {
    queue: 'dbos',
    source: 'dbos-inc/dbos-transact-java#491',
    url: 'https://github.com/dbos-inc/dbos-transact-java/issues/491',
    whatUsersSaw:
      "A test that starts a workflow right after launch (AsyncWorkflowTest.sameWorkflowId) counted its body's runs and got 2 for one workflow id; the log showed the launch-time recovery picking up the workflow the caller was still running (#491; #488's log shows both copies writing their outcome).",
    rootCause:
      "A recovery that tells live work from abandoned work by an executor id and a time: the sweep takes PENDING workflows of this process's own executor id created no later than an instant read at the end of launch, and a workflow the app started in that same millisecond passes. Its write by id checks nothing of who runs the workflow, and the recovery runs the body itself.",
    inTheLab:
      "The launch is clock 0: workflow 123 is created then, and the recovery reads with the cutoff now(), the same instant. A and B are lanes of one process under executor 'local'. ENQUEUED is pending and PENDING running; A's start is the lab's dequeue (for #491's workflow, started with no queue, DBOS writes the row PENDING at once, with the same executor id and created_at), and the recovery's write is the upsert's conflict branch (executor re-stamped, an attempt counted as the lab's generation). The lab's model calls stand for the body's own work: DBOS replays a step another execution has checkpointed instead of running it, so what ran twice in #491 was the body's code outside steps (the test's counter, bumped in the workflow method) and the outcome write; the lab has no step replay. At f78a0ce the workflow task also holds the workflow's entry in activeWorkflows while it runs (ActiveWorkflowGuard, #456) and a second task throws a conflict while it is held; A lets go of it just before its outcome write, and #488's log shows B's task starting in that window. The lab does not model that guard: its script runs B's body there, after A's model calls and before A's completion, and a schedule that interleaves the two bodies further shows more than f78a0ce allowed.",
    anomaly: 'duplicate-execution',
    fix: {
      strategy: 'dbos',
      fencing: false,
      scenarioId: 'dbos-pr-493',
      inWords:
        "DBOS's own fix (PR #493): before writing, the recovery looks in its process's map of running workflows (activeWorkflows), finds 123 there and skips it: a check in memory, nothing sent",
    },
  },
});
