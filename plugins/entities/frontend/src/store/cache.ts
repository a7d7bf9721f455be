import { parentKey, type Entity } from '../model';
import { groupIn, without, withChild, type ChildList, type FullLoad } from './levels';

// The project's folders and tasks as far as the screen has read them, and the bookkeeping that keeps reads and live
// news from undoing each other. Components subscribe and re-render when the version number moves; ProjectStore
// (store/ProjectStore.ts) adds the reads.

export class EntityCache {
  readonly entities = new Map<string, Entity>();
  readonly children = new Map<string, ChildList>();
  full: FullLoad = { state: 'idle', count: 0 };
  version = 0;
  private listeners = new Set<() => void>();
  /** Counts live changes; a level read remembers where it stood when it started. */
  protected seq = 0;
  /** When (in seq) live news last touched an entity: a read that started before that must not undo it. */
  protected readonly touched = new Map<string, number>();

  subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getVersion = () => this.version;

  protected changed() {
    this.version++;
    for (const listener of this.listeners) listener();
  }

  /** Whether live news touched the entity after a read that started at `started`. */
  protected touchedSince(id: string, started: number): boolean {
    return (this.touched.get(id) ?? -1) > started;
  }

  /** Store what a read found, unless live news about the entity arrived after the read started. */
  protected keep(entity: Entity, started: number): void {
    if (!this.touchedSince(entity.id, started)) this.entities.set(entity.id, entity);
  }

  /**
   * A level's list as a read that started at `started` found it, reconciled with the live news since: entities
   * that left it or were deleted meanwhile go, ones that arrived meanwhile stay; each id once.
   */
  protected settle(
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
    const fresh = (id: string) => this.touchedSince(id, started);
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

  /** The project-wide index may be out of date: the next filter or grouping reads it again. */
  forgetIndex(): void {
    if (this.full.state === 'loaded') this.full = { state: 'idle', count: 0 };
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

  /** These entities and every loaded entity below them, each once. */
  subtrees(entities: Entity[]): { folders: string[]; tasks: string[] } {
    const ids = { folders: new Set<string>(), tasks: new Set<string>() };
    for (const entity of entities) {
      const below = this.subtree(entity);
      below.folders.forEach((id) => ids.folders.add(id));
      below.tasks.forEach((id) => ids.tasks.add(id));
    }
    return { folders: [...ids.folders], tasks: [...ids.tasks] };
  }

  /** Apply a change locally at once (the server's answer follows through refresh). */
  patch(id: string, change: Partial<Entity>): void {
    const entity = this.entities.get(id);
    if (!entity) return;
    this.entities.set(id, { ...entity, ...change });
    this.changed();
  }

  /** The folder (when known) now has a child of this kind. */
  protected gainedChild(parent: string, kind: Entity['kind']): void {
    const folder = this.entities.get(parent);
    if (folder) this.entities.set(parent, withChild(folder, kind));
  }

  /** What moved or is gone leaves the lists it stood in; what is gone leaves the store. */
  protected takeOut(moved: string[], gone: string[]): Set<string> {
    const leaving = new Set([...moved, ...gone]);
    for (const [key, list] of this.children)
      if (list.folders.some((id) => leaving.has(id)) || list.tasks.some((id) => leaving.has(id)))
        this.children.set(key, without(list, leaving));
    for (const id of gone) {
      this.entities.delete(id);
      this.children.delete(id);
    }
    return leaving;
  }

  /**
   * Put entities in the lists of the levels they belong to now (where those levels are read), out of their old ones.
   * Each list changed is rebuilt once: a burst of thousands into a level of thousands stays linear.
   */
  protected placeAll(moves: { id: string; from: string | null }[]): void {
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
        this.entities.set(to, withChild(parent, entity.kind));
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
  protected dropAll(ids: string[]): void {
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
      if (list) this.children.set(key, without(list, gone));
    }
  }
}
