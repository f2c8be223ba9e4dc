/**
 * Play / Pause: a loop outside React that takes a step, waits, and takes the next, until paused or
 * until nothing more can happen. It reads the store directly, so speed changes apply at once.
 */
import type { StateCreator } from 'zustand/vanilla';
import { DEFAULT_PREFS, PLAYBACK_SPEEDS } from './persist';
import type { LabDeps, LabState, PlaybackSlice } from './types';

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createPlaybackSlice(deps: LabDeps): StateCreator<LabState, [], [], PlaybackSlice> {
  return (set, get) => {
    const sleep = deps.sleep ?? defaultSleep;
    let looping = false;

    async function loop(): Promise<void> {
      looping = true;
      try {
        while (get().playing) {
          const moved = await get().step();
          if (!moved) {
            set({ playing: false });
            break;
          }
          await sleep(1000 / get().speed);
        }
      } finally {
        looping = false;
      }
    }

    return {
      playing: false,
      speed: DEFAULT_PREFS.speed,
      play() {
        if (get().playing) return;
        set({ playing: true });
        if (!looping) void loop();
      },
      pause() {
        set({ playing: false });
      },
      togglePlay() {
        if (get().playing) get().pause();
        else get().play();
      },
      setSpeed(speed) {
        if ((PLAYBACK_SPEEDS as readonly number[]).includes(speed)) set({ speed });
      },
    };
  };
}
