/**
 * The order vitest starts test files in. In a fresh clone (CI) it knows no durations and starts the
 * largest files first; the state-graph files are a few lines each but the longest-running (30–70 s on
 * two cores), so they came last and one worker ran them alone at the end. They go first here, with the
 * other ground-truth files that replay many schedules; the rest keep vitest's own order.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LONG_RUNNING = /tests\/ground-truth\/(graph-[\w-]+|enumerate|seeded)\.test\.ts$/;

export class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((file) => LONG_RUNNING.test(file.moduleId)), ...sorted.filter((file) => !LONG_RUNNING.test(file.moduleId))];
  }
}
