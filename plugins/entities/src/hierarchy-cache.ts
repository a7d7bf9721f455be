import type { EventBus } from '@pipewright/sdk';

// Whole-project hierarchies kept in memory (a 100,000-folder tree is about 15 MB of JSON): the least recently
// used projects beyond this are dropped.
const MAX_PROJECTS = 8;

/**
 * The serialised folder hierarchy of each project, as the unrestricted, unfiltered request answers it. Any event
 * about a folder, a task or the project (from this process or, through Redis, from another) drops the project's
 * entry; a build that read the tree before such an event is not stored.
 */
export class HierarchyCache {
  private readonly entries = new Map<string, string>();
  private readonly generations = new Map<string, number>();

  constructor(events: EventBus) {
    for (const pattern of ['entity.folder*', 'entity.task*', 'entity.project*']) {
      events.subscribe(pattern, (message) => {
        if (message.project) this.forget(message.project);
      });
    }
  }

  async get(projectName: string, build: () => Promise<string>): Promise<string> {
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

  /** Drop a project's tree: its folders or tasks changed. */
  forget(projectName: string): void {
    const key = projectName.toLowerCase();
    this.entries.delete(key);
    this.generations.set(key, (this.generations.get(key) ?? 0) + 1);
  }
}
