import type { Column } from './grid/columns';
import { isProgress } from './progress';
import { isFlat, NO_FILTER, type Filter, type GroupBy, type Sort } from './rows';

// How the overview looks (filters, grouping, sorting, columns) as the settings of an AYON "overview" view, and
// back. The server keeps them (plugins/views): the working view per user and project without an explicit save,
// and named views, private or shared with everyone.

/** One column as a view keeps it (AYON's ColumnItemModel); the list's order is the columns' order. */
export interface ColumnSetting {
  name: string;
  visible: boolean;
  pinned: boolean;
  /** Pixels; null keeps the column's usual width. */
  width: number | null;
}

/** No entries: every column shown, in its usual order and width, the name pinned. */
export type ColumnLayout = ColumnSetting[];

export interface OverviewView {
  filter: Filter;
  groupBy: GroupBy;
  sort: Sort;
  columns: ColumnLayout;
}

export const DEFAULT_VIEW: OverviewView = {
  filter: NO_FILTER,
  groupBy: 'none',
  sort: { key: 'name', desc: false },
  columns: [],
};

interface Condition {
  key: string;
  value: string;
  operator: 'eq' | 'like';
}

// The filter as an AYON QueryFilter. The keys are the overview's own (text searches name and path, type is the
// folder or task type, entityType folder or task, progress overdue, due-soon or done): the server keeps a view's
// filter without interpreting it.
const FILTER_KEYS: { key: string; field: keyof Filter; operator: Condition['operator'] }[] = [
  { key: 'text', field: 'text', operator: 'like' },
  { key: 'status', field: 'status', operator: 'eq' },
  { key: 'type', field: 'type', operator: 'eq' },
  { key: 'entityType', field: 'kind', operator: 'eq' },
  { key: 'progress', field: 'progress', operator: 'eq' },
];

/** The settings an "overview" view stores for this look of the screen. */
export function toSettings(view: OverviewView): Record<string, unknown> {
  const conditions: Condition[] = FILTER_KEYS.flatMap(({ key, field, operator }) => {
    const value = view.filter[field];
    return value && value !== 'all' ? [{ key, value, operator }] : [];
  });
  return {
    showHierarchy: !isFlat(view.filter, view.groupBy),
    groupBy: view.groupBy === 'none' ? null : view.groupBy,
    sortBy: view.sort.key,
    sortDesc: view.sort.desc,
    filter: conditions.length ? { conditions, operator: 'and' } : null,
    columns: view.columns,
  };
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The look a stored view asks for; what it lacks (or holds in a shape not understood) stays as by default. */
export function fromSettings(settings: Record<string, unknown>): OverviewView {
  const filter: Filter = { ...NO_FILTER };
  const stored = settings.filter as { conditions?: unknown } | null | undefined;
  const conditions = Array.isArray(stored?.conditions)
    ? (stored.conditions as Record<string, unknown>[])
    : [];
  for (const condition of conditions) {
    const known = FILTER_KEYS.find((k) => k.key === condition?.key);
    const value = text(condition?.value);
    if (!known || !value) continue;
    if (known.field === 'kind') {
      if (value === 'folder' || value === 'task') filter.kind = value;
    } else if (known.field === 'progress') {
      if (isProgress(value)) filter.progress = value;
    } else filter[known.field] = value;
  }
  const columns = Array.isArray(settings.columns)
    ? (settings.columns as Partial<ColumnSetting>[]).flatMap((c) =>
        typeof c?.name === 'string'
          ? [
              {
                name: c.name,
                visible: c.visible !== false,
                pinned: c.pinned === true,
                width: typeof c.width === 'number' && c.width > 0 ? c.width : null,
              },
            ]
          : [],
      )
    : [];
  return {
    filter,
    groupBy: text(settings.groupBy) || 'none',
    sort: { key: text(settings.sortBy) || 'name', desc: settings.sortDesc === true },
    columns,
  };
}

/** The name column stays: without it a row says nothing about what it is. */
export const canHide = (column: Column) => column.kind !== 'name';

/**
 * Every column with its setting in the layout (columns the layout does not name, such as an attribute added
 * since, are shown after the others), in the layout's order.
 */
export function columnSettings(all: Column[], layout: ColumnLayout): ColumnSetting[] {
  const byName = new Map(all.map((c) => [c.key, c]));
  const named = layout.filter((s) => byName.has(s.name));
  const rest = all
    .filter((c) => !named.some((s) => s.name === c.key))
    .map((c) => ({ name: c.key, visible: true, pinned: c.kind === 'name', width: null }));
  return [...named, ...rest];
}

/**
 * The grid's columns as the layout arranges them: hidden ones left out, widths applied, pinned ones first (they
 * stay in view while the others scroll sideways, each at its offset from the left edge).
 */
export function arrangeColumns(all: Column[], layout: ColumnLayout): Column[] {
  const byName = new Map(all.map((c) => [c.key, c]));
  const shown = columnSettings(all, layout)
    .filter((s) => s.visible || !canHide(byName.get(s.name)!))
    .map((s) => {
      const column = byName.get(s.name)!;
      return { ...column, width: s.width ?? column.width, pinned: s.pinned };
    });
  const pinned = shown.filter((c) => c.pinned);
  let left = 0;
  for (const column of pinned) {
    column.left = left;
    left += column.width;
  }
  return [...pinned, ...shown.filter((c) => !c.pinned)];
}
