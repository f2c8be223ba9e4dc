/** One PGlite-backed lab database per test file, and a helper to run a scenario on it. */
import { expect } from 'vitest';
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { type RunOptions, runSchedule } from '../../src/engine/run';
import { defaultSettings, findScenario } from '../../src/scenarios';
import type { Settings, Trace } from '../../src/sim/types';

let shared: { file: string | undefined; db: Promise<PGliteLab> } | null = null;

/**
 * The test file's database. A worker process may run several files one after another (vitest's `isolate:
 * false`, vite.config.ts), and this module stays loaded between them: each file still gets a database of
 * its own, so nothing one file leaves in it reaches the next, and the previous file's is closed.
 */
export function labDatabase(): Promise<PGliteLab> {
  const file = expect.getState().testPath;
  if (shared && shared.file === file) return shared.db;
  shared?.db.then((db) => db.close()).catch(() => undefined);
  const db = bootLabDatabase();
  shared = { file, db };
  return db;
}

export async function runScenario(id: string, schedule: string[] | 'script', settings: Partial<Settings> = {}, options: RunOptions = {}): Promise<Trace> {
  const scenario = findScenario(id);
  if (!scenario) throw new Error(`no scenario ${id}`);
  const db = await labDatabase();
  const tokens = schedule === 'script' ? scenario.script : schedule;
  const merged = { ...defaultSettings(scenario), ...settings };
  return runSchedule(db, scenario, merged, tokens, schedule === 'script' ? { onInapplicable: 'skip', ...options } : options);
}
