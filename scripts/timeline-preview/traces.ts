/**
 * Traces for looking at the timeline (dev only, never bundled): the lesson's key scenarios, run on
 * PGlite with the real engine, exactly as the CLI runs them.
 */
import { bootLabDatabase } from '../../src/db/pglite-boot';
import { runSchedule } from '../../src/engine/run';
import { findScenario } from '../../src/scenarios';
import type { Settings, Trace } from '../../src/sim/types';

export interface PreviewCase {
  name: string;
  scenario: string;
  settings?: Partial<Settings>;
}

export const PREVIEW_CASES: PreviewCase[] = [
  { name: 'race', scenario: 'race', settings: { strategy: 'naive', fencing: false } },
  { name: 'lock-wait', scenario: 'lock-wait', settings: { strategy: 'for-update' } },
  { name: 'paused-fenced', scenario: 'paused-worker', settings: { fencing: true } },
  { name: 'paused-unfenced', scenario: 'paused-worker', settings: { fencing: false } },
  { name: 'crash-orphan', scenario: 'crash-orphan' },
  { name: 'cancel-kill', scenario: 'cancel-kill' },
  { name: 'stuck', scenario: 'stuck-heartbeat' },
  { name: 'nowait', scenario: 'lock-wait', settings: { strategy: 'nowait' } },
  { name: 'three', scenario: 'three-workers' },
];

export async function buildPreviewTraces(cases: readonly PreviewCase[] = PREVIEW_CASES): Promise<Map<string, Trace>> {
  const db = await bootLabDatabase();
  const out = new Map<string, Trace>();
  try {
    for (const c of cases) {
      const scenario = findScenario(c.scenario);
      if (!scenario) throw new Error(`no scenario ${c.scenario}`);
      const settings: Settings = { strategy: scenario.defaultStrategy, fencing: scenario.defaultFencing, ...c.settings };
      out.set(c.name, await runSchedule(db, scenario, settings, scenario.script, { finish: { kind: 'round-robin' }, onInapplicable: 'skip' }));
    }
  } finally {
    await db.close();
  }
  return out;
}
