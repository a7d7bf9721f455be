import { useCallback, useState, type ReactNode } from 'react';

// Tabs, and the frame of a screen made of tabs. The chosen tab can live in the address (?tab=), so a reload or a
// link a colleague sends opens the same tab.

/** One tab: its id and what its button shows (text, or text with a count or a badge). */
export interface TabSpec<T extends string> {
  id: T;
  label: ReactNode;
}

/**
 * One query parameter of the address as state: reading it at first render, and writing it back (without a new
 * history entry) when it changes; null removes it.
 */
export function useSearchParam(name: string): [string | null, (value: string | null) => void] {
  const [value, setValue] = useState(() => new URLSearchParams(location.search).get(name));
  const change = useCallback(
    (next: string | null) => {
      const url = new URL(location.href);
      if (next === null) url.searchParams.delete(name);
      else url.searchParams.set(name, next);
      history.replaceState(history.state, '', url);
      setValue(next);
    },
    [name],
  );
  return [value, change];
}

/** The chosen tab, kept in ?tab=; an unknown or missing value means the first tab. */
export function useTabParam<T extends string>(ids: readonly T[]): [T, (tab: T) => void] {
  const [value, setValue] = useSearchParam('tab');
  const tab = ids.includes(value as T) ? (value as T) : ids[0]!;
  return [tab, setValue];
}

/** The row of tab buttons. */
export function Tabs<T extends string>({
  tabs,
  current,
  onChange,
  label,
}: {
  tabs: readonly TabSpec<T>[];
  current: T;
  onChange(id: T): void;
  /** What the tabs choose between, for screen readers ("Anatomy lists"). */
  label?: string;
}) {
  return (
    <div className="pw-tabs" role="tablist" aria-label={label}>
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          aria-selected={tab.id === current}
          className={tab.id === current ? 'pw-tab pw-tab-current' : 'pw-tab'}
          onClick={() => onChange(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}

/** A screen of tabs: its heading, the tab row, and the current tab's content below. */
export function TabbedScreen<T extends string>({
  title,
  tabs,
  current,
  onChange,
  children,
}: {
  title: string;
  tabs: readonly TabSpec<T>[];
  current: T;
  onChange(id: T): void;
  /** The content of the current tab. */
  children: ReactNode;
}) {
  return (
    <section className="pw-screen">
      <h1>{title}</h1>
      <Tabs tabs={tabs} current={current} onChange={onChange} />
      <div role="tabpanel" className="pw-tabpanel">
        {children}
      </div>
    </section>
  );
}
