import { parentKey, ROOT, type Entity, type ProjectMeta } from './model';
import { hasProgress, type Progress } from './progress';
import type { ProjectStore } from './store/ProjectStore';

// The grid's rows, worked out from what the store holds and how the user wants to see it. Two ways: the hierarchy
// (folders that open to show their subfolders and tasks, read as they are opened), and a flat list across the
// whole project when a filter or a grouping is on, since those must see every entity to be right.

export type GridRow =
  | { type: 'entity'; key: string; entity: Entity; depth: number; expandable: boolean; expanded: boolean }
  | { type: 'pending'; key: string; depth: number; parent: string; error?: string }
  | { type: 'group'; key: string; label: string; count: number; collapsed: boolean; color?: string };

export interface Sort {
  /** name, type, status, or attrib.<name>. */
  key: string;
  desc: boolean;
}

export interface Filter {
  text: string;
  status: string;
  type: string;
  kind: 'all' | 'folder' | 'task';
  /** Tasks overdue, due soon or done. */
  progress: Progress;
}

/** none, status, type, kind, or attrib.<name> (attributes with a fixed list of values). */
export type GroupBy = string;

export const NO_FILTER: Filter = { text: '', status: '', type: '', kind: 'all', progress: '' };

export const isFlat = (filter: Filter, groupBy: GroupBy) =>
  groupBy !== 'none' ||
  filter.text.trim() !== '' ||
  filter.status !== '' ||
  filter.type !== '' ||
  filter.kind !== 'all' ||
  filter.progress !== '';

const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

function valueOf(entity: Entity, key: string): unknown {
  if (key === 'name') return entity.label || entity.name;
  if (key === 'type') return entity.type;
  if (key === 'status') return entity.status;
  if (key === 'kind') return entity.kind;
  if (key.startsWith('attrib.')) return entity.attrib[key.slice(7)];
  return undefined;
}

// A path split into its names, once per entity (entities are replaced, never changed, when they change).
const pathParts = new WeakMap<Entity, string[]>();
function partsOf(entity: Entity): string[] {
  let parts = pathParts.get(entity);
  if (!parts) pathParts.set(entity, (parts = entity.path.split('/')));
  return parts;
}

/**
 * By path, name by name and numbers as numbers: sq010/sh2 before sq010/sh10 before sq020/sh1. Descending reverses
 * the order among siblings only: a folder still comes before what is inside it.
 */
function byPath(a: Entity, b: Entity, desc = false): number {
  const [x, y] = [partsOf(a), partsOf(b)];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const order = collator.compare(x[i]!, y[i]!);
    if (order) return desc ? -order : order;
  }
  return x.length - y.length;
}

/**
 * Compares two entities by the sort key; empty values go last whichever the direction. Sorting by name sorts by
 * path, so a flat list keeps each sequence's shots together (siblings of the hierarchy compare by name alike).
 */
export function comparator({ key, desc }: Sort): (a: Entity, b: Entity) => number {
  if (key === 'name') return (a, b) => byPath(a, b, desc);
  return (a, b) => {
    const x = valueOf(a, key);
    const y = valueOf(b, key);
    const xEmpty = x === null || x === undefined || x === '';
    const yEmpty = y === null || y === undefined || y === '';
    if (xEmpty || yEmpty) return xEmpty === yEmpty ? byPath(a, b) : xEmpty ? 1 : -1;
    const order =
      typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
    return (desc ? -order : order) || byPath(a, b);
  };
}

export function hierarchyRows(
  store: ProjectStore,
  scope: string,
  expanded: Set<string>,
  sort: Sort,
): GridRow[] {
  const rows: GridRow[] = [];
  const compare = comparator(sort);
  // Rows are keyed by entity id: an entity shows once, under the folder it belongs to now, whatever a level's list
  // still says while reads and live news cross (a stale list would draw a moved shot twice, rows overlapping).
  const shown = new Set<string>();
  const here = (parent: string) => (id: string) => {
    const entity = store.entities.get(id);
    if (!entity || shown.has(id) || parentKey(entity) !== parent) return [];
    shown.add(id);
    return [entity];
  };
  const visit = (parent: string, depth: number) => {
    const list = store.children.get(parent);
    // The first pages of a big level show while the rest load; the pending row goes after them.
    if (list) {
      const folders = list.folders.flatMap(here(parent)).sort(compare);
      const tasks = list.tasks.flatMap(here(parent)).sort(compare);
      for (const entity of [...folders, ...tasks]) {
        const expandable =
          entity.kind === 'folder' &&
          (entity.hasChildren || entity.hasTasks || hasKnownChildren(store, entity.id));
        const open = expandable && expanded.has(entity.id);
        rows.push({ type: 'entity', key: entity.id, entity, depth, expandable, expanded: open });
        if (open) visit(entity.id, depth + 1);
      }
    }
    if (!list || list.state !== 'loaded')
      rows.push({ type: 'pending', key: `pending-${parent}`, depth, parent, error: list?.error });
  };
  visit(scope, 0);
  return rows;
}

function hasKnownChildren(store: ProjectStore, id: string): boolean {
  const list = store.children.get(id);
  return !!list && list.folders.length + list.tasks.length > 0;
}

// What a text filter looks in, lower-cased once per entity: entities are replaced, never changed, when they change,
// so each keystroke over 40,000 entities compares strings instead of lower-casing 120,000 of them.
const haystacks = new WeakMap<Entity, string>();
function haystack(entity: Entity): string {
  let text = haystacks.get(entity);
  if (text === undefined) {
    text = `${entity.name}\n${entity.label ?? ''}\n${entity.path}`.toLowerCase();
    haystacks.set(entity, text);
  }
  return text;
}

function matches(entity: Entity, filter: Filter, meta: ProjectMeta, now: number): boolean {
  if (filter.kind !== 'all' && entity.kind !== filter.kind) return false;
  if (!hasProgress(entity, filter.progress, meta, now)) return false;
  if (filter.status && entity.status !== filter.status) return false;
  if (filter.type && entity.type !== filter.type) return false;
  const text = filter.text.trim().toLowerCase();
  if (!text) return true;
  return haystack(entity).includes(text);
}

function groupOf(entity: Entity, groupBy: GroupBy): string {
  const value = valueOf(entity, groupBy);
  return value === null || value === undefined || value === '' ? '' : String(value);
}

export function flatRows(
  store: ProjectStore,
  meta: ProjectMeta,
  scopePath: string | null,
  filter: Filter,
  groupBy: GroupBy,
  sort: Sort,
  collapsed: Set<string>,
): GridRow[] {
  const inScope = (entity: Entity) => !scopePath || entity.path.startsWith(`${scopePath}/`);
  const found: Entity[] = [];
  const now = Date.now();
  for (const entity of store.entities.values())
    if (inScope(entity) && matches(entity, filter, meta, now)) found.push(entity);
  found.sort(comparator(sort));
  const entityRow = (entity: Entity): GridRow => ({
    type: 'entity',
    key: entity.id,
    entity,
    depth: 0,
    expandable: false,
    expanded: false,
  });
  if (groupBy === 'none') return found.map(entityRow);

  const groups = new Map<string, Entity[]>();
  for (const entity of found) {
    const key = groupOf(entity, groupBy);
    const members = groups.get(key);
    if (members) members.push(entity);
    else groups.set(key, [entity]);
  }
  const order = groupOrder(meta, groupBy);
  const keys = [...groups.keys()].sort((a, b) => {
    const [x, y] = [order.indexOf(a), order.indexOf(b)];
    if (a === '' || b === '') return a === b ? 0 : a === '' ? 1 : -1;
    if (x >= 0 && y >= 0) return x - y;
    return x >= 0 ? -1 : y >= 0 ? 1 : collator.compare(a, b);
  });
  const rows: GridRow[] = [];
  for (const key of keys) {
    const members = groups.get(key)!;
    const groupKey = `group-${key}`;
    rows.push({
      type: 'group',
      key: groupKey,
      label: key || 'Not set',
      count: members.length,
      collapsed: collapsed.has(groupKey),
      color: groupBy === 'status' ? meta.statuses.find((s) => s.name === key)?.color : undefined,
    });
    if (!collapsed.has(groupKey)) rows.push(...members.map(entityRow));
  }
  return rows;
}

/** Groups follow the project's own order of statuses and types, as people set them up. */
function groupOrder(meta: ProjectMeta, groupBy: GroupBy): string[] {
  if (groupBy === 'status') return meta.statuses.map((s) => s.name);
  if (groupBy === 'type') return [...meta.folderTypes, ...meta.taskTypes].map((t) => t.name);
  if (groupBy === 'kind') return ['folder', 'task'];
  return [];
}

export { ROOT };
