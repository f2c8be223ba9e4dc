import { useEffect, useState } from 'react';
import { cssVar, useThemeVersion } from '../../charts/colors';

/** Okabe–Ito fallbacks; the page's CSS variables (light and dark) win. Last entry: model calls. */
const FALLBACK = ['#0072b2', '#d55e00', '#009e73', '#cc79a7', '#6a3d9a'];

/** The tenants' colours (and the model-call colour last) as the current theme paints them. */
export function usePalette(): string[] {
  const theme = useThemeVersion();
  const [colors, setColors] = useState(FALLBACK);
  // biome-ignore lint/correctness/useExhaustiveDependencies: theme says when the CSS variables may have changed
  useEffect(() => {
    const root = document.querySelector('.bp-view') ?? document.documentElement;
    setColors(['--bp-tenant-1', '--bp-tenant-2', '--bp-tenant-3', '--bp-tenant-4', '--bp-calls'].map((name, i) => cssVar(root, name, FALLBACK[i]!)));
  }, [theme]);
  return colors;
}
