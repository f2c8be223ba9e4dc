/**
 * A reload (or a return through history) opens the address its history entry had when it began. The lab
 * writes its address a moment after each step (sync.ts), and a write made after the reload began, or while
 * the page goes away, is too late for it (seen in Chromium; the saved place written then is kept): the
 * page would open the view before the step. So each write of the address is noted in this tab's
 * sessionStorage, from which address to which view; a page of this tab reopened by reload or history at
 * exactly the address the last write replaced opens the view it was replaced by. A page opened any other
 * way (a link followed, an address typed) keeps its address.
 */
import type { StorageLike } from './persist';

const KEY = 'lease-lab:address-written';

interface AddressWrite {
  /** The fragment the address had before the write, without '#'. */
  from: string;
  /** The fragment written. */
  to: string;
}

/** The lab replaced the address fragment `from` with `to`. */
export function noteAddressWrite(tab: StorageLike | null, from: string, to: string): void {
  try {
    tab?.setItem(KEY, JSON.stringify({ from, to } satisfies AddressWrite));
  } catch {
    // Storage refused: a reload opens the address it took, as it would without the note.
  }
}

function takeNote(tab: StorageLike | null): AddressWrite | null {
  try {
    const text = tab?.getItem(KEY) ?? null;
    if (text === null) return null;
    tab?.removeItem(KEY);
    const note: unknown = JSON.parse(text);
    if (typeof note !== 'object' || note === null) return null;
    const { from, to } = note as Partial<AddressWrite>;
    return typeof from === 'string' && typeof to === 'string' ? { from, to } : null;
  } catch {
    return null;
  }
}

/** How the page was opened, as the Navigation Timing entry says; 'navigate' when it cannot tell. */
export function navigationKind(win: Pick<Window, 'performance'>): string {
  const entry = win.performance?.getEntriesByType?.('navigation')[0] as PerformanceNavigationTiming | undefined;
  return entry?.type ?? 'navigate';
}

/**
 * At the page's start, before anything reads the address: a page reopened (`reload` or `back_forward`) at
 * the address the lab's last write replaced gets the view written instead. The note is read once.
 */
export function restoreLeftAddress(win: Pick<Window, 'location' | 'history'>, tab: StorageLike | null, opened: string): void {
  const note = takeNote(tab);
  if (note === null || (opened !== 'reload' && opened !== 'back_forward')) return;
  if (win.location.hash.replace(/^#/, '') !== note.from) return;
  win.history.replaceState(win.history.state, '', `#${note.to}`);
}
