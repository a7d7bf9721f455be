import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import { ROOT, type Entity } from './model';

// The project's folders and tasks as far as the screen has read them. Children are read when a folder is first
// opened (the tree and the grid share what was read), and the whole project only when a filter or a grouping
// needs it. Components subscribe and re-render when the version number moves.

const FOLDER_FIELDS = `id name label folderType status tags parentId path thumbnailId hasChildren hasTasks allAttrib ownAttrib`;
const TASK_FIELDS = `id name label taskType status tags folderId path thumbnailId assignees allAttrib ownAttrib`;
const PAGE = 2000;

interface FolderNode {
  id: string;
  name: string;
  label: string | null;
  folderType: string;
  status: string;
  tags: string[];
  parentId: string | null;
  path: string;
  thumbnailId: string | null;
  hasChildren?: boolean;
  hasTasks?: boolean;
  allAttrib: string;
  ownAttrib: string[];
}

interface TaskNode {
  id: string;
  name: string;
  label: string | null;
  taskType: string;
  status: string;
  tags: string[];
  folderId: string;
  path: string;
  thumbnailId: string | null;
  assignees: string[];
  allAttrib: string;
  ownAttrib: string[];
}

function folderEntity(node: FolderNode): Entity {
  return {
    kind: 'folder',
    id: node.id,
    name: node.name,
    label: node.label,
    type: node.folderType,
    status: node.status,
    tags: node.tags,
    parentId: node.parentId,
    path: node.path,
    attrib: JSON.parse(node.allAttrib),
    ownAttrib: node.ownAttrib,
    thumbnailId: node.thumbnailId,
    hasChildren: node.hasChildren ?? false,
    hasTasks: node.hasTasks ?? false,
    assignees: [],
  };
}

function taskEntity(node: TaskNode): Entity {
  return {
    kind: 'task',
    id: node.id,
    name: node.name,
    label: node.label,
    type: node.taskType,
    status: node.status,
    tags: node.tags,
    parentId: node.folderId,
    path: node.path,
    attrib: JSON.parse(node.allAttrib),
    ownAttrib: node.ownAttrib,
    thumbnailId: node.thumbnailId,
    hasChildren: false,
    hasTasks: false,
    assignees: node.assignees,
  };
}

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

export class ProjectStore {
  readonly entities = new Map<string, Entity>();
  readonly children = new Map<string, ChildList>();
  full: FullLoad = { state: 'idle', count: 0 };
  version = 0;
  private listeners = new Set<() => void>();

  constructor(
    private readonly client: PipewrightClient,
    readonly project: string,
  ) {}

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  private changed() {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  private async page<N>(
    connection: 'folders' | 'tasks',
    fields: string,
    args: string,
    variables: Record<string, unknown>,
    onPage: (nodes: N[]) => void,
  ): Promise<void> {
    const declared = Object.keys(variables)
      .map((name) => `$${name}: ${name === 'parents' || name === 'ids' ? '[String!]' : 'String'}`)
      .join(', ');
    const query = `query Page($project: String!, $after: String${declared ? `, ${declared}` : ''}) {
      project(name: $project) { ${connection}(first: ${PAGE}, after: $after${args ? `, ${args}` : ''}) {
        edges { node { ${fields} } } pageInfo { hasNextPage endCursor } } } }`;
    const nodes = this.client.paginate<N>(query, { project: this.project, ...variables }, [
      'project',
      connection,
    ]);
    // Handed over a page at a time, so the screen can show the first pages while the rest arrive.
    let page: N[] = [];
    for await (const node of nodes) {
      page.push(node);
      if (page.length === PAGE) {
        onPage(page);
        page = [];
      }
    }
    if (page.length > 0) onPage(page);
  }

  /** Read a folder's children (ROOT: the top level) unless they were read already (or force). */
  async loadChildren(parent: string, force = false): Promise<void> {
    const known = this.children.get(parent);
    if (known && !force && known.state !== 'error') return;
    const list: ChildList = { state: 'loading', folders: known?.folders ?? [], tasks: known?.tasks ?? [] };
    this.children.set(parent, list);
    this.changed();
    const folders: string[] = [];
    const tasks: string[] = [];
    try {
      await this.page<FolderNode>(
        'folders',
        FOLDER_FIELDS,
        'parentIds: $parents',
        { parents: [parent] },
        (nodes) => {
          for (const node of nodes) {
            this.entities.set(node.id, folderEntity(node));
            folders.push(node.id);
          }
          // Show the first pages while the rest arrive: a big level does not wait for its last folder.
          this.children.set(parent, { ...list, folders: [...folders] });
          this.changed();
        },
      );
      if (parent !== ROOT)
        await this.page<TaskNode>(
          'tasks',
          TASK_FIELDS,
          'folderIds: $parents',
          { parents: [parent] },
          (nodes) => {
            for (const node of nodes) {
              this.entities.set(node.id, taskEntity(node));
              tasks.push(node.id);
            }
          },
        );
      this.children.set(parent, { state: 'loaded', folders, tasks });
    } catch (failure) {
      this.children.set(parent, { state: 'error', folders, tasks, error: messageOf(failure) });
    }
    this.changed();
  }

  /** Read every folder and task of the project (for filters and groupings across the whole project). */
  async loadAll(force = false): Promise<void> {
    if (!force && (this.full.state === 'loading' || this.full.state === 'loaded')) return;
    this.full = { state: 'loading', count: 0 };
    this.changed();
    const read: Entity[] = [];
    try {
      const collect = (nodes: Entity[]) => {
        read.push(...nodes);
        this.full = { state: 'loading', count: read.length };
        this.changed();
      };
      await this.page<FolderNode>('folders', FOLDER_FIELDS, '', {}, (nodes) =>
        collect(nodes.map(folderEntity)),
      );
      await this.page<TaskNode>('tasks', TASK_FIELDS, '', {}, (nodes) => collect(nodes.map(taskEntity)));
      // Everything is known now, so every folder's children are too: opening folders no longer waits.
      const lists = new Map<string, ChildList>();
      const listOf = (key: string) => {
        let list = lists.get(key);
        if (!list) lists.set(key, (list = { state: 'loaded', folders: [], tasks: [] }));
        return list;
      };
      for (const entity of read) {
        this.entities.set(entity.id, entity);
        if (entity.kind === 'folder') listOf(entity.parentId ?? ROOT).folders.push(entity.id);
        else listOf(entity.parentId!).tasks.push(entity.id);
      }
      for (const entity of read) if (entity.kind === 'folder') listOf(entity.id);
      listOf(ROOT);
      this.children.clear();
      for (const [key, list] of lists) this.children.set(key, list);
      this.full = { state: 'loaded', count: read.length };
    } catch (failure) {
      this.full = { state: 'error', count: read.length, error: messageOf(failure) };
    }
    this.changed();
  }

  /** The project-wide index may be out of date: the next filter or grouping reads it again. */
  forgetIndex(): void {
    if (this.full.state === 'loaded') this.full = { state: 'idle', count: 0 };
  }

  /** Read these entities again (after an edit: their values, and what their descendants inherit, changed). */
  async refresh(ids: { folders: string[]; tasks: string[] }): Promise<void> {
    const chunks = <T>(list: T[]) =>
      Array.from({ length: Math.ceil(list.length / PAGE) }, (_, i) => list.slice(i * PAGE, (i + 1) * PAGE));
    for (const chunk of chunks(ids.folders))
      await this.page<FolderNode>('folders', FOLDER_FIELDS, 'ids: $ids', { ids: chunk }, (nodes) => {
        for (const node of nodes) this.entities.set(node.id, folderEntity(node));
      });
    for (const chunk of chunks(ids.tasks))
      await this.page<TaskNode>('tasks', TASK_FIELDS, 'ids: $ids', { ids: chunk }, (nodes) => {
        for (const node of nodes) this.entities.set(node.id, taskEntity(node));
      });
    this.changed();
  }

  /**
   * A folder or task and the folders above it, from the top down, read from the server when not known yet (a
   * link to an entity of a level nobody opened); null when it does not exist or the user may not see it.
   */
  async locate(kind: Entity['kind'], id: string): Promise<Entity[] | null> {
    const known = async (k: Entity['kind'], entityId: string) => {
      if (!this.entities.has(entityId))
        await this.refresh(
          k === 'folder' ? { folders: [entityId], tasks: [] } : { folders: [], tasks: [entityId] },
        );
      return this.entities.get(entityId) ?? null;
    };
    let entity = await known(kind, id);
    if (!entity || entity.kind !== kind) return null;
    const chain = [entity];
    while (entity.parentId) {
      const parent: Entity | null = await known('folder', entity.parentId);
      if (!parent) break;
      chain.unshift(parent);
      entity = parent;
    }
    return chain;
  }

  /** The entity and every loaded entity below it: the ones whose inherited values follow an edit of it. */
  subtree(entity: Entity): { folders: string[]; tasks: string[] } {
    const folders: string[] = [];
    const tasks: string[] = [];
    const walk = (id: string, kind: Entity['kind']) => {
      if (kind === 'task') return void tasks.push(id);
      folders.push(id);
      const list = this.children.get(id);
      if (!list) return;
      for (const child of list.folders) walk(child, 'folder');
      for (const child of list.tasks) walk(child, 'task');
    };
    walk(entity.id, entity.kind);
    return { folders, tasks };
  }

  /** Apply a change locally at once (the server's answer follows through refresh). */
  patch(id: string, change: Partial<Entity>): void {
    const entity = this.entities.get(id);
    if (!entity) return;
    this.entities.set(id, { ...entity, ...change });
    this.changed();
  }

  /**
   * After a rename, move or delete (or their undo): what is gone leaves the store, what moved leaves its old
   * level at once (so it never shows twice while the levels are read), and the changed levels are read again.
   */
  async reread(levels: string[], moved: string[], gone: string[]): Promise<void> {
    const leaving = new Set([...moved, ...gone]);
    for (const [key, list] of this.children)
      if (list.folders.some((id) => leaving.has(id)) || list.tasks.some((id) => leaving.has(id)))
        this.children.set(key, {
          ...list,
          folders: list.folders.filter((id) => !leaving.has(id)),
          tasks: list.tasks.filter((id) => !leaving.has(id)),
        });
    for (const id of gone) {
      this.entities.delete(id);
      this.children.delete(id);
    }
    this.forgetIndex();
    this.changed();
    await Promise.all(
      [...new Set(levels)]
        .filter((key) => !leaving.has(key) || moved.includes(key))
        .map((key) => this.loadChildren(key, true)),
    );
    // A moved or renamed entity's own row (path, name) is read again even when its new level is not open.
    const still = moved.filter((id) => this.entities.has(id));
    const kinds = {
      folders: still.filter((id) => this.entities.get(id)!.kind === 'folder'),
      tasks: still.filter((id) => this.entities.get(id)!.kind === 'task'),
    };
    if (still.length) await this.refresh(kinds);
  }

  /** After a create: the parent now has children; read its list again so the new entity shows. */
  async created(parent: string, kind: Entity['kind']): Promise<void> {
    const folder = this.entities.get(parent);
    if (folder)
      this.entities.set(parent, {
        ...folder,
        ...(kind === 'folder' ? { hasChildren: true } : { hasTasks: true }),
      });
    // The project-wide index misses the new entity: the next filter reads it again.
    this.forgetIndex();
    await this.loadChildren(parent, true);
  }
}
