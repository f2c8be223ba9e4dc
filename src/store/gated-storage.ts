/**
 * The storage an embedded lab (`?embed`, in someone else's page) uses: it reads what is there, but keeps
 * nothing until the learner acts in the frame (a click, a tap or a key in it). A course page that only
 * shows the lab leaves no trace in the learner's browser; once they play with it, their place is theirs.
 */
import type { StorageLike } from './persist';

/** The learner's acts that count: in the frame's own document (a frame only gets them while focused). */
const ACTS = ['pointerdown', 'keydown'] as const;

export function storageAfterFirstAct(storage: StorageLike | null, win: Pick<Window, 'addEventListener' | 'removeEventListener'>): StorageLike | null {
  if (storage === null) return null;
  let acted = false;
  const onAct = () => {
    acted = true;
    for (const kind of ACTS) win.removeEventListener(kind, onAct, true);
  };
  for (const kind of ACTS) win.addEventListener(kind, onAct, true);
  return {
    getItem: (key) => storage.getItem(key),
    // Before the learner acts, a write is left out: the next write after their first act carries the whole state.
    setItem: (key, value) => {
      if (acted) storage.setItem(key, value);
    },
    removeItem: (key) => {
      if (acted) storage.removeItem(key);
    },
  };
}
