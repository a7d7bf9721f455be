import { useEffect, useMemo, useState } from 'react';
import { ROOT, type ProjectMeta } from '../model';
import { flatRows, hierarchyRows, isFlat, type Filter, type GroupBy, type Sort } from '../rows';
import { toggled } from '../sets';
import type { ProjectStore } from '../store/ProjectStore';

/**
 * The grid's rows: the hierarchy under the tree's choice (`scope`), or, while a filter or a grouping is on, the
 * matches across the project (`flat`), read whole first. Groups can be closed.
 */
export function useOverviewRows(
  store: ProjectStore,
  version: number,
  meta: ProjectMeta | null,
  { scope, gridOpen }: { scope: string; gridOpen: Set<string> },
  { filter, groupBy, sort }: { filter: Filter; groupBy: GroupBy; sort: Sort },
) {
  const [collapsed, setCollapsed] = useState<Set<string>>(() => new Set());
  const flat = isFlat(filter, groupBy);
  const fullState = store.full.state;
  useEffect(() => {
    if (flat && fullState === 'idle') void store.loadAll();
  }, [flat, fullState, store]);

  const scopeEntity = scope === ROOT ? null : (store.entities.get(scope) ?? null);
  const rows = useMemo(
    () =>
      !meta
        ? []
        : flat
          ? flatRows(store, meta, scopeEntity?.path ?? null, filter, groupBy, sort, collapsed)
          : hierarchyRows(store, scope, gridOpen, sort),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- version: the store changed in place (reads, edits)
    [store, meta, flat, scope, scopeEntity, filter, groupBy, sort, collapsed, gridOpen, version],
  );
  const toggleGroup = (key: string) => setCollapsed((current) => toggled(current, key));
  return { rows, flat, scopeEntity, toggleGroup };
}
