import {
  Forbidden,
  NotFound,
  ValidationFailed,
  isManagerOrAbove,
  mergePatch,
  newId,
  type AttributeLibrary,
  type Database,
  type EntityDirectory,
  type EventBus,
  type ProjectDirectory,
  type RequestUser,
  type Sender,
  type TeamDirectory,
  type UserDirectory,
} from '@pipewright/sdk';
import { LEVEL, levelOf, namesTeams, type Level } from './access-level.js';
import { checkDefinitions, storedDefinitions } from './attribute-definitions.js';
import type { EntityLookup, EntityRef } from './entity-lookup.js';
import type { ListFolderService } from './folders.js';
import {
  fromStored,
  insertAt,
  itemsOfNewList,
  newItem,
  patchItem,
  planDelete,
  planMerge,
  planOrder,
  planReplace,
  removeItem,
  type PlannedItem,
} from './item-plan.js';
import { selectEntities, type Template } from './materialize.js';
import { listEvent, presentItem, presentList, summaryOf } from './present.js';
import type {
  EntityList,
  ItemCreate,
  ItemPatch,
  ListAttributeDefinition,
  ListCreate,
  ListEntityType,
  ListPatch,
  ListSummary,
  MultiPatch,
} from './schemas.js';
import type { ListColumns, ListRow, ListStore } from './store.js';

/** A list the caller may read, with their level on it (what the lists service offers GraphQL). */
export interface VisibleList extends ListSummary {
  accessLevel: Level;
  owner: string | null;
  active: boolean;
  tags: string[];
}

/** Provided by the lists addon: the lists of a project as a caller may see them. */
export interface EntityListDirectory {
  /** Lists the caller may read (level 10 or more), in creation order, each with its count and the caller's level. */
  visible(caller: RequestUser, projectName: string): Promise<VisibleList[]>;
  /** One list with its items, as GET /api/projects/{p}/lists/{id} answers (404, 403 as that route does). */
  get(caller: RequestUser, projectName: string, id: string): Promise<EntityList>;
}

declare module '@pipewright/sdk' {
  interface ServiceMap {
    lists: EntityListDirectory;
  }
}

/** A list the caller reached: the project's canonical name, the row and the caller's level on it. */
interface Opened {
  project: string;
  row: ListRow;
  level: Level;
}

const VERB: Record<number, string> = {
  [LEVEL.read]: 'read',
  [LEVEL.update]: 'update',
  [LEVEL.manage]: 'admin',
};

/** Entity lists of one project: who may do what with them, and every change of them and their items. */
export class EntityListService implements EntityListDirectory {
  constructor(
    private readonly db: Database,
    private readonly events: EventBus,
    private readonly projects: ProjectDirectory,
    private readonly entities: EntityDirectory,
    private readonly users: UserDirectory,
    private readonly attributes: AttributeLibrary,
    private readonly store: ListStore,
    private readonly folders: ListFolderService,
    private readonly teams: TeamDirectory,
    private readonly lookup: EntityLookup,
  ) {}

  /** The caller's level on a list; teams are only looked up when the list is shared with a team. */
  private async levelOn(caller: RequestUser, projectName: string, row: ListRow): Promise<Level> {
    const teams =
      !isManagerOrAbove(caller) && namesTeams(row.access)
        ? await this.teams.teamsOf(projectName, caller.name)
        : [];
    return levelOf(caller, projectName, row, teams);
  }

  /**
   * The list, when the caller may use the project and has at least the level asked for: 404 for a list that does
   * not exist, 403 "access denied" below read, 403 "cannot update/admin" below what the action needs.
   */
  private async open(caller: RequestUser, projectName: string, id: string, needed: Level): Promise<Opened> {
    const project = await this.projects.require(caller, projectName);
    const row = await this.store.findList(project.name, id);
    if (!row) throw new NotFound(`Entity list ${id} not found`);
    const level = await this.levelOn(caller, project.name, row);
    if (level < LEVEL.read) throw new Forbidden(`Access denied to entity list ${row.label}`);
    if (level < needed) throw new Forbidden(`Cannot ${VERB[needed]} entity list ${row.label}`);
    return { project: project.name, row, level };
  }

  /** entity_list.changed for a list as it now is, inside the change's unit of work. */
  private async emitChanged(project: string, id: string, caller: RequestUser, sender: Sender) {
    const row = (await this.store.findList(project, id)) as ListRow;
    const count = (await this.store.counts(project, [id])).get(id) ?? 0;
    await this.events.emit(listEvent('entity_list.changed', project, { caller, sender }, row, count));
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
  async create(
    caller: RequestUser,
    projectName: string,
    body: ListCreate,
    sender: Sender,
  ): Promise<ListSummary> {
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
    const columns: ListColumns = {
      entity_list_type: body.entityListType ?? 'generic',
      entity_type: body.entityType,
      entity_list_folder_id: body.entityListFolderId ?? null,
      label: body.label,
      owner: body.owner ?? caller.name,
      access: body.access ?? {},
      template: body.template ?? {},
      attrib: body.attrib ?? {},
      data: body.data ?? {},
      tags: body.tags ?? [],
      active: body.active ?? true,
    };
    const row = await this.db.transaction().execute(async () => {
      await this.store.insertList(project, id, columns, caller.name);
      await this.store.writeItems(project, id, [], planned, caller.name);
      const created = (await this.store.findList(project, id)) as ListRow;
      const by = { caller, sender };
      await this.events.emit(listEvent('entity_list.created', project, by, created, planned.length));
      return created;
    });
    return summaryOf(row, planned.length);
  }

  /** The list with its items in order (level 10), or without them when only the metadata is asked for. */
  async get(caller: RequestUser, projectName: string, id: string, metadataOnly = false): Promise<EntityList> {
    const { project, row, level } = await this.open(caller, projectName, id, LEVEL.read);
    if (metadataOnly) {
      const count = (await this.store.counts(project, [id])).get(id) ?? 0;
      return presentList(row, [], count, level);
    }
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
    const teams =
      !isManagerOrAbove(caller) && rows.some((row) => namesTeams(row.access))
        ? await this.teams.teamsOf(project, caller.name)
        : [];
    const readable = rows
      .map((row) => ({ row, level: levelOf(caller, project, row, teams) }))
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
  async patch(
    caller: RequestUser,
    projectName: string,
    id: string,
    body: ListPatch,
    sender: Sender,
  ): Promise<void> {
    const { project } = await this.open(caller, projectName, id, LEVEL.manage);
    await this.checkOwner(caller, body.owner, false);
    await this.checkFolder(project, body.entityListFolderId);
    await this.db.transaction().execute(async () => {
      const current = await this.lockList(project, id);
      const columns: ListColumns = {};
      if (body.label !== undefined && body.label !== null) columns.label = body.label;
      if (body.access !== undefined) columns.access = body.access;
      if (body.attrib !== undefined) columns.attrib = mergePatch(current.attrib, body.attrib);
      if (body.data !== undefined) columns.data = mergePatch(current.data, body.data);
      if (body.template !== undefined) columns.template = body.template;
      if (body.tags !== undefined) columns.tags = body.tags;
      if (body.owner !== undefined) columns.owner = body.owner;
      if (body.active !== undefined && body.active !== null) columns.active = body.active;
      if (body.entityListFolderId !== undefined) columns.entity_list_folder_id = body.entityListFolderId;
      await this.store.updateList(project, id, columns, caller.name);
      await this.emitChanged(project, id, caller, sender);
    });
  }

  /** Delete the list and its items (level 30). */
  async remove(caller: RequestUser, projectName: string, id: string, sender: Sender): Promise<void> {
    const { project } = await this.open(caller, projectName, id, LEVEL.manage);
    await this.db.transaction().execute(async () => {
      const current = await this.lockList(project, id);
      const count = (await this.store.counts(project, [id])).get(id) ?? 0;
      await this.store.deleteList(project, id);
      await this.events.emit(listEvent('entity_list.deleted', project, { caller, sender }, current, count));
    });
  }

  private async lockList(project: string, id: string): Promise<ListRow> {
    const row = await this.store.findList(project, id, true);
    if (!row) throw new NotFound(`Entity list ${id} not found`);
    return row;
  }

  /**
   * Every change of the items takes this path: access is checked and the entities named are looked up first,
   * then, in one transaction with the list locked, the plan is made on the stored items and its difference
   * written with one entity_list.changed event. A plan that fails leaves the list as it was.
   */
  private async changeItems(
    caller: RequestUser,
    projectName: string,
    id: string,
    needed: Level,
    sender: Sender,
    refs: EntityRef[],
    plan: (items: PlannedItem[], row: ListRow) => PlannedItem[],
  ): Promise<{ row: ListRow; items: PlannedItem[] }> {
    const opened = await this.open(caller, projectName, id, needed);
    await this.lookup.requireOfType(caller, opened.project, opened.row.entity_type, refs);
    const result = await this.db.transaction().execute(async () => {
      const row = await this.lockList(opened.project, id);
      const before = await this.store.items(opened.project, id);
      const after = plan(fromStored(before), row);
      await this.store.writeItems(opened.project, id, before, after, caller.name);
      await this.store.updateList(opened.project, id, {}, caller.name);
      const by = { caller, sender };
      await this.events.emit(listEvent('entity_list.changed', opened.project, by, row, after.length));
      return { row, items: after };
    });
    return result;
  }

  /** Add one item at a position (the items from there on shift down) or at the end; answers its id. */
  async addItem(
    caller: RequestUser,
    projectName: string,
    id: string,
    body: ItemCreate,
    sender: Sender,
  ): Promise<string> {
    const item = newItem(body, body.entityId);
    await this.changeItems(
      caller,
      projectName,
      id,
      LEVEL.update,
      sender,
      [{ id: body.entityId, loc: ['body', 'entityId'] }],
      (items) => insertAt(items, item, body.position),
    );
    return item.id;
  }

  /** PATCH of one item (level 20): see item-plan.ts patchItem. */
  async patchItem(
    caller: RequestUser,
    projectName: string,
    id: string,
    itemId: string,
    body: ItemPatch,
    sender: Sender,
  ): Promise<void> {
    const refs = body.entityId ? [{ id: body.entityId, loc: ['body', 'entityId'] }] : [];
    await this.changeItems(caller, projectName, id, LEVEL.update, sender, refs, (items, row) =>
      patchItem(items, itemId, body, row.label),
    );
  }

  /** Remove one item (level 20); the items after it move up. */
  async removeItem(
    caller: RequestUser,
    projectName: string,
    id: string,
    itemId: string,
    sender: Sender,
  ): Promise<void> {
    await this.changeItems(caller, projectName, id, LEVEL.update, sender, [], (items, row) =>
      removeItem(items, itemId, row.label),
    );
  }

  /** PATCH of many items in one transaction: replace, merge or delete (see item-plan.ts). */
  async patchItems(
    caller: RequestUser,
    projectName: string,
    id: string,
    body: MultiPatch,
    sender: Sender,
  ): Promise<void> {
    const mode = body.mode ?? 'replace';
    const refs =
      mode === 'delete'
        ? []
        : body.items.flatMap((item, i) =>
            item.entityId ? [{ id: item.entityId, loc: ['body', 'items', i, 'entityId'] }] : [],
          );
    await this.changeItems(caller, projectName, id, LEVEL.update, sender, refs, (items, row) =>
      mode === 'replace'
        ? planReplace(items, body.items)
        : mode === 'merge'
          ? planMerge(items, body.items)
          : planDelete(items, body.items, row.label),
    );
  }

  /** Put every item in the order given (level 20). */
  async orderItems(
    caller: RequestUser,
    projectName: string,
    id: string,
    order: string[],
    sender: Sender,
  ): Promise<void> {
    await this.changeItems(caller, projectName, id, LEVEL.update, sender, [], (items) =>
      planOrder(items, order),
    );
  }

  /**
   * Fill the list from its template (see materialize.ts): the items become the selected entities in path order.
   * An entity already listed keeps its item, with its label, attrib, data and tags; items of entities the template
   * no longer selects go. Managing the list is needed, as in AYON.
   */
  async materialize(
    caller: RequestUser,
    projectName: string,
    id: string,
    sender: Sender,
  ): Promise<ListSummary> {
    const { project, row } = await this.open(caller, projectName, id, LEVEL.manage);
    const selected = await selectEntities(
      this.entities,
      this.lookup,
      caller,
      project,
      row.entity_type,
      row.template as Template,
    );
    const { row: locked, items } = await this.changeItems(
      caller,
      projectName,
      id,
      LEVEL.manage,
      sender,
      [],
      (current) => {
        const unused = [...current];
        return selected.map((entityId) => {
          const at = unused.findIndex((item) => item.entityId === entityId);
          return at === -1 ? newItem({}, entityId) : unused.splice(at, 1)[0];
        });
      },
    );
    return summaryOf(locked, items.length);
  }

  /** The list's custom attribute definitions (level 10). */
  async attributeDefinitions(
    caller: RequestUser,
    projectName: string,
    id: string,
  ): Promise<ListAttributeDefinition[]> {
    const { row } = await this.open(caller, projectName, id, LEVEL.read);
    return storedDefinitions(row.data);
  }

  /** Replace the list's custom attribute definitions (kept in data.attributes, as AYON keeps them). */
  async setAttributeDefinitions(
    caller: RequestUser,
    projectName: string,
    id: string,
    definitions: ListAttributeDefinition[],
    sender: Sender,
  ): Promise<void> {
    const { project } = await this.open(caller, projectName, id, LEVEL.manage);
    const studio = (await this.attributes.list()).map((attribute) => attribute.name);
    const stored = checkDefinitions(definitions, studio);
    await this.db.transaction().execute(async () => {
      const current = await this.lockList(project, id);
      await this.store.updateList(
        project,
        id,
        { data: { ...current.data, attributes: stored } },
        caller.name,
      );
      await this.emitChanged(project, id, caller, sender);
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
    const { project, row } = await this.open(caller, projectName, id, LEVEL.read);
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
