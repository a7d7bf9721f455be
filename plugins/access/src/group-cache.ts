import type { AddonContext, Database, Permissions } from '@pipewright/sdk';
import { readGroups } from './group-store.js';
import { STUDIO } from './migrations.js';
import { completePermissions } from './permissions.js';

/** Studio groups by name, and each project's own versions of them (project key in lower case). */
export interface GroupTable {
  studio: Map<string, Permissions>;
  projects: Map<string, Map<string, Permissions>>;
  loadedAt: number;
}

// Other processes drop their copy on the access_group.* events; this is only the net under a lost message.
const CACHE_LIFETIME_MS = 60_000;

/** A group as it applies in a project: the project's own version if it has one, else the studio's. */
export function groupIn(table: GroupTable, name: string, projectName: string): Permissions | undefined {
  return table.projects.get(projectName.toLowerCase())?.get(name) ?? table.studio.get(name);
}

/** The groups of this process, read whole from the database and kept until a change or their lifetime ends. */
export class GroupCache {
  /** The last table read; once there is one, questions never wait for the database (see table()). */
  private current: GroupTable | null = null;
  private reading: Promise<GroupTable> | null = null;
  private stale = true;
  // Reads are numbered: a read that started later saw the table at least as new, so only it may replace one.
  private started = 0;
  private applied = 0;

  constructor(
    private readonly db: Database,
    private readonly log: AddonContext['log'],
  ) {}

  /** Mark the cached groups out of date; they are read again in the background. */
  forget(): void {
    this.stale = true;
    // A read already under way may have started before the change: its answer must not count.
    this.reading = null;
    this.refreshBeside();
  }

  /** Read the groups now and make them the cached table (setup, and after this process changed them). */
  refresh(): Promise<GroupTable> {
    if (!this.reading) {
      this.stale = false;
      const number = ++this.started;
      const reading: Promise<GroupTable> = this.load().then(
        (table) => {
          if (number > this.applied) {
            this.current = table;
            this.applied = number;
          }
          if (this.reading === reading) this.reading = null;
          return table;
        },
        (error) => {
          if (this.reading === reading) {
            this.reading = null;
            this.stale = true;
          }
          throw error;
        },
      );
      this.reading = reading;
    }
    return this.reading;
  }

  // The entities addon asks for folder scopes inside its write transactions. On PGlite (one connection) a read
  // here would wait for that very transaction, so once a table exists it is answered at once, even when a newer
  // one is being read; only the first question ever waits.
  async table(): Promise<GroupTable> {
    if (!this.current) return this.refresh();
    if (this.stale || Date.now() - this.current.loadedAt > CACHE_LIFETIME_MS) this.refreshBeside();
    return this.current;
  }

  /** After a change made here: read the groups again and wait for them. */
  reload(): Promise<GroupTable> {
    this.reading = null;
    return this.refresh();
  }

  private refreshBeside(): void {
    this.refresh().catch((error) => this.log.error({ err: error }, 'could not reload access groups'));
  }

  private async load(): Promise<GroupTable> {
    const rows = await readGroups(this.db);
    const table: GroupTable = { studio: new Map(), projects: new Map(), loadedAt: Date.now() };
    for (const row of rows) {
      const permissions = completePermissions(row.data);
      if (row.project_name === STUDIO) {
        table.studio.set(row.name, permissions);
        continue;
      }
      const key = (row.project_name as string).toLowerCase();
      if (!table.projects.has(key)) table.projects.set(key, new Map());
      table.projects.get(key)!.set(row.name, permissions);
    }
    return table;
  }
}
