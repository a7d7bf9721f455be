import type { PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import type { LiveEvent } from '@pipewright/sdk/client';
import { parentKey, ROOT, type Entity } from './model';

// The project's folders and tasks as far as the screen has read them. Children are read when a folder is first
// opened (the tree and the grid share what was read), and the whole project only when a filter or a grouping
// needs it. Components subscribe and re-render when the version number moves.

const FOLDER_FIELDS = `id name label folderType status tags parentId path thumbnailId hasChildren hasTasks allAttrib ownAttrib`;
// The whole project's folders without hasChildren and hasTasks: the lists built from the read tell those, and the
// server answers a third faster without them.
const ALL_FOLDER_FIELDS = FOLDER_FIELDS.replace(' hasChildren hasTasks', '');
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
  /** Counts live changes; a level read remembers where it stood when it started. */
  private seq = 0;
  /** When (in seq) live news last touched an entity: a read that started before that must not undo it. */
  private readonly touched = new Map<string, number>();

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
    const started = this.seq;
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
            this.keep(folderEntity(node), started);
            folders.push(node.id);
          }
          // Show the first pages while the rest arrive: a big level does not wait for its last folder.
          this.children.set(parent, this.settle(parent, started, 'loading', folders, list.tasks));
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
              this.keep(taskEntity(node), started);
              tasks.push(node.id);
            }
          },
        );
      this.children.set(parent, this.settle(parent, started, 'loaded', folders, tasks));
    } catch (failure) {
      this.children.set(parent, {
        ...this.settle(parent, started, 'error', folders, tasks),
        error: messageOf(failure),
      });
    }
    this.changed();
  }

  /** Store what a read found, unless live news about the entity arrived after the read started. */
  private keep(entity: Entity, started: number): void {
    if ((this.touched.get(entity.id) ?? -1) <= started) this.entities.set(entity.id, entity);
  }

  /**
   * A level's list as a read that started at `started` found it, reconciled with the live news since: entities
   * that left it or were deleted meanwhile go, ones that arrived meanwhile stay; each id once.
   */
  private settle(
    parent: string,
    started: number,
    state: ChildList['state'],
    folders: string[],
    tasks: string[],
  ): ChildList {
    const current = this.children.get(parent);
    const belongs = (id: string) => {
      const entity = this.entities.get(id);
      return !!entity && parentKey(entity) === parent;
    };
    const fresh = (id: string) => (this.touched.get(id) ?? -1) > started;
    const merge = (read: string[], now: string[]) => [
      ...new Set([
        ...read.filter((id) => !fresh(id) || belongs(id)),
        ...now.filter((id) => fresh(id) && belongs(id)),
      ]),
    ];
    return {
      state,
      folders: merge(folders, current?.folders ?? []),
      tasks: merge(tasks, current?.tasks ?? []),
    };
  }

  /** Read every folder and task of the project (for filters and groupings across the whole project). */
  async loadAll(force = false): Promise<void> {
    if (!force && (this.full.state === 'loading' || this.full.state === 'loaded')) return;
    this.full = { state: 'loading', count: 0 };
    this.changed();
    const started = this.seq;
    const read: Entity[] = [];
    try {
      const collect = (nodes: Entity[]) => {
        read.push(...nodes);
        // Kept as they arrive, so a filter lists the matches read so far while the rest loads; a folder keeps
        // what a level read said of its children until the lists below are built.
        for (const entity of nodes) {
          const known = this.entities.get(entity.id);
          if (known?.kind === 'folder')
            this.keep({ ...entity, hasChildren: known.hasChildren, hasTasks: known.hasTasks }, started);
          else this.keep(entity, started);
        }
        this.full = { state: 'loading', count: read.length };
        this.changed();
      };
      // Folders and tasks are read side by side: the server answers two requests at once nearly as fast as one.
      await Promise.all([
        this.page<FolderNode>('folders', ALL_FOLDER_FIELDS, '', {}, (nodes) =>
          collect(nodes.map(folderEntity)),
        ),
        this.page<TaskNode>('tasks', TASK_FIELDS, '', {}, (nodes) => collect(nodes.map(taskEntity))),
      ]);
      // Everything is known now, so every folder's children are too: opening folders no longer waits.
      const lists = new Map<string, ChildList>();
      const listOf = (key: string) => {
        let list = lists.get(key);
        if (!list) lists.set(key, (list = { state: 'loaded', folders: [], tasks: [] }));
        return list;
      };
      // What live news changed while the project was read is newer than the read: it wins.
      const seen = new Set<string>();
      const current: Entity[] = [];
      for (const entity of read) {
        if (seen.has(entity.id)) continue;
        seen.add(entity.id);
        const now = this.entities.get(entity.id);
        if (now) current.push(now);
      }
      for (const [id, time] of this.touched)
        if (time > started && !seen.has(id) && this.entities.has(id)) current.push(this.entities.get(id)!);
      for (const entity of current) {
        if (entity.kind === 'folder') listOf(entity.parentId ?? ROOT).folders.push(entity.id);
        else listOf(entity.parentId!).tasks.push(entity.id);
      }
      for (const entity of current)
        if (entity.kind === 'folder') {
          const list = listOf(entity.id);
          const hasChildren = list.folders.length > 0;
          const hasTasks = list.tasks.length > 0;
          if (entity.hasChildren !== hasChildren || entity.hasTasks !== hasTasks)
            this.entities.set(entity.id, { ...entity, hasChildren, hasTasks });
        }
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
    // The level read again brings the new entity into the project-wide index too: it stays, so the next filter
    // on a big project does not read everything again.
    await this.loadChildren(parent, true);
  }
  /** Read every level read so far again (and the whole project if it was read): after a reconnect or Refresh. */
  async reloadEverything(): Promise<void> {
    const reads = [...this.children.keys()].map((key) => this.loadChildren(key, true));
    if (this.full.state === 'loaded' || this.full.state === 'error') reads.push(this.loadAll(true));
    await Promise.all(reads);
  }

  /**
   * Apply a burst of the server's entity events (another user's creates, edits, moves, deletes) as one change:
   * fields an event carries are set at once, what needs the server's word (inherited values, new paths) is read
   * again in one request per kind, and only entities that would show are read. Applying news twice, or news a read
   * already saw, changes nothing: every level lists an entity at most once, in the level it now belongs to.
   */
  async applyNews(events: LiveEvent[]): Promise<void> {
    const reread = { folder: new Set<string>(), task: new Set<string>() };
    const before = new Map<string, string | null>();
    const deleted: string[] = [];
    for (const event of events) {
      const [, kind, action] = event.topic.split('.');
      const id = event.summary.entityId;
      if ((kind !== 'folder' && kind !== 'task') || typeof id !== 'string' || !action) continue;
      const known = this.entities.get(id);
      this.touched.set(id, ++this.seq);
      if (!before.has(id)) before.set(id, known ? parentKey(known) : null);
      if (action === 'deleted') {
        deleted.push(id);
        reread[kind].delete(id);
        continue;
      }
      if (action === 'created') {
        const parent = (event.summary.parentId as string | null | undefined) ?? ROOT;
        const folder = this.entities.get(parent);
        if (folder)
          this.entities.set(parent, {
            ...folder,
            ...(kind === 'folder' ? { hasChildren: true } : { hasTasks: true }),
          });
        // Worth reading only when it would show: its level is read, or the whole project is.
        if (this.children.has(parent) || this.full.state !== 'idle') reread[kind].add(id);
        continue;
      }
      if (!known) continue;
      const field = CARRIED[action];
      if (field && 'value' in event.summary) {
        this.entities.set(id, { ...known, [field]: event.summary.value });
        continue;
      }
      // Attributes pass down and names and moves change paths below: the entity and its loaded subtree.
      const below = this.subtree(known);
      below.folders.forEach((f) => reread.folder.add(f));
      below.tasks.forEach((t) => reread.task.add(t));
    }
    this.dropAll(deleted);
    const started = this.seq;
    const wanted = [...reread.folder, ...reread.task];
    if (wanted.length) {
      const found = new Set<string>();
      const read = async (kind: 'folders' | 'tasks', list: string[]) => {
        for (let i = 0; i < list.length; i += PAGE)
          await this.page<FolderNode & TaskNode>(
            kind,
            kind === 'folders' ? FOLDER_FIELDS : TASK_FIELDS,
            'ids: $ids',
            { ids: list.slice(i, i + PAGE) },
            (nodes) => {
              for (const node of nodes) {
                found.add(node.id);
                this.keep(kind === 'folders' ? folderEntity(node) : taskEntity(node), started);
              }
            },
          );
      };
      await read('folders', [...reread.folder]);
      await read('tasks', [...reread.task]);
      // Not found: deleted since, or no longer visible to this user.
      this.dropAll(wanted.filter((id) => !found.has(id)));
      this.placeAll(wanted.filter((id) => found.has(id)).map((id) => ({ id, from: before.get(id) ?? null })));
    }
    this.changed();
  }

  /**
   * Put entities in the lists of the levels they belong to now (where those levels are read), out of their old ones.
   * Each list changed is rebuilt once: a burst of thousands into a level of thousands stays linear.
   */
  private placeAll(moves: { id: string; from: string | null }[]): void {
    const leaving = new Map<string, Set<string>>();
    const arriving = new Map<string, Entity[]>();
    for (const { id, from } of moves) {
      const entity = this.entities.get(id);
      if (!entity) continue;
      const to = parentKey(entity);
      if (from !== null && from !== to) groupIn(leaving, from, id);
      if (this.children.has(to)) {
        const list = arriving.get(to);
        if (list) list.push(entity);
        else arriving.set(to, [entity]);
      }
      // The new parent opens now, whether or not its level was read.
      const parent = this.entities.get(to);
      if (parent && !(entity.kind === 'folder' ? parent.hasChildren : parent.hasTasks))
        this.entities.set(to, {
          ...parent,
          ...(entity.kind === 'folder' ? { hasChildren: true } : { hasTasks: true }),
        });
    }
    this.withoutIds(leaving);
    for (const [key, entities] of arriving) {
      const list = this.children.get(key)!;
      const present = new Set([...list.folders, ...list.tasks]);
      const fresh = entities.filter((e) => !present.has(e.id));
      if (!fresh.length) continue;
      this.children.set(key, {
        ...list,
        folders: [...list.folders, ...fresh.filter((e) => e.kind === 'folder').map((e) => e.id)],
        tasks: [...list.tasks, ...fresh.filter((e) => e.kind === 'task').map((e) => e.id)],
      });
    }
  }

  /** Forget entities and what is known below them; each level they leave is rebuilt once. */
  private dropAll(ids: string[]): void {
    const leaving = new Map<string, Set<string>>();
    for (const id of ids) {
      const entity = this.entities.get(id);
      if (!entity) continue;
      const below = this.subtree(entity);
      for (const gone of [...below.folders, ...below.tasks]) {
        this.touched.set(gone, ++this.seq);
        this.entities.delete(gone);
        this.children.delete(gone);
      }
      groupIn(leaving, parentKey(entity), id);
    }
    this.withoutIds(leaving);
  }

  /** Take ids out of level lists, one pass per list. */
  private withoutIds(leaving: Map<string, Set<string>>): void {
    for (const [key, gone] of leaving) {
      const list = this.children.get(key);
      if (list)
        this.children.set(key, {
          ...list,
          folders: list.folders.filter((id) => !gone.has(id)),
          tasks: list.tasks.filter((id) => !gone.has(id)),
        });
    }
  }
}

function groupIn(groups: Map<string, Set<string>>, key: string, id: string): void {
  const group = groups.get(key);
  if (group) group.add(id);
  else groups.set(key, new Set([id]));
}

/** Event topics whose summary carries the new value of one field, so nothing needs to be read again. */
const CARRIED: Record<string, keyof Entity> = {
  status_changed: 'status',
  assignees_changed: 'assignees',
  label_changed: 'label',
  tags_changed: 'tags',
  type_changed: 'type',
  thumbnail_changed: 'thumbnailId',
};
