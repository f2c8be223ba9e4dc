/**
 * A RunTrace on a LabDatabase, for tests that hold the database themselves (the app's lesson asks the engine worker).
 * The lab's database is one set of sessions, so runs are queued and played one at a time.
 */
import type { LabDatabase } from '../../src/db/port';
import { playForQuestion } from '../../src/engine/recorded';
import type { RunTrace } from '../../src/lessons/types';

export function createEngineRunner(db: LabDatabase): RunTrace {
  let queue: Promise<unknown> = Promise.resolve();
  return (scenario, settings, schedule) => {
    const run = queue.then(() => playForQuestion(db, scenario, settings, schedule));
    queue = run.catch(() => undefined);
    return run;
  };
}
