import { ROOT, type Entity } from '../model';

// The lists of a folder's children (a "level"; ROOT for the top level of the project) and how they change.

export interface ChildList {
  state: 'loading' | 'loaded' | 'error';
  folders: string[];
  tasks: string[];
  error?: string;
}

export interface FullLoad {
  state: 'idle' | 'loading' | 'loaded' | 'error';
  /** Entities read so far, for the progress line. */
  count: number;
  error?: string;
}

/** The list without these ids. */
export function without(list: ChildList, gone: Set<string>): ChildList {
  return {
    ...list,
    folders: list.folders.filter((id) => !gone.has(id)),
    tasks: list.tasks.filter((id) => !gone.has(id)),
  };
}

/** Add an id to the group of this key. */
export function groupIn(groups: Map<string, Set<string>>, key: string, id: string): void {
  const group = groups.get(key);
  if (group) group.add(id);
  else groups.set(key, new Set([id]));
}

/** A folder that now has a child of this kind. */
export const withChild = (folder: Entity, kind: Entity['kind']): Entity => ({
  ...folder,
  ...(kind === 'folder' ? { hasChildren: true } : { hasTasks: true }),
});

/**
 * Every level's list when every entity of the project is known, and the folders whose hasChildren or hasTasks
 * those lists contradict, corrected.
 */
export function everyLevel(entities: Entity[]): { lists: Map<string, ChildList>; corrected: Entity[] } {
  const lists = new Map<string, ChildList>();
  const listOf = (key: string) => {
    let list = lists.get(key);
    if (!list) lists.set(key, (list = { state: 'loaded', folders: [], tasks: [] }));
    return list;
  };
  for (const entity of entities) {
    if (entity.kind === 'folder') listOf(entity.parentId ?? ROOT).folders.push(entity.id);
    else listOf(entity.parentId!).tasks.push(entity.id);
  }
  const corrected: Entity[] = [];
  for (const entity of entities)
    if (entity.kind === 'folder') {
      const list = listOf(entity.id);
      const hasChildren = list.folders.length > 0;
      const hasTasks = list.tasks.length > 0;
      if (entity.hasChildren !== hasChildren || entity.hasTasks !== hasTasks)
        corrected.push({ ...entity, hasChildren, hasTasks });
    }
  listOf(ROOT);
  return { lists, corrected };
}
