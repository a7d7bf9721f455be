import type { Database, EventBus, RequestUser } from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import { LEVEL, type Level } from './access-level.js';
import type { EntityLookup, EntityRef } from './entity-lookup.js';
import {
  fromStored,
  insertAt,
  newItem,
  patchItem,
  planDelete,
  planMerge,
  planOrder,
  planReplace,
  removeItem,
  type PlannedItem,
} from './item-plan.js';
import type { ListAccess } from './list-access.js';
import { selectEntities, type Template } from './materialize.js';
import { listEvent, summaryOf } from './present.js';
import type { ItemCreate, ItemPatch, ListSummary, MultiPatch } from './schemas.js';
import type { ListRow, ListStore } from './store.js';

export interface ItemChangeDeps {
  db: Database;
  events: EventBus;
  entities: EntityDirectory;
  store: ListStore;
  lookup: EntityLookup;
  access: ListAccess;
}

/** The items of a list: added, patched, removed, reordered or materialized from its template. */
export class ListItemChanges {
  constructor(private readonly deps: ItemChangeDeps) {}

  /**
   * Every change of the items takes this path: access is checked and the entities named are looked up first,
   * then, in one transaction with the list locked, the plan is made on the stored items and its difference
   * written with one entity_list.changed event. A plan that fails leaves the list as it was.
   */
  private async change(
    caller: RequestUser,
    projectName: string,
    id: string,
    needed: Level,
    refs: EntityRef[],
    plan: (items: PlannedItem[], row: ListRow) => PlannedItem[],
  ): Promise<{ row: ListRow; items: PlannedItem[] }> {
    const { db, events, store, lookup, access } = this.deps;
    const opened = await access.open(caller, projectName, id, needed);
    await lookup.requireOfType(caller, opened.project, opened.row.entity_type, refs);
    return db.transaction().execute(async () => {
      const row = await access.lock(opened.project, id);
      const before = await store.items(opened.project, id);
      const after = plan(fromStored(before), row);
      await store.writeItems(opened.project, id, before, after, caller.name);
      await store.updateList(opened.project, id, {}, caller.name);
      await events.emit(listEvent('entity_list.changed', opened.project, caller, row, after.length));
      return { row, items: after };
    });
  }

  /** Add one item at a position (the items from there on shift down) or at the end; answers its id. */
  async add(caller: RequestUser, projectName: string, id: string, body: ItemCreate): Promise<string> {
    const item = newItem(body, body.entityId);
    const refs = [{ id: body.entityId, loc: ['body', 'entityId'] }];
    await this.change(caller, projectName, id, LEVEL.update, refs, (items) =>
      insertAt(items, item, body.position),
    );
    return item.id;
  }

  /** PATCH of one item (level 20): see item-plan.ts patchItem. */
  async patch(
    caller: RequestUser,
    projectName: string,
    id: string,
    itemId: string,
    body: ItemPatch,
  ): Promise<void> {
    const refs = body.entityId ? [{ id: body.entityId, loc: ['body', 'entityId'] }] : [];
    await this.change(caller, projectName, id, LEVEL.update, refs, (items, row) =>
      patchItem(items, itemId, body, row.label),
    );
  }

  /** Remove one item (level 20); the items after it move up. */
  async remove(caller: RequestUser, projectName: string, id: string, itemId: string): Promise<void> {
    await this.change(caller, projectName, id, LEVEL.update, [], (items, row) =>
      removeItem(items, itemId, row.label),
    );
  }

  /** PATCH of many items in one transaction: replace, merge or delete (see item-plan.ts). */
  async patchMany(caller: RequestUser, projectName: string, id: string, body: MultiPatch): Promise<void> {
    const mode = body.mode ?? 'replace';
    const refs =
      mode === 'delete'
        ? []
        : body.items.flatMap((item, i) =>
            item.entityId ? [{ id: item.entityId, loc: ['body', 'items', i, 'entityId'] }] : [],
          );
    await this.change(caller, projectName, id, LEVEL.update, refs, (items, row) =>
      mode === 'replace'
        ? planReplace(items, body.items)
        : mode === 'merge'
          ? planMerge(items, body.items)
          : planDelete(items, body.items, row.label),
    );
  }

  /** Put every item in the order given (level 20). */
  async order(caller: RequestUser, projectName: string, id: string, order: string[]): Promise<void> {
    await this.change(caller, projectName, id, LEVEL.update, [], (items) => planOrder(items, order));
  }

  /**
   * Fill the list from its template (see materialize.ts): the items become the selected entities in path order.
   * An entity already listed keeps its item, with its label, attrib, data and tags; items of entities the template
   * no longer selects go. Managing the list is needed, as in AYON.
   */
  async materialize(caller: RequestUser, projectName: string, id: string): Promise<ListSummary> {
    const { entities, lookup, access } = this.deps;
    const { project, row } = await access.open(caller, projectName, id, LEVEL.manage);
    const template = row.template as Template;
    const selected = await selectEntities(entities, lookup, caller, project, row.entity_type, template);
    const { row: locked, items } = await this.change(caller, projectName, id, LEVEL.manage, [], (current) => {
      const unused = [...current];
      return selected.map((entityId) => {
        const at = unused.findIndex((item) => item.entityId === entityId);
        return at === -1 ? newItem({}, entityId) : unused.splice(at, 1)[0];
      });
    });
    return summaryOf(locked, items.length);
  }
}
