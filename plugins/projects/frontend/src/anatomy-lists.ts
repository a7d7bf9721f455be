// The four lists of a project's anatomy that studios edit most, and how each is shown and edited. Field names are
// the anatomy document's (snake_case list names, camelCase fields), since that document is what gets saved.

export type ListName = 'statuses' | 'folder_types' | 'task_types' | 'tags';

export type Item = Record<string, unknown> & { name: string };

export type FieldKind = 'text' | 'color' | 'state' | 'scope';

export interface Field {
  field: string;
  label: string;
  kind: FieldKind;
  hint?: string;
}

export interface ListSpec {
  name: ListName;
  title: string;
  /** One of them, in sentences ("Add a status"). */
  singular: string;
  fields: Field[];
  blank(): Item;
}

export const STATES = ['not_started', 'in_progress', 'done', 'blocked'] as const;
export const ENTITY_TYPES = ['folder', 'task', 'product', 'version', 'representation', 'workfile'] as const;

const name: Field = { field: 'name', label: 'Name', kind: 'text' };
const shortName: Field = { field: 'shortName', label: 'Short', kind: 'text', hint: 'Up to 20 characters' };
const icon: Field = { field: 'icon', label: 'Icon', kind: 'text', hint: 'Material icon name' };
const color: Field = { field: 'color', label: 'Color', kind: 'color' };

export const LISTS: ListSpec[] = [
  {
    name: 'statuses',
    title: 'Statuses',
    singular: 'status',
    fields: [
      name,
      shortName,
      { field: 'state', label: 'State', kind: 'state' },
      color,
      icon,
      { field: 'scope', label: 'Applies to', kind: 'scope' },
    ],
    blank: () => ({
      name: '',
      shortName: '',
      state: 'not_started',
      icon: '',
      color: '#cacaca',
      scope: [...ENTITY_TYPES],
    }),
  },
  {
    name: 'folder_types',
    title: 'Folder types',
    singular: 'folder type',
    fields: [name, shortName, icon],
    blank: () => ({ name: '', shortName: '', icon: 'folder' }),
  },
  {
    name: 'task_types',
    title: 'Task types',
    singular: 'task type',
    fields: [name, shortName, color, icon],
    blank: () => ({ name: '', shortName: '', color: '#cccccc', icon: 'task_alt' }),
  },
  {
    name: 'tags',
    title: 'Tags',
    singular: 'tag',
    fields: [name, color],
    blank: () => ({ name: '', color: '#cacaca' }),
  },
];

/** A list entry being edited: `origin` is its name when loaded, so a rename can be told from a new entry. */
export interface Row {
  key: number;
  origin: string | null;
  item: Item;
}

let nextKey = 1;

export function rowsOf(items: unknown): Row[] {
  if (!Array.isArray(items)) return [];
  return items.map((raw) => {
    // original_name is only ever sent for a rename made here; an old one must not travel again.
    const { original_name: _old, ...item } = raw as Item & { original_name?: string };
    return { key: nextKey++, origin: item.name, item: item as Item };
  });
}

export function newRow(spec: ListSpec): Row {
  return { key: nextKey++, origin: null, item: spec.blank() };
}

/**
 * The list as the anatomy document carries it. A renamed entry says what it was called (original_name), so the
 * server renames it on every folder, task and version that uses it instead of leaving them with a name that no
 * longer exists.
 */
export function itemsOf(rows: Row[]): Item[] {
  return rows.map(({ origin, item }) =>
    origin !== null && origin !== item.name ? { ...item, original_name: origin } : item,
  );
}
