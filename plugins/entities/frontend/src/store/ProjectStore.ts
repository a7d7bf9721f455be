import type { LiveEvent, PipewrightClient } from '@pipewright/sdk/client';
import { messageOf } from '@pipewright/sdk/ui';
import { parentKey, ROOT, type Entity } from '../model';
import { EntityCache } from './cache';
import { everyLevel, type ChildList } from './levels';
import {
  ALL_FOLDER_FIELDS,
  FOLDER_FIELDS,
  folderEntity,
  TASK_FIELDS,
  taskEntity,
  type FolderNode,
  type TaskNode,
} from './nodes';
import { readByIds, readPages, type PageQuery } from './pages';

// The project's folders and tasks, read as the screen needs them. Children are read when a folder is first opened
// (the tree and the grid share what was read), and the whole project only when a filter or a grouping needs it.

/** Event topics whose summary carries the new value of one field, so nothing needs to be read again. */
const CARRIED: Record<string, keyof Entity> = {
  status_changed: 'status',
  assignees_changed: 'assignees',
  label_changed: 'label',
  tags_changed: 'tags',
  type_changed: 'type',
  thumbnail_changed: 'thumbnailId',
};

export class ProjectStore extends EntityCache {
  constructor(
    private readonly client: PipewrightClient,
    readonly project: string,
  ) {
    super();
  }

  private page<N>(...query: PageQuery<N>): Promise<void> {
    return readPages(this.client, this.project, ...query);
  }

  /** Read folders and tasks by id, each handed over as an entity. */
  private async readIds(ids: { folders: string[]; tasks: string[] }, each: (entity: Entity) => void) {
    await readByIds<FolderNode>(this.client, this.project, 'folders', FOLDER_FIELDS, ids.folders, (nodes) =>
      nodes.forEach((node) => each(folderEntity(node))),
    );
    await readByIds<TaskNode>(this.client, this.project, 'tasks', TASK_FIELDS, ids.tasks, (nodes) =>
      nodes.forEach((node) => each(taskEntity(node))),
    );
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
    const keepIn = (ids: string[]) => (entity: Entity) => {
      this.keep(entity, started);
      ids.push(entity.id);
    };
    try {
      await this.page<FolderNode>(
        'folders',
        FOLDER_FIELDS,
        'parentIds: $parents',
        { parents: [parent] },
        (nodes) => {
          nodes.map(folderEntity).forEach(keepIn(folders));
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
          (nodes) => nodes.map(taskEntity).forEach(keepIn(tasks)),
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
      const { lists, corrected } = everyLevel(this.afterRead(read, started));
      for (const entity of corrected) this.entities.set(entity.id, entity);
      this.children.clear();
      for (const [key, list] of lists) this.children.set(key, list);
      this.full = { state: 'loaded', count: read.length };
    } catch (failure) {
      this.full = { state: 'error', count: read.length, error: messageOf(failure) };
    }
    this.changed();
  }

  /** What a read found as the store holds it now: what live news changed while it was read is newer, and wins. */
  private afterRead(read: Entity[], started: number): Entity[] {
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
    return current;
  }

  /** Read these entities again (after an edit: their values, and what their descendants inherit, changed). */
  async refresh(ids: { folders: string[]; tasks: string[] }): Promise<void> {
    await this.readIds(ids, (entity) => this.entities.set(entity.id, entity));
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

  /**
   * After a rename, move or delete (or their undo): what is gone leaves the store, what moved leaves its old
   * level at once (so it never shows twice while the levels are read), and the changed levels are read again.
   */
  async reread(levels: string[], moved: string[], gone: string[]): Promise<void> {
    const leaving = this.takeOut(moved, gone);
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
    this.gainedChild(parent, kind);
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
        this.gainedChild(parent, kind);
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
      await this.readIds({ folders: [...reread.folder], tasks: [...reread.task] }, (entity) => {
        found.add(entity.id);
        this.keep(entity, started);
      });
      // Not found: deleted since, or no longer visible to this user.
      this.dropAll(wanted.filter((id) => !found.has(id)));
      this.placeAll(wanted.filter((id) => found.has(id)).map((id) => ({ id, from: before.get(id) ?? null })));
    }
    this.changed();
  }
}
