import { useEffect, useState } from 'react';

export type Theme = 'dark' | 'light';
const THEME_KEY = 'pipewright.theme';

/** Dark unless the user switched: studios work in dim rooms next to grading monitors. */
export function storedTheme(): Theme {
  return localStorage.getItem(THEME_KEY) === 'light' ? 'light' : 'dark';
}

export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** The current theme and a toggle that remembers the choice across visits. */
export function useTheme(): [Theme, () => void] {
  const [theme, setTheme] = useState<Theme>(storedTheme);
  useEffect(() => {
    applyTheme(theme);
    localStorage.setItem(THEME_KEY, theme);
  }, [theme]);
  return [theme, () => setTheme((current) => (current === 'dark' ? 'light' : 'dark'))];
}
