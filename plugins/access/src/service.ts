import { sql } from 'kysely';
import {
  NotFound,
  isManagerOrAbove,
  type AccessControl,
  type AddonContext,
  type Database,
  type EventBus,
  type FolderAccessKind,
  type AttributeAccess,
  type FolderScope,
  type Permissions,
  type Problem,
  type ProjectDirectory,
  type RequestUser,
  type Sender,
  type UserDirectory,
  type UserRecord,
} from '@pipewright/sdk';
import { STUDIO } from './migrations.js';
import {
  FOLDER_KINDS,
  combinePermissions,
  completePermissions,
  unrestrictedPermissions,
  whitelistScope,
} from './permissions.js';

/** Studio groups by name, and each project's own versions of them (project key in lower case). */
interface GroupTable {
  studio: Map<string, Permissions>;
  projects: Map<string, Map<string, Permissions>>;
  loadedAt: number;
}

type GroupMap = Record<string, string[]>;

// Other processes drop their copy on the access_group.* events; this is only the net under a lost message.
const CACHE_LIFETIME_MS = 60_000;

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A user's project -> groups map, whatever is stored (non-list values are skipped). */
export function groupMapOf(value: unknown): GroupMap {
  if (!isObject(value)) return {};
  const map: GroupMap = {};
  for (const [project, groups] of Object.entries(value)) {
    if (Array.isArray(groups)) map[project] = groups.filter((g): g is string => typeof g === 'string');
  }
  return map;
}

/** The groups a map gives in a project; keys match regardless of case, and all matching keys count. */
export function groupsInProject(map: GroupMap, projectName: string): string[] {
  const names = Object.entries(map)
    .filter(([project]) => sameName(project, projectName))
    .flatMap(([, groups]) => groups);
  return [...new Set(names)];
}

/**
 * The data patch that sets a user's groups in some projects: the project's canonical name is the key, other
 * spellings of it are removed, and an empty list removes the project altogether. Null when nothing changes.
 */
export function accessGroupsPatch(
  current: GroupMap,
  changes: Map<string, string[]>,
): Record<string, string[] | null> | null {
  const patch: Record<string, string[] | null> = {};
  for (const [project, groups] of changes) {
    for (const key of Object.keys(current)) if (key !== project && sameName(key, project)) patch[key] = null;
    if (groups.length) patch[project] = [...new Set(groups)];
    else if (project in current) patch[project] = null;
  }
  return Object.keys(patch).length ? patch : null;
}

/** The request identity of a stored user, for questions asked about someone other than the caller. */
function identityOf(user: UserRecord): RequestUser {
  const flag = (key: string) => user.data[key] === true;
  return {
    name: user.name,
    isAdmin: flag('isAdmin'),
    isManager: flag('isManager'),
    isService: flag('isService'),
    isGuest: flag('isGuest'),
    accessGroups: groupMapOf(user.data.accessGroups),
    sessionId: null,
    isApiKey: false,
  };
}

export function userLevel(user: RequestUser): 'admin' | 'manager' | 'user' {
  if (user.isAdmin || user.isService) return 'admin';
  return user.isManager ? 'manager' : 'user';
}

export class AccessService implements AccessControl {
  /** The last table read; once there is one, questions never wait for the database (see groups). */
  private table: GroupTable | null = null;
  private reading: Promise<GroupTable> | null = null;
  private stale = true;
  // Reads are numbered: a read that started later saw the table at least as new, so only it may replace one.
  private started = 0;
  private applied = 0;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly projects: ProjectDirectory,
    private readonly users: UserDirectory,
    private readonly log: AddonContext['log'],
  ) {}

  /** Mark the cached groups out of date; they are read again in the background. */
  forget(): void {
    this.stale = true;
    // A read already under way may have started before the change: its answer must not count.
    this.reading = null;
    this.refresh().catch((error) => this.log.error({ err: error }, 'could not reload access groups'));
  }

  /** Read the groups now and make them the cached table (setup, and after this process changed them). */
  refresh(): Promise<GroupTable> {
    if (!this.reading) {
      this.stale = false;
      const number = ++this.started;
      const reading: Promise<GroupTable> = this.load().then(
        (table) => {
          if (number > this.applied) {
            this.table = table;
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
  private async groups(): Promise<GroupTable> {
    if (!this.table) return this.refresh();
    if (this.stale || Date.now() - this.table.loadedAt > CACHE_LIFETIME_MS) {
      this.refresh().catch((error) => this.log.error({ err: error }, 'could not reload access groups'));
    }
    return this.table;
  }

  /** After a change made here: read the groups again and wait for them. */
  private reload(): Promise<GroupTable> {
    this.reading = null;
    return this.refresh();
  }

  private async load(): Promise<GroupTable> {
    const rows = await this.db.selectFrom('access_groups').select(['name', 'project_name', 'data']).execute();
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

  /** A group as it applies in a project: the project's own version if it has one, else the studio's. */
  private resolve(table: GroupTable, name: string, projectName: string): Permissions | undefined {
    return table.projects.get(projectName.toLowerCase())?.get(name) ?? table.studio.get(name);
  }

  async permissions(caller: RequestUser, projectName: string): Promise<Permissions> {
    if (isManagerOrAbove(caller)) return unrestrictedPermissions();
    const table = await this.groups();
    const held = groupsInProject(groupMapOf(caller.accessGroups), projectName)
      .map((name) => this.resolve(table, name, projectName))
      .filter((group): group is Permissions => group !== undefined);
    return combinePermissions(held);
  }

  async folderScope(
    caller: RequestUser,
    projectName: string,
    kind: FolderAccessKind,
  ): Promise<FolderScope | null> {
    if (isManagerOrAbove(caller)) return null;
    const permissions = await this.permissions(caller, projectName);
    const scope = whitelistScope(permissions[kind]);
    if (scope && kind === 'read' && !permissions.advanced.show_sibling_tasks) scope.ownTasksOnly = true;
    return scope;
  }

  async attributeAccess(caller: RequestUser, projectName: string): Promise<AttributeAccess | null> {
    if (isManagerOrAbove(caller)) return null;
    const { attrib_read: read, attrib_write: write } = await this.permissions(caller, projectName);
    if (!read.enabled && !write.enabled) return null;
    return {
      read: read.enabled ? read.attributes : null,
      write: write.enabled ? { attributes: write.attributes, fields: write.fields } : null,
    };
  }

  /**
   * What a user may do outside any project, as AYON reckons it: what the studio versions of the groups in the
   * user's defaultAccessGroups grant, not the groups they hold in some project (a project lead is not thereby allowed
   * to list every user of the studio). Managers and administrators may do everything.
   */
  async defaultPermissions(user: RequestUser): Promise<Permissions> {
    if (isManagerOrAbove(user)) return unrestrictedPermissions();
    const record = await this.users.get(user.name);
    const defaults = record?.data.defaultAccessGroups;
    const table = await this.groups();
    const held = (Array.isArray(defaults) ? defaults : [])
      .map((name) => (typeof name === 'string' ? table.studio.get(name) : undefined))
      .filter((group): group is Permissions => group !== undefined);
    return combinePermissions(held);
  }

  /** What a user may do studio-wide (list_all_users, create_projects). */
  async studioPermissions(user: RequestUser): Promise<Permissions['studio']> {
    return (await this.defaultPermissions(user)).studio;
  }

  /** What GET /api/users/{name}/permissions answers, as in AYON: the user's permissions outside any project. */
  async defaultPermissionsOf(userName: string): Promise<Permissions> {
    return this.defaultPermissions(identityOf(await this.requireUser(userName)));
  }

  /** What GET /api/users/{name}/permissions answers: the user's level, studio permissions, and every project's. */
  async userPermissions(user: RequestUser) {
    const names = await this.projects.visibleNames(user);
    const projects: Record<string, Permissions> = {};
    for (const name of names) projects[name] = await this.permissions(user, name);
    return { user_level: userLevel(user), studio: await this.studioPermissions(user), projects };
  }

  async projectPermissionsOf(userName: string, projectName: string): Promise<Permissions> {
    return this.permissions(identityOf(await this.requireUser(userName)), projectName);
  }

  // ---- groups -------------------------------------------------------------------------------------------------

  /** The groups one can use at a level: studio groups, and for a project also the groups only it defines. */
  async listGroups(level: string): Promise<{ name: string; isProjectLevel: boolean }[]> {
    const table = await this.groups();
    const own =
      level === STUDIO
        ? new Map<string, Permissions>()
        : (table.projects.get(level.toLowerCase()) ?? new Map());
    const names = [...new Set([...table.studio.keys(), ...own.keys()])].sort();
    return names.map((name) => ({ name, isProjectLevel: own.has(name) }));
  }

  async getGroup(name: string, level: string): Promise<Permissions> {
    const table = await this.groups();
    const group = level === STUDIO ? table.studio.get(name) : this.resolve(table, name, level);
    if (!group)
      throw new NotFound(`Access group ${name} not found${level === STUDIO ? '' : ` in project ${level}`}`);
    return group;
  }

  /** Create or replace a group at a level; answers true when it is new there. */
  async saveGroup(
    name: string,
    level: string,
    permissions: Permissions,
    actor: string,
    sender: Sender,
  ): Promise<boolean> {
    const data = JSON.stringify(permissions);
    const row = await this.db.transaction().execute(async () => {
      const written = await this.db
        .insertInto('access_groups')
        .values({ name, project_name: level, data })
        .onConflict((conflict) =>
          conflict.columns(['name', 'project_name']).doUpdateSet({ data, updated_at: sql`now()` }),
        )
        .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
        .executeTakeFirstOrThrow();
      await this.announce('access_group.updated', name, level, actor, sender);
      return written;
    });
    await this.reload();
    return row.inserted;
  }

  async deleteGroup(name: string, level: string, actor: string, sender: Sender): Promise<void> {
    await this.db.transaction().execute(async () => {
      const deleted = await this.db
        .deleteFrom('access_groups')
        .where('name', '=', name)
        .where('project_name', '=', level)
        .executeTakeFirst();
      if (Number(deleted.numDeletedRows) === 0) {
        throw new NotFound(`Access group ${name} not found${level === STUDIO ? '' : ` in project ${level}`}`);
      }
      await this.announce('access_group.deleted', name, level, actor, sender);
    });
    await this.reload();
  }

  /** A deleted project takes its own versions of groups with it (a new project of that name starts clean). */
  async dropProject(projectName: string): Promise<void> {
    const deleted = await this.db
      .deleteFrom('access_groups')
      .where('project_name', '<>', STUDIO)
      .where(sql<string>`lower(project_name)`, '=', projectName.toLowerCase())
      .executeTakeFirst();
    if (Number(deleted.numDeletedRows) > 0) await this.reload();
  }

  private announce(topic: string, name: string, level: string, actor: string, sender: Sender) {
    const where = level === STUDIO ? 'studio' : `project ${level}`;
    return this.events.emit({
      topic,
      project: level === STUDIO ? null : level,
      user: actor,
      sender: sender.sender,
      senderType: sender.senderType,
      description: `Access group ${name} ${topic.endsWith('deleted') ? 'deleted' : 'saved'} (${where})`,
      summary: { name, projectName: level },
    });
  }

  // ---- who holds which groups ---------------------------------------------------------------------------------

  /** Problems for group names that mean nothing in a project (neither a studio group nor one of the project's). */
  async unknownGroups(names: string[], projectNames: string[], loc: (string | number)[]): Promise<Problem[]> {
    const table = await this.groups();
    const problems: Problem[] = [];
    names.forEach((name, i) => {
      const missing = projectNames.filter((project) => !this.resolve(table, name, project));
      if (missing.length) {
        problems.push({
          loc: [...loc, i],
          msg: `Access group ${name} does not exist${missing.length === projectNames.length ? '' : ` in ${missing.join(', ')}`}`,
          type: 'value_error.unknown_access_group',
        });
      }
    });
    return problems;
  }

  /** Projects by name, canonical spelling; NotFound for the first that does not exist. */
  /** A project's own name, or null when there is no such project. */
  async projectName(name: string): Promise<string | null> {
    return (await this.projects.find(name))?.name ?? null;
  }

  async requireProjects(names: string[]): Promise<string[]> {
    const found: string[] = [];
    for (const name of names) {
      const project = await this.projects.find(name);
      if (!project) throw new NotFound(`Project ${name} not found`);
      if (!found.includes(project.name)) found.push(project.name);
    }
    return found;
  }

  async requireUser(name: string): Promise<UserRecord> {
    const user = await this.users.get(name);
    if (!user) throw new NotFound(`User ${name} not found`);
    return user;
  }

  /**
   * Set users' groups per project (canonical project names; an empty list takes the project away). Everything is
   * checked before the first user changes.
   */
  async assign(
    changes: { user: UserRecord; projects: Map<string, string[]> }[],
    actor: string,
    sender: Sender,
  ): Promise<void> {
    // Every user changes, or none does; each with its user.updated event.
    await this.db.transaction().execute(async () => {
      for (const { user, projects } of changes) {
        const patch = accessGroupsPatch(groupMapOf(user.data.accessGroups), projects);
        if (!patch) continue;
        const by = { user: actor, sender, fields: ['accessGroups'] };
        await this.users.update(user.name, { data: { accessGroups: patch } }, by);
      }
    });
  }

  /** Each user holding groups in a project, with those groups. */
  async projectUsers(projectName: string): Promise<GroupMap> {
    const result: GroupMap = {};
    for (const user of await this.users.list()) {
      const groups = groupsInProject(groupMapOf(user.data.accessGroups), projectName);
      if (groups.length) result[user.name] = groups;
    }
    return result;
  }

  /** Give a new project to every user whose defaultAccessGroups name groups, unless someone already did. */
  async applyDefaults(projectName: string): Promise<void> {
    const project = await this.projects.find(projectName);
    if (!project) return;
    for (const user of await this.users.list({ active: true })) {
      const defaults = user.data.defaultAccessGroups;
      if (!Array.isArray(defaults)) continue;
      const groups = [...new Set(defaults.filter((g): g is string => typeof g === 'string' && g !== ''))];
      const current = groupMapOf(user.data.accessGroups);
      if (!groups.length || groupsInProject(current, project.name).length) continue;
      await this.users.update(user.name, { data: { accessGroups: { [project.name]: groups } } });
    }
  }

  /** Whom the caller may share with: the people they can see, and everyone at once. */
  async shareOptions(caller: RequestUser) {
    const everyone = await this.users.list({ active: true });
    let seeAll = isManagerOrAbove(caller);
    if (!seeAll) seeAll = (await this.userPermissions(caller)).studio.list_all_users;
    const mine = Object.keys(groupMapOf(caller.accessGroups)).map((p) => p.toLowerCase());
    const visible = everyone.filter((user) => {
      if (user.data.isService === true || sameName(user.name, caller.name)) return false;
      if (seeAll) return true;
      // Managers and admins reach every project, so they share one with anyone who has a project.
      if (user.data.isAdmin === true || user.data.isManager === true) return mine.length > 0;
      const theirs = groupMapOf(user.data.accessGroups);
      return Object.entries(theirs).some(
        ([project, groups]) => groups.length && mine.includes(project.toLowerCase()),
      );
    });
    return {
      options: [
        { shareType: 'global' as const, value: '__everyone__', name: 'everyone', label: 'Everyone' },
        ...visible.map((user) => ({
          shareType: 'user' as const,
          value: user.name,
          name: user.name,
          label:
            typeof user.attrib.fullName === 'string' && user.attrib.fullName
              ? user.attrib.fullName
              : user.name,
        })),
      ],
    };
  }
}

/** Hierarchy and children entries must name a folder; the others need none. */
export function pathProblems(permissions: Permissions, loc: (string | number)[]): Problem[] {
  const problems: Problem[] = [];
  for (const kind of FOLDER_KINDS) {
    permissions[kind].access_list.forEach((entry, i) => {
      const needsPath = entry.access_type === 'hierarchy' || entry.access_type === 'children';
      if (needsPath && !(entry.path ?? '').replace(/\//g, '')) {
        problems.push({
          loc: [...loc, kind, 'access_list', i, 'path'],
          msg: `A ${entry.access_type} entry needs a folder path`,
          type: 'value_error.missing',
        });
      }
    });
  }
  return problems;
}
