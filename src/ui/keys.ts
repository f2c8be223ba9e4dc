/**
 * The keyboard map, as data: which key does what, and when the lab leaves a key alone (typing in a
 * field, a modifier held, Space on a control that Space already activates).
 */
export type KeyCommand =
  | { kind: 'toggle-play' }
  | { kind: 'step' }
  | { kind: 'back' }
  | { kind: 'reset' }
  | { kind: 'step-worker'; index: number }
  | { kind: 'help' };

export const KEY_HELP: readonly { keys: string; what: string }[] = [
  { keys: 'Space', what: 'Play / Pause' },
  { keys: '→', what: 'Next step: the next step of the script (or reveal the next step after Back)' },
  { keys: '←', what: 'Back one step' },
  { keys: 'R', what: 'Reset the scenario' },
  { keys: '1 – 9', what: 'Step worker A, B, C… yourself' },
  { keys: '← → in the tour', what: 'Back / Continue the tour, while the focus is in the tour panel' },
  { keys: '?', what: 'Show or hide this help' },
  { keys: 'Tab', what: 'Move between controls; every control works with Enter or Space' },
];

interface KeyLike {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
  target: EventTarget | null;
}

/** Elements where keys belong to the element: text entry, choices, sliders. */
function ownsKeys(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target.closest('input, select, textarea, [contenteditable=""], [contenteditable="true"]')) return true;
  return false;
}

/** Space already activates these; taking it over would click twice. */
function activatedBySpace(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('button, a[href], summary, [role="button"], [role="switch"], [role="checkbox"]') !== null;
}

/**
 * A closed select left focused after a choice would take ← and → as "choose the neighbouring option" and
 * change a setting the learner was not aiming at; there they are Step and Back as documented (↑ ↓ still choose).
 */
function isSelect(target: EventTarget | null): boolean {
  return target instanceof Element && target.closest('select') !== null;
}

export function commandFor(event: KeyLike): KeyCommand | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isSelect(event.target) && (event.key === 'ArrowRight' || event.key === 'ArrowLeft'))
    return event.key === 'ArrowRight' ? { kind: 'step' } : { kind: 'back' };
  if (ownsKeys(event.target)) return null;
  switch (event.key) {
    case ' ':
    case 'Spacebar':
      return activatedBySpace(event.target) ? null : { kind: 'toggle-play' };
    case 'ArrowRight':
      return { kind: 'step' };
    case 'ArrowLeft':
      return { kind: 'back' };
    case 'r':
    case 'R':
      return { kind: 'reset' };
    case '?':
      return { kind: 'help' };
    default:
      if (/^[1-9]$/.test(event.key)) return { kind: 'step-worker', index: Number(event.key) - 1 };
      return null;
  }
}
