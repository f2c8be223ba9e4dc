/**
 * Records a recording plan (recordings/plans.ts) on a real PostgreSQL server: the plan's schedule from a
 * reset, finished round-robin as `npm run sim -- run` finishes it, kept with the state it started from and
 * the server's version. The recording step (scripts/record-isolation.ts) writes it to the repository; the
 * ground truth records it again and compares.
 */
import type { LabDatabase } from '../db/port';
import { RECORDING_FORMAT, type Recording } from '../recordings/recording';
import type { RecordingPlan } from '../recordings/plans';
import { defaultSettings, findScenario } from '../scenarios';
import { isWorkerToken } from '../sim/schedule';
import type { RunRow, WorkerState } from '../sim/types';
import { replay } from './replay';
import { nextPolicyToken } from './run';

/** Steps the round-robin finish may add; every plan ends far sooner. */
const MAX_FINISH_STEPS = 200;

export async function recordPlan(db: LabDatabase, plan: RecordingPlan, serverVersion: string): Promise<Recording> {
  if (db.kind === 'pglite') throw new Error(`recording ${plan.id} needs a real PostgreSQL server, not PGlite`);
  const scenario = findScenario(plan.scenarioId);
  if (!scenario) throw new Error(`recording ${plan.id}: there is no scenario "${plan.scenarioId}"`);
  const settings = { ...defaultSettings(scenario), strategy: plan.strategy, isolation: plan.isolation };
  const given = plan.schedule === 'script' ? scenario.script : plan.schedule;
  let initialRuns: RunRow[] = [];
  let initialWorkers: WorkerState[] = [];
  // The script may name a worker a claim has already stopped (as `sim run` plays it); the plan's own tokens must apply.
  const { sim } = await replay(
    db,
    { scenario, settings, schedule: given },
    {
      onInapplicable: plan.schedule === 'script' ? 'skip' : 'error',
      afterReset: (reset) => {
        initialRuns = reset.trace().finalRuns;
        initialWorkers = reset.workerStates();
      },
    },
  );
  let last = given.at(-1);
  for (let finishing = 0; finishing < MAX_FINISH_STEPS; finishing++) {
    const token = nextPolicyToken(sim, { kind: 'round-robin' }, last, () => 0);
    if (token === null) break;
    await sim.apply(token);
    if (isWorkerToken(token)) last = token;
  }
  await sim.conclude();
  const trace = sim.trace();
  return {
    format: RECORDING_FORMAT,
    id: plan.id,
    serverVersion,
    scenarioId: scenario.id,
    settings,
    schedule: trace.schedule,
    initialRuns,
    initialWorkers,
    steps: trace.steps,
    anomalies: trace.anomalies,
  };
}
