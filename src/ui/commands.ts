/**
 * The playback commands, each once: its words, its key, its help line, when it can run and what it does.
 * A button, the keyboard, the help dialog and the tests all read these tables, so "Next step" cannot be
 * enabled on the button and ignored on →, or pause on one and not the other. (The keys themselves, and
 * when the page leaves a key to a field, are keys.ts.)
 */
import { type BackpressureState, lastShowable } from '../store/backpressure-store';
import type { LabState } from '../store/types';

export interface Command<S> {
  id: string;
  /** The button's words (Play and Pause are one command). */
  label: (state: S) => string;
  /** The key that runs it, as keys.ts names a pressed key; null for a button only. */
  key: string | null;
  /** The key as the help and the button's tooltip show it. */
  keyLabel: string | null;
  /** What it does, for the help. */
  help: string;
  enabled: (state: S) => boolean;
  perform: (state: S) => void;
}

/** The lab's controls wait for the first trace; afterwards they stay usable while requests queue. */
export function labReady(state: Pick<LabState, 'loaded' | 'enginePhase'>): boolean {
  return state.loaded && state.enginePhase !== 'failed';
}

/** Nothing is left to reveal or to happen: the schedule is over and every step is shown. */
function labOver(state: Pick<LabState, 'status' | 'stalled' | 'position' | 'steps'>): boolean {
  return (state.status?.isOver === true || state.stalled) && state.position >= state.steps.length;
}

const reset: Command<LabState> = {
  id: 'reset',
  label: () => 'Reset',
  key: 'r',
  keyLabel: 'R',
  help: 'Reset the scenario',
  enabled: labReady,
  perform: (state) => void state.reset(),
};

const back: Command<LabState> = {
  id: 'back',
  label: () => 'Back',
  key: 'ArrowLeft',
  keyLabel: '←',
  help: 'Back one step',
  enabled: (state) => labReady(state) && state.position > 0,
  perform: (state) => state.back(),
};

const step: Command<LabState> = {
  id: 'step',
  label: () => 'Next step',
  key: 'ArrowRight',
  keyLabel: '→',
  help: 'Next step: the next step of the script (or reveal the next step after Back)',
  enabled: (state) => labReady(state) && !labOver(state),
  // A step taken by hand while playing stops the playing first: the learner has taken over.
  perform: (state) => {
    state.pause();
    void state.step();
  },
};

const togglePlay: Command<LabState> = {
  id: 'toggle-play',
  label: (state) => (state.playing ? 'Pause' : 'Play'),
  key: ' ',
  keyLabel: 'Space',
  help: 'Play / Pause',
  enabled: (state) => labReady(state) && !(labOver(state) && !state.playing),
  perform: (state) => state.togglePlay(),
};

const help: Command<LabState> = {
  id: 'help',
  label: () => 'Keyboard help',
  key: '?',
  keyLabel: '?',
  help: 'Show or hide this help',
  enabled: () => true,
  perform: (state) => state.setHelpOpen(!state.helpOpen),
};

/** The lab's playback, in the order the help lists them. */
export const LAB_COMMANDS = { togglePlay, step, back, reset, help } as const;

/** Lines of the help that are not one command of the table: the worker keys, the tour's, Tab. */
const OTHER_KEYS: readonly { keys: string; what: string }[] = [
  { keys: '1 – 9', what: 'Step worker A, B, C… yourself' },
  { keys: '← → in the tour', what: 'Back / Continue the tour, while the focus is in the tour panel' },
  { keys: "← → in a spec's lanes", what: 'Back / Step through the opened order of your spec, while the focus is in its lanes' },
];

/** The keyboard help, from the table. */
export const KEY_HELP: readonly { keys: string; what: string }[] = [
  ...[togglePlay, step, back, reset].map((command) => ({ keys: command.keyLabel!, what: command.help })),
  ...OTHER_KEYS,
  { keys: help.keyLabel!, what: help.help },
  { keys: 'Tab', what: 'Move between controls; every control works with Enter or Space' },
];

/** A button's tooltip: what it does, and its key. */
export function titleOf<S>(command: Command<S>): string {
  return command.keyLabel ? `${command.help} (${command.keyLabel})` : command.help;
}

/** The backpressure view's playback: seconds of the simulation rather than steps of a schedule. */
export const BACKPRESSURE_COMMANDS = {
  togglePlay: {
    id: 'toggle-play',
    label: (state) => (state.playing ? 'Pause' : 'Play'),
    key: ' ',
    keyLabel: 'Space',
    help: 'Play / Pause',
    enabled: (state) => state.lanes.fifo.ticks.length > 0,
    perform: (state) => (state.playing ? state.pause() : state.play()),
  },
  step: {
    id: 'step',
    label: () => 'Step',
    key: 'ArrowRight',
    keyLabel: '→',
    help: 'One second on',
    enabled: (state) => state.cursor < lastShowable(state.lanes),
    perform: (state) => {
      state.pause();
      state.step();
    },
  },
  back: {
    id: 'back',
    label: () => 'Back',
    key: 'ArrowLeft',
    keyLabel: '←',
    help: 'One second back',
    enabled: (state) => state.cursor > 0,
    perform: (state) => {
      state.pause();
      state.seek(Math.max(0, state.cursor - 1));
    },
  },
  toEnd: {
    id: 'to-end',
    label: () => 'To end',
    key: null,
    keyLabel: null,
    help: 'To the last second simulated',
    enabled: (state) => state.cursor < lastShowable(state.lanes),
    perform: (state) => {
      state.pause();
      state.toEnd();
    },
  },
  rewind: {
    id: 'rewind',
    label: () => 'Restart',
    key: 'r',
    keyLabel: 'R',
    help: 'Back to second 0',
    enabled: (state) => state.cursor > 0,
    perform: (state) => {
      state.pause();
      state.rewind();
    },
  },
} as const satisfies Record<string, Command<BackpressureState>>;

/** The cursor of a spec's opened order (SpecLanes): the stop it stands at, its last, and how it moves. */
export interface SpecCursor {
  stop: number;
  last: number;
  go: (stop: number) => void;
}

/** A spec's lanes, stepped with the lab's own words and keys (while the focus is in the lanes). */
export const SPEC_LANE_COMMANDS = {
  back: {
    id: 'spec-back',
    label: () => 'Back',
    key: 'ArrowLeft',
    keyLabel: '←',
    help: 'Back one step of the opened order',
    enabled: (cursor) => cursor.stop > 0,
    perform: (cursor) => cursor.go(cursor.stop - 1),
  },
  step: {
    id: 'spec-step',
    label: () => 'Step',
    key: 'ArrowRight',
    keyLabel: '→',
    help: 'The next step of the opened order',
    enabled: (cursor) => cursor.stop < cursor.last,
    perform: (cursor) => cursor.go(cursor.stop + 1),
  },
} as const satisfies Record<string, Command<SpecCursor>>;

/** The command of `table` that `key` (as keys.ts names it) runs, if any. */
export function commandForKey<S>(table: Readonly<Record<string, Command<S>>>, key: string): Command<S> | null {
  return Object.values(table).find((command) => command.key === key) ?? null;
}
