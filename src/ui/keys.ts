/**
 * Which key a keydown is for the lab, and when the lab leaves a key alone (typing in a field, a modifier
 * held, Space on a control that Space already activates). What each key does is commands.ts.
 */
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

/**
 * The key as the commands name it (' ', 'ArrowRight', 'ArrowLeft', 'r', '?', '1'–'9'), or null when the key
 * is not the lab's here.
 */
export function labKey(event: KeyLike): string | null {
  if (event.ctrlKey || event.metaKey || event.altKey) return null;
  if (isSelect(event.target) && (event.key === 'ArrowRight' || event.key === 'ArrowLeft')) return event.key;
  if (ownsKeys(event.target)) return null;
  switch (event.key) {
    case ' ':
    case 'Spacebar':
      return activatedBySpace(event.target) ? null : ' ';
    case 'ArrowRight':
    case 'ArrowLeft':
    case '?':
      return event.key;
    case 'r':
    case 'R':
      return 'r';
    default:
      return /^[1-9]$/.test(event.key) ? event.key : null;
  }
}
