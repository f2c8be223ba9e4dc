/**
 * Progressive disclosure's one rule (src/store/disclosure.ts): what each scenario's first screen shows,
 * what a link's schedule adds, and "All controls".
 */
import { describe, expect, it } from 'vitest';
import { defaultSettings, findScenario, SCENARIOS } from '../../src/scenarios';
import { type DisclosureInput, shownControls } from '../../src/store/disclosure';

function at(id: string, extra: Partial<DisclosureInput> = {}) {
  const scenario = findScenario(id)!;
  return shownControls({ scenario, settings: defaultSettings(scenario), schedules: [], rescues: false, allControls: false, playing: false, ...extra });
}

describe('which controls the lab shows', () => {
  it('the race at its start: the strategies it compares, no clock, pause, crash, operator, fencing or tools', () => {
    expect(at('race')).toEqual({
      strategy: true,
      fencing: false,
      clock: false,
      pause: false,
      crash: false,
      restart: false,
      workerGroups: false,
      operator: false,
      speed: false,
      tools: false,
    });
  });

  it("a scenario's script brings what it uses: the clock, a crash, the operator, and fencing with them", () => {
    // The paused worker's story pauses A by not stepping it while the clock moves: no Pause button needed.
    expect(at('paused-worker')).toMatchObject({ clock: true, pause: false, crash: false, workerGroups: false, fencing: true });
    expect(at('crash-orphan')).toMatchObject({ clock: true, crash: true, workerGroups: true, fencing: true });
    expect(at('cancel-kill').operator).toBe(true);
    expect(at('cancel-durable').operator).toBe(true);
  });

  it("a link's schedule shows every control it uses, on a scenario whose script uses none of them", () => {
    const shown = at('race', { schedules: [['A', '+30', 'crash:A', 'pause:B', 'resume:B', 'cancel:123']] });
    expect(shown).toMatchObject({ clock: true, crash: true, pause: true, operator: true, fencing: true, workerGroups: true });
  });

  it('settings other than the scenario’s own (a chapter, a level, a link) show their pickers', () => {
    expect(at('race', { settings: { strategy: 'naive', fencing: true } }).fencing).toBe(true);
    expect(at('incident-graphile-169')).toMatchObject({ strategy: true, fencing: true });
    // The tenant cap's scenario compares its claim with the claims that have no cap: the picker shows.
    expect(at('tenant-backlog')).toMatchObject({ strategy: true, clock: true });
  });

  it('"All controls" and a scenario someone wrote show everything; playing shows the speed', () => {
    for (const scenario of SCENARIOS) expect(Object.values(at(scenario.id, { allControls: true })).every(Boolean)).toBe(true);
    expect(at('race', { playing: true }).speed).toBe(true);
  });
});
