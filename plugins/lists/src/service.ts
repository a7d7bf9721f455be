import {
  Forbidden,
  NotFound,
  ValidationFailed,
  isManagerOrAbove,
  newId,
  type Database,
  type EventBus,
  type RequestUser,
} from '@pipewright/sdk';
import type { AttributeLibrary } from '@pipewright/plugin-attributes/api';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { TeamDirectory } from '@pipewright/plugin-teams/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import { LEVEL } from './access-level.js';
import { checkDefinitions, storedDefinitions } from './attribute-definitions.js';
import type { VisibleList } from './directory.js';
import type { EntityLookup } from './entity-lookup.js';
import type { ListFolderService } from './folders.js';
import { ListItemChanges } from './item-changes.js';
import { itemsOfNewList } from './item-plan.js';
import { ListAccess } from './list-access.js';
import { newListColumns, patchedColumns } from './list-columns.js';
import { listEvent, presentItem, presentList, summaryOf } from './present.js';
import type {
  EntityList,
  ListAttributeDefinition,
  ListCreate,
  ListEntityType,
  ListPatch,
  ListSummary,
} from './schemas.js';
import type { ListRow, ListStore } from './store.js';
import type { EntityListDirectory } from './api.js';

export type { VisibleList } from './directory.js';
export type { EntityListDirectory };

/**
 * Entity lists of one project: who may do what with them, and every change of them. Their items change through
 * `items` (item-changes.ts); access is checked by list-access.ts, SQL runs in store.ts.
 */
export class EntityListService implements EntityListDirectory {
  /** Changes of the items of a list. */
  readonly items: ListItemChanges;
  private readonly access: ListAccess;

  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly projects: ProjectDirectory,
    entities: EntityDirectory,
    private readonly users: UserDirectory,
    private readonly attributes: AttributeLibrary,
    private readonly store: ListStore,
    private readonly folders: ListFolderService,
    teams: TeamDirectory,
    private readonly lookup: EntityLookup,
  ) {
    this.access = new ListAccess(projects, store, teams);
    this.items = new ListItemChanges({ db, events, entities, store, lookup, access: this.access });
  }

  /** entity_list.changed for a list as it now is, inside the change's unit of work. */
  private async emitChanged(project: string, id: string, caller: RequestUser) {
    const row = (await this.store.findList(project, id)) as ListRow;
    const count = await this.count(project, id);
    await this.events.emit(listEvent('entity_list.changed', project, caller, row, count));
  }

  private async count(project: string, id: string): Promise<number> {
    return (await this.store.counts(project, [id])).get(id) ?? 0;
  }

  /** The owner named in a body must be a user; only managers give a new list to someone else. */
  private async checkOwner(caller: RequestUser, owner: string | null | undefined, creating: boolean) {
    if (owner === undefined || owner === null) return;
    if (creating && owner.toLowerCase() !== caller.name.toLowerCase() && !isManagerOrAbove(caller))
      throw new Forbidden('Only managers may create a list owned by someone else');
    if (!(await this.users.get(owner)))
      throw new ValidationFailed([
        { loc: ['body', 'owner'], msg: `user ${owner} does not exist`, type: 'value_error.not_found' },
      ]);
  }

  private async checkFolder(projectName: string, folderId: string | null | undefined) {
    if (folderId && !(await this.folders.exists(projectName, folderId)))
      throw new NotFound(`List folder ${folderId} not found in project ${projectName}`);
  }

  /** Create a list (any user of the project; the creator owns it unless a manager names another owner). */
  async create(caller: RequestUser, projectName: string, body: ListCreate): Promise<ListSummary> {
    const project = (await this.projects.require(caller, projectName)).name;
    await this.checkOwner(caller, body.owner, true);
    await this.checkFolder(project, body.entityListFolderId);
    const payload = body.items ?? [];
    const planned = itemsOfNewList(payload);
    // Entities are looked up before the transaction: on PGlite's one connection a read outside it would wait.
    await this.lookup.requireOfType(
      caller,
      project,
      body.entityType,
      payload.map((item, i) => ({ id: item.entityId, loc: ['body', 'items', i, 'entityId'] })),
    );
    const id = body.id ?? newId();
    const columns = newListColumns(body, caller);
    const row = await this.db.transaction().execute(async () => {
      await this.store.insertList(project, id, columns, caller.name);
      await this.store.writeItems(project, id, [], planned, caller.name);
      const created = (await this.store.findList(project, id)) as ListRow;
      await this.events.emit(listEvent('entity_list.created', project, caller, created, planned.length));
      return created;
    });
    return summaryOf(row, planned.length);
  }

  /** The list with its items in order (level 10), or without them when only the metadata is asked for. */
  async get(caller: RequestUser, projectName: string, id: string, metadataOnly = false): Promise<EntityList> {
    const { project, row, level } = await this.access.open(caller, projectName, id, LEVEL.read);
    if (metadataOnly) return presentList(row, [], await this.count(project, id), level);
    const items = await this.store.items(project, id);
    const paths = await this.lookup.folderPaths(
      project,
      row.entity_type,
      items.map((item) => item.entity_id),
    );
    return presentList(
      row,
      items.map((item) => presentItem(item, paths.get(item.entity_id) ?? '')),
      items.length,
      level,
    );
  }

  /** Lists the caller may read, with their level: see EntityListDirectory.visible. */
  async visible(caller: RequestUser, projectName: string): Promise<VisibleList[]> {
    const project = (await this.projects.require(caller, projectName)).name;
    const rows = await this.store.allLists(project);
    const levels = await this.access.levels(caller, project, rows);
    const readable = rows
      .map((row, i) => ({ row, level: levels[i] }))
      .filter(({ level }) => level >= LEVEL.read);
    const counts = await this.store.counts(
      project,
      readable.map(({ row }) => row.id),
    );
    return readable.map(({ row, level }) => ({
      ...summaryOf(row, counts.get(row.id) ?? 0),
      accessLevel: level,
      owner: row.owner,
      active: row.active,
      tags: row.tags,
    }));
  }

  /** PATCH of the list itself (managers of the list): attrib and data merge, access and tags replace. */
  async patch(caller: RequestUser, projectName: string, id: string, body: ListPatch): Promise<void> {
    const { project } = await this.access.open(caller, projectName, id, LEVEL.manage);
    await this.checkOwner(caller, body.owner, false);
    await this.checkFolder(project, body.entityListFolderId);
    await this.db.transaction().execute(async () => {
      const current = await this.access.lock(project, id);
      const columns = patchedColumns(body, current);
      await this.store.updateList(project, id, columns, caller.name);
      await this.emitChanged(project, id, caller);
    });
  }

  /** Delete the list and its items (level 30). */
  async remove(caller: RequestUser, projectName: string, id: string): Promise<void> {
    const { project } = await this.access.open(caller, projectName, id, LEVEL.manage);
    await this.db.transaction().execute(async () => {
      const current = await this.access.lock(project, id);
      const count = await this.count(project, id);
      await this.store.deleteList(project, id);
      await this.events.emit(listEvent('entity_list.deleted', project, caller, current, count));
    });
  }

  /** The list's custom attribute definitions (level 10). */
  async attributeDefinitions(
    caller: RequestUser,
    projectName: string,
    id: string,
  ): Promise<ListAttributeDefinition[]> {
    const { row } = await this.access.open(caller, projectName, id, LEVEL.read);
    return storedDefinitions(row.data);
  }

  /** Replace the list's custom attribute definitions (kept in data.attributes, as AYON keeps them). */
  async setAttributeDefinitions(
    caller: RequestUser,
    projectName: string,
    id: string,
    definitions: ListAttributeDefinition[],
  ): Promise<void> {
    const { project } = await this.access.open(caller, projectName, id, LEVEL.manage);
    const studio = (await this.attributes.list()).map((attribute) => attribute.name);
    const stored = checkDefinitions(definitions, studio);
    await this.db.transaction().execute(async () => {
      const current = await this.access.lock(project, id);
      const data = { ...current.data, attributes: stored };
      await this.store.updateList(project, id, { data }, caller.name);
      await this.emitChanged(project, id, caller);
    });
  }

  /**
   * The listed entities: AYON's {entityType, entityIds}, each entity once in list order, plus the entities as
   * their own GET shows them. Entities the caller may not read are left out of both.
   */
  async listedEntities(
    caller: RequestUser,
    projectName: string,
    id: string,
  ): Promise<{ entityType: ListEntityType; entityIds: string[]; entities: Record<string, unknown>[] }> {
    const { project, row } = await this.access.open(caller, projectName, id, LEVEL.read);
    const ids = [...new Set((await this.store.items(project, id)).map((item) => item.entity_id))];
    const readable = await this.lookup.byIds(project, row.entity_type, ids, caller);
    const shown = ids.filter((entityId) => readable.has(entityId));
    return {
      entityType: row.entity_type,
      entityIds: shown,
      entities: shown.map((entityId) => readable.get(entityId) as Record<string, unknown>),
    };
  }
}
