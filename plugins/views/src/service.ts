import {
  Conflict,
  Forbidden,
  NotFound,
  ValidationFailed,
  newId,
  type Database,
  type RequestUser,
} from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { View, ViewCreate, ViewListItem, ViewPatch } from './schemas.js';
import { storedSettings, validateSettings, type ViewType } from './settings.js';
import { isUniqueViolation, type Scope, type ViewRow, type ViewStore } from './store.js';

/** Levels of AYON's entity access, as views report them. */
const MANAGE = 30;
const READ = 10;

const STUDIO: Scope = { kind: 'studio' };

const sameUser = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
const isOwner = (caller: RequestUser, row: ViewRow) => sameUser(row.owner, caller.name);
const canSee = (caller: RequestUser, row: ViewRow) => isOwner(caller, row) || row.visibility === 'public';

function listItem(caller: RequestUser, scope: Scope, row: ViewRow): ViewListItem {
  return {
    id: row.id,
    label: row.label,
    scope: scope.kind,
    owner: row.owner,
    visibility: row.visibility,
    working: row.working,
    position: row.position,
    accessLevel: isOwner(caller, row) ? MANAGE : READ,
  };
}

function present(caller: RequestUser, scope: Scope, row: ViewRow): View {
  return {
    ...listItem(caller, scope, row),
    settings: storedSettings(row.view_type, row.settings),
    // Sharing with chosen users and teams is a Power Pack feature in AYON; without it the map stays empty.
    access: {},
    viewType: row.view_type,
  };
}

function checkViewType(viewType: ViewType, sent: ViewType | undefined) {
  if (sent !== undefined && sent !== viewType) {
    throw new ValidationFailed([
      {
        loc: ['body', 'viewType'],
        msg: `does not match the view type of the path (${viewType})`,
        type: 'value_error',
      },
    ]);
  }
}

/**
 * Saved views of the web app's pages. A view belongs to its owner, who alone changes it; public views are read by
 * everyone, private ones by their owner only. Views are kept per project, or studio-wide when no project is named,
 * and a project's listing shows the studio's views too.
 */
export class ViewService {
  constructor(
    private readonly db: Database,
    private readonly store: ViewStore,
    private readonly projects: ProjectDirectory,
    private readonly users: UserDirectory,
    private readonly schemaName: (projectName: string) => string,
  ) {}

  /**
   * Where a request's views live: the named project (which the caller must be able to use), else the studio (no
   * project name, or an empty one as AYON reads it).
   */
  async scope(caller: RequestUser, projectName: string | undefined): Promise<Scope> {
    if (!projectName) return STUDIO;
    const project = await this.projects.require(caller, projectName);
    return { kind: 'project', project: project.name, schema: this.schemaName(project.name) };
  }

  /** The scopes to search for a view by id: the request's own first, then the studio's. */
  private searchOrder(scope: Scope): Scope[] {
    return scope.kind === 'project' ? [scope, STUDIO] : [STUDIO];
  }

  /** The views of a type the caller may see: the project's first (when one is named), then the studio's. */
  async list(
    caller: RequestUser,
    viewType: ViewType,
    projectName?: string,
  ): Promise<{ views: ViewListItem[] }> {
    const scope = await this.scope(caller, projectName);
    const views: ViewListItem[] = [];
    for (const where of this.searchOrder(scope)) {
      const rows = await this.store.visible(where, viewType, caller.name);
      views.push(...rows.map((row) => listItem(caller, where, row)));
    }
    return { views };
  }

  /** The caller's working view of a type in the request's scope, or 404. */
  async working(caller: RequestUser, viewType: ViewType, projectName?: string): Promise<View> {
    const scope = await this.scope(caller, projectName);
    const row = await this.store.working(scope, viewType, caller.name);
    if (!row) throw new NotFound(`Working ${viewType} view not found`);
    return present(caller, scope, row);
  }

  /**
   * The caller's default view of a type: the one they chose (if they may still see it), else their working view
   * (the project's, then the studio's), else 404.
   */
  async getDefault(caller: RequestUser, viewType: ViewType, projectName?: string): Promise<View> {
    const scope = await this.scope(caller, projectName);
    const chosen = await this.store.defaultId(scope, viewType, caller.name);
    if (chosen) {
      const found = await this.find(caller, scope, viewType, chosen);
      if (found) return present(caller, found.scope, found.row);
    }
    for (const where of this.searchOrder(scope)) {
      const row = await this.store.working(where, viewType, caller.name);
      if (row) return present(caller, where, row);
    }
    throw new NotFound(`Default ${viewType} view not found`);
  }

  /** Remember a view the caller can see as their default for the type in the request's scope. */
  async setDefault(
    caller: RequestUser,
    viewType: ViewType,
    viewId: string,
    projectName?: string,
  ): Promise<void> {
    const scope = await this.scope(caller, projectName);
    if (!(await this.find(caller, scope, viewType, viewId))) throw new NotFound(`View ${viewId} not found`);
    await this.store.setDefault(scope, viewType, caller.name, viewId);
  }

  /** A view the caller can see, or 404. */
  async get(caller: RequestUser, viewType: ViewType, viewId: string, projectName?: string): Promise<View> {
    const scope = await this.scope(caller, projectName);
    const found = await this.find(caller, scope, viewType, viewId);
    if (!found) throw new NotFound('View not found');
    return present(caller, found.scope, found.row);
  }

  /**
   * Create a view owned by the caller in the request's scope, or save their working view (which keeps its id).
   * Answers the view's id and whether it is new.
   */
  async create(
    caller: RequestUser,
    viewType: ViewType,
    body: ViewCreate,
    projectName?: string,
  ): Promise<{ id: string; created: boolean }> {
    // Access to the project is settled before the input is judged: who may not use it learns nothing more.
    const scope = await this.scope(caller, projectName);
    checkViewType(viewType, body.viewType);
    const working = body.working ?? true;
    if (working && body.visibility === 'public') {
      throw new ValidationFailed([
        { loc: ['body', 'visibility'], msg: 'a working view is always private', type: 'value_error' },
      ]);
    }
    const settings = validateSettings(viewType, body.settings, ['body', 'settings']);
    const row = {
      id: body.id ?? newId(),
      view_type: viewType,
      label: body.label,
      owner: caller.name,
      settings,
    };
    try {
      if (working) return await this.store.saveWorking(scope, row);
      const id = await this.store.insert(scope, {
        ...row,
        visibility: body.visibility ?? 'private',
        working: false,
      });
      return { id, created: true };
    } catch (error) {
      if (isUniqueViolation(error)) throw new Conflict(`View ${row.id} already exists`);
      throw error;
    }
  }

  /** Change a view the caller owns; only administrators hand a view to someone else. */
  async update(
    caller: RequestUser,
    viewType: ViewType,
    viewId: string,
    patch: ViewPatch,
    projectName?: string,
  ): Promise<void> {
    const scope = await this.scope(caller, projectName);
    checkViewType(viewType, patch.viewType);
    const settings =
      patch.settings === undefined
        ? undefined
        : validateSettings(viewType, patch.settings, ['body', 'settings']);
    const newOwner = patch.owner === undefined ? undefined : await this.checkOwner(caller, patch.owner);

    await this.db.transaction().execute(async () => {
      // Locked, so a concurrent change or delete cannot slip between the checks and the write.
      const found = await this.find(caller, scope, viewType, viewId, true);
      if (!found) throw new NotFound('View not found');
      const { row } = found;
      if (!isOwner(caller, row)) throw new Forbidden('Only the owner of a view may change it');
      if (patch.visibility === 'public' && row.working) {
        throw new ValidationFailed([
          { loc: ['body', 'visibility'], msg: 'a working view is always private', type: 'value_error' },
        ]);
      }
      try {
        await this.store.update(found.scope, viewId, {
          label: patch.label,
          owner: newOwner,
          visibility: patch.visibility,
          settings,
        });
      } catch (error) {
        if (isUniqueViolation(error)) {
          throw new Conflict(`${newOwner} already has a working ${viewType} view here`);
        }
        throw error;
      }
    });
  }

  /** Delete a view: its owner may, and administrators may delete any view. */
  async remove(caller: RequestUser, viewType: ViewType, viewId: string, projectName?: string): Promise<void> {
    const scope = await this.scope(caller, projectName);
    await this.db.transaction().execute(async () => {
      // Administrators reach private views too (AYON lets them delete any view).
      const found = await this.find(caller, scope, viewType, viewId, true, caller.isAdmin);
      if (!found) throw new NotFound('View not found');
      if (!isOwner(caller, found.row) && !caller.isAdmin) {
        throw new Forbidden('Only the owner of a view or an administrator may delete it');
      }
      await this.store.remove(found.scope, viewId);
    });
  }

  /** The owner a PATCH names, as the user directory spells it; someone else than the caller needs an admin. */
  private async checkOwner(caller: RequestUser, owner: string): Promise<string> {
    if (sameUser(owner, caller.name)) return caller.name;
    if (!caller.isAdmin) throw new Forbidden('Only administrators may change the owner of a view');
    const user = await this.users.get(owner);
    if (!user) {
      throw new ValidationFailed([
        { loc: ['body', 'owner'], msg: `user ${owner} does not exist`, type: 'value_error' },
      ]);
    }
    return user.name;
  }

  /** A view of this type the caller can see, searched in the request's scope, then the studio's. */
  private async find(
    caller: RequestUser,
    scope: Scope,
    viewType: ViewType,
    viewId: string,
    forUpdate = false,
    includePrivate = false,
  ): Promise<{ scope: Scope; row: ViewRow } | null> {
    for (const where of this.searchOrder(scope)) {
      const row = await this.store.get(where, viewId, forUpdate);
      if (row && row.view_type === viewType && (includePrivate || canSee(caller, row)))
        return { scope: where, row };
    }
    return null;
  }
}
