import type { EventBus } from '@pipewright/sdk';
import { FolderTree } from './hierarchy.js';
import type { RowChange } from '../write/batch.js';

// Whole-project trees kept in memory (100,000 folders take about 40 MB with their answer): the least recently
// used projects beyond this are dropped.
const MAX_PROJECTS = 8;

// The changes a tree shows, by the topics of their events (how another process's changes reach this one): folders'
// names, labels, statuses, types, places and activity, and task names. Attribute, tag, data, thumbnail and assignee
// changes, and task statuses (most of a studio's day), keep it. Every project change drops it: renaming a status or
// a folder type carries over to the folders.
const TREE_TOPICS = new Set([
  'entity.folder.created',
  'entity.folder.deleted',
  'entity.folder.renamed',
  'entity.folder.label_changed',
  'entity.folder.status_changed',
  'entity.folder.type_changed',
  'entity.folder.parent_changed',
  'entity.folder.active_changed',
  'entity.task.created',
  'entity.task.deleted',
  'entity.task.renamed',
  'entity.task.folder_changed',
]);

/** Whether an event with this topic changes what a project's hierarchy shows. */
const changesTree = (topic: string): boolean => TREE_TOPICS.has(topic) || topic.startsWith('entity.project.');

/**
 * The folder tree of each project, as a reader who sees all of it gets it. The rows this process commits are
 * applied to it (committed); a change made by another process (its event, through Redis) or to the project itself
 * drops it, and the next reader reads it again. A read that began before a change is not kept.
 */
export class HierarchyCache {
  private readonly entries = new Map<string, FolderTree>();
  /** Per project, bumped by each change not applied to a kept tree; a project never changed here has none. */
  private readonly generations = new Map<string, number>();

  constructor(events: EventBus) {
    events.subscribe('entity.*', (message, remote) => {
      const project = message.project;
      if (!project) return;
      // A project created here has no folders yet: its tree starts empty, and an import into it needs no read.
      if (!remote && message.topic === 'entity.project.created') this.startEmpty(project);
      // Entity changes made here were applied as they committed.
      else if (remote ? changesTree(message.topic) : message.topic.startsWith('entity.project.'))
        this.forget(project);
    });
  }

  async get(projectName: string, read: () => Promise<FolderTree>): Promise<FolderTree> {
    const key = projectName.toLowerCase();
    const kept = this.entries.get(key);
    if (kept) {
      // Refresh its place in the eviction order.
      this.entries.delete(key);
      this.entries.set(key, kept);
      return kept;
    }
    const generation = this.generations.get(key) ?? 0;
    const tree = await read();
    if ((this.generations.get(key) ?? 0) === generation) this.keep(key, tree);
    return tree;
  }

  /** Rows a transaction of this process committed in a project, told before anyone can read them. */
  committed(projectName: string, changes: readonly RowChange[]): void {
    const key = projectName.toLowerCase();
    const kept = this.entries.get(key);
    if (!kept || !kept.apply(changes)) this.forget(projectName);
  }

  /** Drop a project's tree: what it shows changed. */
  forget(projectName: string): void {
    const key = projectName.toLowerCase();
    this.entries.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }

  private startEmpty(projectName: string): void {
    const key = projectName.toLowerCase();
    // Unless something already happened to a project of that name here (its rows were created before this event
    // came, or it was deleted and created again): then only a read knows.
    if (!this.entries.has(key) && !this.generations.has(key)) this.keep(key, new FolderTree());
  }

  private keep(key: string, tree: FolderTree): void {
    this.entries.set(key, tree);
    if (this.entries.size > MAX_PROJECTS) this.entries.delete(this.entries.keys().next().value!);
  }
}
