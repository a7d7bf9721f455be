import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf, statusOf } from '@pipewright/sdk/ui';
import { filterFromAddress, forgetFilterInAddress } from './address-filter';
import type { Filter, GroupBy, Sort } from './rows';
import { DEFAULT_VIEW, fromSettings, toSettings, type ColumnLayout, type OverviewView } from './views';

/** How long the look must rest before it is saved: a filter typed letter by letter is one save. */
const SAVE_AFTER_MS = 600;

const path = { view_type: 'overview' as const };

/** The user's working view of the overview in this project, or null when they have none yet. */
export async function readWorkingView(
  client: PipewrightClient,
  project: string,
): Promise<OverviewView | null> {
  try {
    const view = await client.GET('/api/views/{view_type}/working', {
      params: { path, query: { project_name: project } },
    });
    return fromSettings(view.settings as Record<string, unknown>);
  } catch (failure) {
    if (statusOf(failure) === 404) return null;
    throw failure;
  }
}

/**
 * Keep the overview's look as the user's working view of the project: read back when the screen opens (and put on
 * screen), saved a moment after each change. Nothing is saved before the stored view was read, so opening the
 * screen never overwrites it with the defaults. A failure to read or save is reported, not swallowed.
 */
export function useWorkingView(
  client: PipewrightClient,
  project: string,
  current: OverviewView,
  apply: (view: OverviewView) => void,
  onError: (text: string) => void,
): { restored: boolean } {
  const [restored, setRestored] = useState(false);
  const saved = useRef<string | null>(null);
  const report = useRef(onError);
  report.current = onError;
  const put = useRef(apply);
  put.current = apply;
  // Only the fallback for a user without a stored view: a change of it is no reason to read again.
  const fallback = useRef(current);
  fallback.current = current;

  useEffect(() => {
    let live = true;
    readWorkingView(client, project).then(
      (view) => {
        if (!live) return;
        if (view) put.current(view);
        saved.current = JSON.stringify(toSettings(view ?? fallback.current));
        setRestored(true);
      },
      (failure) => {
        if (!live) return;
        report.current(`Your last view of ${project} could not be read: ${messageOf(failure)}.`);
        // Still kept from now on: the user's next change is worth more than the unreadable one.
        setRestored(true);
      },
    );
    return () => {
      live = false;
    };
  }, [client, project]);

  const settings = JSON.stringify(toSettings(current));
  // The same refusal is said once, not at every change of a filter (a server without the views addon, say).
  const lastRefusal = useRef<string | null>(null);
  useEffect(() => {
    if (!restored || settings === saved.current) return;
    const timer = setTimeout(() => {
      saved.current = settings;
      client
        .POST('/api/views/{view_type}', {
          params: { path, query: { project_name: project } },
          body: { label: 'Working view', working: true, settings: JSON.parse(settings) },
        })
        .then(
          () => (lastRefusal.current = null),
          (failure) => {
            saved.current = null;
            const text = `Your view of ${project} could not be kept: ${messageOf(failure)}.`;
            if (text !== lastRefusal.current) report.current(text);
            lastRefusal.current = text;
          },
        );
    }, SAVE_AFTER_MS);
    return () => clearTimeout(timer);
  }, [client, project, restored, settings]);

  return { restored };
}

/**
 * The overview's look (filters, grouping, sorting, columns), each part with its setter, kept as the user's working
 * view of the project: `apply` puts a whole view on screen (a restored one). A filter the address names (a link
 * from the dashboard) wins over the restored view's.
 */
export function useOverviewLook(client: PipewrightClient, project: string, onError: (text: string) => void) {
  const [linked] = useState(filterFromAddress);
  useEffect(forgetFilterInAddress, []);
  const [filter, setFilter] = useState<Filter>(linked ?? DEFAULT_VIEW.filter);
  const [groupBy, setGroupBy] = useState<GroupBy>(DEFAULT_VIEW.groupBy);
  const [sort, setSort] = useState<Sort>(DEFAULT_VIEW.sort);
  const [columns, setColumns] = useState<ColumnLayout>(DEFAULT_VIEW.columns);
  const view = useMemo(() => ({ filter, groupBy, sort, columns }), [filter, groupBy, sort, columns]);
  const apply = useCallback((next: OverviewView) => {
    setFilter(next.filter);
    setGroupBy(next.groupBy);
    setSort(next.sort);
    setColumns(next.columns);
  }, []);
  const restore = useCallback(
    (stored: OverviewView) => apply(linked ? { ...stored, filter: linked } : stored),
    [apply, linked],
  );
  useWorkingView(client, project, view, restore, onError);
  return { view, apply, filter, groupBy, sort, columns, setFilter, setGroupBy, setSort, setColumns };
}
