import type { EventBus } from '@pipewright/sdk';

// Whole-project hierarchies kept in memory (a 100,000-folder tree is about 20 MB of JSON): the least recently
// used projects beyond this are dropped.
const MAX_PROJECTS = 8;

// The changes a tree shows: folders' names, labels, statuses, types, places and activity, and task names. Attribute,
// tag, data, thumbnail and assignee changes, and task statuses (most of a studio's day), keep it. Every project
// change drops it: renaming a status or a folder type carries over to the folders.
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
export const changesTree = (topic: string): boolean =>
  TREE_TOPICS.has(topic) || topic.startsWith('entity.project.');

/**
 * The serialised folder hierarchy of each project, as the unrestricted, unfiltered request answers it. An event that
 * changes what the tree shows (from this process or, through Redis, from another) drops the project's entry; a
 * build that read the tree before such an event is not stored.
 */
export class HierarchyCache<Body> {
  private readonly entries = new Map<string, Body>();
  private readonly generations = new Map<string, number>();

  constructor(events: EventBus) {
    events.subscribe('entity.*', (message) => {
      if (message.project && changesTree(message.topic)) this.forget(message.project);
    });
  }

  async get(projectName: string, build: () => Promise<Body>): Promise<Body> {
    const key = projectName.toLowerCase();
    const cached = this.entries.get(key);
    if (cached !== undefined) {
      // Refresh its place in the eviction order.
      this.entries.delete(key);
      this.entries.set(key, cached);
      return cached;
    }
    const generation = this.generations.get(key) ?? 0;
    const body = await build();
    if ((this.generations.get(key) ?? 0) === generation) {
      this.entries.set(key, body);
      if (this.entries.size > MAX_PROJECTS) this.entries.delete(this.entries.keys().next().value!);
    }
    return body;
  }

  /** Drop a project's tree: what it shows changed. */
  forget(projectName: string): void {
    const key = projectName.toLowerCase();
    this.entries.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }
}
