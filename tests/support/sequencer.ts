/**
 * The order vitest starts test files in. Two workers take files from the front of this list; a file's
 * tests run one after another, so the run ends when the worker holding the longest file is done. In a
 * fresh clone (CI) vitest knows no durations and starts the largest files first, but the state-graph files
 * are a few lines each and the longest-running: they came last and one worker ran them alone at the end.
 *
 * So the files known to run long go first, longest first (what a fresh clone measured, in LONGEST_FIRST's
 * order); the rest keep vitest's own order behind them and fill the other worker's time.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * Longest first, as measured on the 2-core machine (a fresh clone's GROUND_TRUTH=full run, issue 32: the
 * incidents' graphs 280 s, the swarm's 1,500 seeds 214 s, the queues' heartbeat 144 s, the explorer's fast
 * path against brute force 136 s (a unit file, as long in npm test), the queues' stuck heartbeat 132 s and
 * crash 120 s); the rest as they came before. In npm test the full-only cases are skipped and the
 * remaining long files still lead.
 */
const LONGEST_FIRST: readonly RegExp[] = [
  /graph-queues-incidents\.test\.ts$/,
  /ground-truth\/swarm\.test\.ts$/,
  /graph-queues-heartbeat\.test\.ts$/,
  /unit\/explore\.test\.ts$/,
  /graph-queues-stuck-heartbeat\.test\.ts$/,
  /graph-queues-crash\.test\.ts$/,
  /graph-stuck-heartbeat\.test\.ts$/,
  /graph-heartbeat\.test\.ts$/,
  /graph-queues-cancel\.test\.ts$/,
  /graph-cancel\.test\.ts$/,
  /claim-corpus-cover-three-workers\.test\.ts$/,
  /three-workers-wake\.test\.ts$/,
  /claim-corpus-cover-crash\.test\.ts$/,
  /claim-corpus-cover\.test\.ts$/,
  /graph-queues-races\.test\.ts$/,
  /ground-truth\/(lock-wait|race-locking|race)\.test\.ts$/,
  /ground-truth\/graph-[\w-]+\.test\.ts$/,
  /ground-truth\/(enumerate|seeded)\.test\.ts$/,
];

/**
 * Files that share worker processes (vite.config.ts, isolate: false) after those that do not, among files of
 * the same rank: a process passes to the next file only when that file shares too, so mixing the two would
 * start a process for nearly every file again.
 */
function shared(file: TestSpecification): number {
  return file.project.config.isolate ? 0 : 1;
}

function rank(moduleId: string): number {
  const at = LONGEST_FIRST.findIndex((pattern) => pattern.test(moduleId));
  return at === -1 ? LONGEST_FIRST.length : at;
}

export class LongRunningFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    // A stable sort: files of the same rank and isolation (most of the unranked ones) keep vitest's order.
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file.moduleId) - rank(b.file.moduleId) || shared(a.file) - shared(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
