/** One PGlite-backed lab database per test file, and a helper to run a scenario on it. */
import { bootLabDatabase } from '../../src/db/pglite-boot';
import type { PGliteLab } from '../../src/db/pglite-lab';
import { type RunOptions, runSchedule } from '../../src/engine/run';
import { defaultSettings, findScenario } from '../../src/scenarios';
import type { Settings, Trace } from '../../src/sim/types';

let shared: Promise<PGliteLab> | null = null;

export function labDatabase(): Promise<PGliteLab> {
  shared ??= bootLabDatabase();
  return shared;
}

export async function runScenario(id: string, schedule: string[] | 'script', settings: Partial<Settings> = {}, options: RunOptions = {}): Promise<Trace> {
  const scenario = findScenario(id);
  if (!scenario) throw new Error(`no scenario ${id}`);
  const db = await labDatabase();
  const tokens = schedule === 'script' ? scenario.script : schedule;
  const merged = { ...defaultSettings(scenario), ...settings };
  return runSchedule(db, scenario, merged, tokens, schedule === 'script' ? { onInapplicable: 'skip', ...options } : options);
}
