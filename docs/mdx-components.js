import { useMDXComponents as getThemeComponents } from 'nextra-theme-docs';
import { Callout, Cards, Steps, Tabs } from 'nextra/components';

const themeComponents = getThemeComponents();

export function useMDXComponents(components) {
  // Callout, Cards, Steps and Tabs are usable in every page without an import.
  return { ...themeComponents, Callout, Cards, Steps, Tabs, ...components };
}
