/**
 * The explorer in the same thread, on a database the caller owns: for Node tests of the explorer's store
 * (the browser always uses the Web Worker in client.ts). Cancelling stops it at its next step.
 */
import type { LabDatabase } from '../db/port';
import { ExplorationCancelled, type ExploreOptions, exploreForLab } from '../engine/explore';
import { findScenario } from '../scenarios';
import type { Settings } from '../sim/types';
import { CancelledError, type Explored, type ExplorerRunner, type RunnerEvent } from './client';

export class LocalExplorer implements ExplorerRunner {
  private cancelled = false;

  constructor(
    private readonly db: LabDatabase,
    private readonly options: Pick<ExploreOptions, 'maxStates'> & { sampleSize?: number } = {},
  ) {}

  async explore(scenarioId: string, settings: Settings, onEvent: (event: RunnerEvent) => void): Promise<Explored> {
    const scenario = findScenario(scenarioId);
    if (!scenario) throw new Error(`there is no scenario ${scenarioId}`);
    this.cancelled = false;
    const started = performance.now();
    try {
      const exploration = await exploreForLab(this.db, scenario, settings, {
        ...this.options,
        cancelled: () => this.cancelled,
        onProgress: (progress) => onEvent({ kind: 'progress', progress }),
      });
      return { exploration, ms: Math.round(performance.now() - started) };
    } catch (error) {
      throw error instanceof ExplorationCancelled ? new CancelledError() : error;
    }
  }

  cancel(): void {
    this.cancelled = true;
  }
}
