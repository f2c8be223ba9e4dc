import type { ThemeChoice } from '../store/persist';
import { useLab } from '../store/react';

const NEXT: Record<ThemeChoice, ThemeChoice> = { system: 'light', light: 'dark', dark: 'system' };
const LABEL: Record<ThemeChoice, string> = { system: 'Theme: system', light: 'Theme: light', dark: 'Theme: dark' };

export function ThemeToggle() {
  const theme = useLab((s) => s.theme);
  const setTheme = useLab((s) => s.setTheme);
  return (
    <button type="button" className="quiet" onClick={() => setTheme(NEXT[theme])} title="Switch between the system's theme, light and dark">
      {LABEL[theme]}
    </button>
  );
}
