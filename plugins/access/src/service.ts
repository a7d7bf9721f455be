import {
  NotFound,
  isManagerOrAbove,
  type AddonContext,
  type AttributeAccess,
  type Database,
  type EventBus,
  type FolderAccessKind,
  type FolderScope,
  type Permissions,
  type Problem,
  type RequestUser,
  type UserRecord,
} from '@pipewright/sdk';
import type { AccessControl } from './api.js';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import { GroupCache, groupIn } from './group-cache.js';
import { deleteGroup, deleteProjectGroups, upsertGroup } from './group-store.js';
import { STUDIO } from './migrations.js';
import { combinePermissions, unrestrictedPermissions, whitelistScope } from './permissions.js';
import { unknownGroupProblems } from './problems.js';
import { shareOptions } from './share-options.js';
import {
  accessGroupsPatch,
  groupMapOf,
  groupsInProject,
  identityOf,
  userLevel,
  type GroupMap,
} from './user-groups.js';

// The access addon's one service: what a user may do (from the cached groups, see group-cache.ts), the groups
// themselves (stored in group-store.ts, each change with its event in the change's unit of work), and who holds
// which groups (kept in the users' data, changed through the users addon).

const groupNotFound = (name: string, level: string) =>
  new NotFound(`Access group ${name} not found${level === STUDIO ? '' : ` in project ${level}`}`);

export class AccessService implements AccessControl {
  private readonly cache: GroupCache;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly projects: ProjectDirectory,
    private readonly users: UserDirectory,
    log: AddonContext['log'],
  ) {
    this.cache = new GroupCache(db, log);
  }

  /** Mark the cached groups out of date; they are read again in the background. */
  forget(): void {
    this.cache.forget();
  }

  /** Read the groups now and make them the cached table (setup, and after this process changed them). */
  async refresh(): Promise<void> {
    await this.cache.refresh();
  }

  // ---- what a user may do -------------------------------------------------------------------------------------

  async permissions(caller: RequestUser, projectName: string): Promise<Permissions> {
    if (isManagerOrAbove(caller)) return unrestrictedPermissions();
    const table = await this.cache.table();
    const held = groupsInProject(groupMapOf(caller.accessGroups), projectName)
      .map((name) => groupIn(table, name, projectName))
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
    const table = await this.cache.table();
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
    const table = await this.cache.table();
    const own =
      level === STUDIO
        ? new Map<string, Permissions>()
        : (table.projects.get(level.toLowerCase()) ?? new Map());
    const names = [...new Set([...table.studio.keys(), ...own.keys()])].sort();
    return names.map((name) => ({ name, isProjectLevel: own.has(name) }));
  }

  async getGroup(name: string, level: string): Promise<Permissions> {
    const table = await this.cache.table();
    const group = level === STUDIO ? table.studio.get(name) : groupIn(table, name, level);
    if (!group) throw groupNotFound(name, level);
    return group;
  }

  /** Create or replace a group at a level; answers true when it is new there. */
  async saveGroup(name: string, level: string, permissions: Permissions, actor: string): Promise<boolean> {
    const data = JSON.stringify(permissions);
    const inserted = await this.db.transaction().execute(async () => {
      const isNew = await upsertGroup(this.db, name, level, data);
      await this.announce('access_group.updated', name, level, actor);
      return isNew;
    });
    await this.cache.reload();
    return inserted;
  }

  async deleteGroup(name: string, level: string, actor: string): Promise<void> {
    await this.db.transaction().execute(async () => {
      if (!(await deleteGroup(this.db, name, level))) throw groupNotFound(name, level);
      await this.announce('access_group.deleted', name, level, actor);
    });
    await this.cache.reload();
  }

  /** A deleted project takes its own versions of groups with it (a new project of that name starts clean). */
  async dropProject(projectName: string): Promise<void> {
    if (await deleteProjectGroups(this.db, projectName)) await this.cache.reload();
  }

  private announce(topic: string, name: string, level: string, actor: string) {
    const where = level === STUDIO ? 'studio' : `project ${level}`;
    return this.events.emit({
      topic,
      project: level === STUDIO ? null : level,
      user: actor,
      description: `Access group ${name} ${topic.endsWith('deleted') ? 'deleted' : 'saved'} (${where})`,
      summary: { name, projectName: level },
    });
  }

  // ---- who holds which groups ---------------------------------------------------------------------------------

  /** Problems for group names that mean nothing in a project (neither a studio group nor one of the project's). */
  async unknownGroups(names: string[], projectNames: string[], loc: (string | number)[]): Promise<Problem[]> {
    return unknownGroupProblems(await this.cache.table(), names, projectNames, loc);
  }

  /** A project's own name, or null when there is no such project. */
  async projectName(name: string): Promise<string | null> {
    return (await this.projects.find(name))?.name ?? null;
  }

  /** Projects by name, canonical spelling; NotFound for the first that does not exist. */
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
  ): Promise<void> {
    // Every user changes, or none does; each with its user.updated event.
    await this.db.transaction().execute(async () => {
      for (const { user, projects } of changes) {
        const patch = accessGroupsPatch(groupMapOf(user.data.accessGroups), projects);
        if (!patch) continue;
        const by = { user: actor, fields: ['accessGroups'] };
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
    return shareOptions(caller, everyone, seeAll);
  }
}
