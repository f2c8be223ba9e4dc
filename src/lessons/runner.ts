/**
 * A RunTrace on a LabDatabase, for hosts that hold the database themselves (the tests, a Web Worker).
 * The lab's database is one set of sessions, so runs are queued and played one at a time.
 */
import type { LabDatabase } from '../db/port';
import { runSchedule } from '../engine/run';
import type { RunTrace } from './types';

export function createEngineRunner(db: LabDatabase): RunTrace {
  let queue: Promise<unknown> = Promise.resolve();
  return (scenario, settings, schedule) => {
    const run = queue.then(() => runSchedule(db, scenario, settings, schedule, { onInapplicable: 'error' }));
    queue = run.catch(() => undefined);
    return run;
  };
}
