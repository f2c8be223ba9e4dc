/**
 * The playback commands as one table (src/ui/commands.ts): the keys reach the same commands the buttons
 * run, the help lists each, and each command's rule for when it runs is the one the key obeys too.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { BackpressureState } from '../../src/store/backpressure-store';
import type { LabState } from '../../src/store/types';
import { BACKPRESSURE_COMMANDS, commandForKey, KEY_HELP, LAB_COMMANDS, titleOf } from '../../src/ui/commands';
import { labKey } from '../../src/ui/keys';

// keys.ts asks whether the target is an Element (a field keeps its keys); outside a browser there is none.
beforeAll(() => {
  (globalThis as { Element?: unknown }).Element ??= class {};
});

const press = (key: string, more: Partial<{ ctrlKey: boolean; metaKey: boolean; altKey: boolean }> = {}) =>
  labKey({ key, ctrlKey: false, metaKey: false, altKey: false, target: null, ...more });

function labState(over: Partial<LabState> = {}): LabState {
  return {
    loaded: true,
    enginePhase: 'ready',
    status: null,
    stalled: false,
    position: 2,
    steps: [{}, {}, {}],
    playing: true,
    helpOpen: false,
    pause: vi.fn(),
    step: vi.fn(async () => true),
    back: vi.fn(),
    reset: vi.fn(async () => undefined),
    togglePlay: vi.fn(),
    setHelpOpen: vi.fn(),
    ...over,
  } as unknown as LabState;
}

describe('the lab', () => {
  it('each key the help names runs its command, and the help lists every command that has a key', () => {
    for (const command of Object.values(LAB_COMMANDS)) {
      expect(command.key).not.toBeNull();
      expect(commandForKey(LAB_COMMANDS, press(command.key!)!)).toBe(command);
      expect(KEY_HELP.filter((row) => row.keys === command.keyLabel)).toEqual([{ keys: command.keyLabel, what: command.help }]);
    }
    expect(titleOf(LAB_COMMANDS.reset)).toBe('Reset the scenario (R)');
  });

  it('a key with a modifier held is the browser’s, not the lab’s', () => {
    expect(press('ArrowRight', { ctrlKey: true })).toBeNull();
    expect(press('r', { metaKey: true })).toBeNull();
    expect(press('x')).toBeNull();
    expect(press('3')).toBe('3');
  });

  it('Next step, by key or button, stops the playing first, then steps', () => {
    const state = labState();
    LAB_COMMANDS.step.perform(state);
    expect(state.pause).toHaveBeenCalledBefore(state.step as never);
    expect(state.step).toHaveBeenCalledOnce();
  });

  it('Next step cannot run before the first trace, after the engine failed, or once everything is shown and over', () => {
    expect(LAB_COMMANDS.step.enabled(labState())).toBe(true);
    expect(LAB_COMMANDS.step.enabled(labState({ loaded: false }))).toBe(false);
    expect(LAB_COMMANDS.step.enabled(labState({ enginePhase: 'failed' } as Partial<LabState>))).toBe(false);
    expect(LAB_COMMANDS.step.enabled(labState({ stalled: true, position: 3 }))).toBe(false);
    // Over, but a step still to reveal after Back: Next step reveals it.
    expect(LAB_COMMANDS.step.enabled(labState({ stalled: true, position: 1 }))).toBe(true);
  });

  it('Back needs a step to go back to; Play cannot start at the end; Play and Pause are one command', () => {
    expect(LAB_COMMANDS.back.enabled(labState({ position: 0 }))).toBe(false);
    expect(LAB_COMMANDS.togglePlay.enabled(labState({ stalled: true, position: 3, playing: false }))).toBe(false);
    expect(LAB_COMMANDS.togglePlay.label(labState({ playing: true }))).toBe('Pause');
    expect(LAB_COMMANDS.togglePlay.label(labState({ playing: false }))).toBe('Play');
  });
});

describe('the backpressure view', () => {
  const lanes = (ticks: number) => ({
    fifo: { ticks: Array.from({ length: ticks }), done: false },
    fair: { ticks: Array.from({ length: ticks }), done: false },
  });
  function bpState(over: Partial<BackpressureState> = {}): BackpressureState {
    return {
      lanes: lanes(10),
      cursor: 4,
      playing: true,
      pause: vi.fn(),
      play: vi.fn(),
      step: vi.fn(),
      seek: vi.fn(),
      rewind: vi.fn(),
      toEnd: vi.fn(),
      ...over,
    } as unknown as BackpressureState;
  }

  it('its keys run its commands; the worker keys and the help are the race lab’s only', () => {
    expect(commandForKey(BACKPRESSURE_COMMANDS, ' ')).toBe(BACKPRESSURE_COMMANDS.togglePlay);
    expect(commandForKey(BACKPRESSURE_COMMANDS, 'ArrowRight')).toBe(BACKPRESSURE_COMMANDS.step);
    expect(commandForKey(BACKPRESSURE_COMMANDS, 'ArrowLeft')).toBe(BACKPRESSURE_COMMANDS.back);
    expect(commandForKey(BACKPRESSURE_COMMANDS, 'r')).toBe(BACKPRESSURE_COMMANDS.rewind);
    expect(commandForKey(BACKPRESSURE_COMMANDS, '?')).toBeNull();
    expect(commandForKey(BACKPRESSURE_COMMANDS, '1')).toBeNull();
  });

  it('Step, Back and Restart stop the playing first, by key or button', () => {
    for (const command of [BACKPRESSURE_COMMANDS.step, BACKPRESSURE_COMMANDS.back, BACKPRESSURE_COMMANDS.rewind, BACKPRESSURE_COMMANDS.toEnd]) {
      const state = bpState();
      expect(command.enabled(state)).toBe(true);
      command.perform(state);
      expect(state.pause).toHaveBeenCalledOnce();
    }
  });

  it('Restart and Back need a second to go back from; Play needs a simulated second', () => {
    expect(BACKPRESSURE_COMMANDS.rewind.enabled(bpState({ cursor: 0 }))).toBe(false);
    expect(BACKPRESSURE_COMMANDS.back.enabled(bpState({ cursor: 0 }))).toBe(false);
    expect(BACKPRESSURE_COMMANDS.togglePlay.enabled(bpState({ lanes: lanes(0) } as Partial<BackpressureState>))).toBe(false);
  });
});
