import type { ReactNode } from 'react';

/**
 * A box that scrolls sideways on a narrow window (wide tables). It takes focus so it can be scrolled
 * from the keyboard too (WCAG 2.1.1), and names itself for the screen reader that lands on it.
 */
export function ScrollBox({ label, children }: { label: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable with the keyboard
    <section className="table-scroll" tabIndex={0} aria-label={label}>
      {children}
    </section>
  );
}
