/** Chart colours come from the page's CSS variables, so the charts follow the light or dark theme. */
import { useEffect, useState } from 'react';
import type { ChartColors } from './draw';

export function cssVar(element: Element, name: string, fallback: string): string {
  const value = getComputedStyle(element).getPropertyValue(name).trim();
  return value || fallback;
}

export function chartColors(element: Element): ChartColors {
  return {
    ink: cssVar(element, '--text', '#1b1f24'),
    muted: cssVar(element, '--muted', '#545d68'),
    grid: cssVar(element, '--bp-grid', '#dde2e7'),
    bg: cssVar(element, '--surface', '#ffffff'),
    cap: cssVar(element, '--bp-cap', '#a94300'),
    cursor: cssVar(element, '--text', '#1b1f24'),
  };
}

/** A number that changes whenever the theme may have changed (the data-theme attribute or the system's). */
export function useThemeVersion(): number {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const bump = () => setVersion((v) => v + 1);
    const observer = new MutationObserver(bump);
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme', 'class'] });
    const media = window.matchMedia?.('(prefers-color-scheme: dark)');
    media?.addEventListener('change', bump);
    return () => {
      observer.disconnect();
      media?.removeEventListener('change', bump);
    };
  }, []);
  return version;
}
