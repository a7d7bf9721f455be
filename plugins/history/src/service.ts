import {
  currentSender,
  isManagerOrAbove,
  isoTime,
  NotFound,
  requireManager,
  type ProjectEntityType,
  type RequestUser,
  type Static,
} from '@pipewright/sdk';
import type { EntityDirectory, FieldChange } from '@pipewright/plugin-entities/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { HistoryEntry as HistoryEntrySchema } from './schemas.js';
import type { HistoryStore, HistoryWindow, NewChange, StoredChange } from './store.js';

/** One change as the API shows it (schemas.ts); id is its cursor. */
export type HistoryEntry = Static<typeof HistoryEntrySchema>;

export const presentChange = (row: StoredChange): HistoryEntry => ({
  id: String(row.id),
  entityType: row.entity_type,
  entityId: row.entity_id.replaceAll('-', ''),
  field: row.field,
  oldValue: row.old_value ?? null,
  newValue: row.new_value ?? null,
  user: row.user_name,
  via: row.via,
  sender: row.sender,
  senderType: row.sender_type,
  client: row.client,
  changedAt: isoTime(row.changed_at),
});

const via = (caller: RequestUser) => (caller.isService ? 'service' : caller.isApiKey ? 'apiKey' : 'session');

/**
 * Field history: every field an entity write changes, kept apart from the event log (append-only, never
 * coalesced), recorded in the write's own transaction so a rolled-back write leaves none.
 */
export class HistoryService {
  constructor(
    private readonly store: HistoryStore,
    private readonly projects: ProjectDirectory,
    private readonly entities: EntityDirectory,
  ) {}

  /** Record what a write changed: called inside its unit of work, with the request's sender in context. */
  async record(projectName: string, caller: RequestUser, changes: readonly FieldChange[]): Promise<void> {
    const { sender, senderType, client } = currentSender();
    const who = {
      user_name: caller.name,
      via: via(caller),
      sender,
      sender_type: senderType,
      client: client ?? null,
    };
    const rows: NewChange[] = changes.map((change) => ({
      entity_type: change.entityType,
      entity_id: change.entityId,
      field: change.field,
      old_value: change.oldValue,
      new_value: change.newValue,
      ...who,
    }));
    await this.store.append(projectName, rows);
  }

  /**
   * An entity's changes, newest first: for those who may read it; a deleted entity's for managers (where it stood,
   * and so who could read it, went with it).
   */
  async ofEntity(
    caller: RequestUser,
    projectName: string,
    entityType: ProjectEntityType,
    entityId: string,
    window: Pick<HistoryWindow, 'fields' | 'before' | 'limit'>,
  ): Promise<{ changes: HistoryEntry[]; hasMore: boolean }> {
    await this.projects.require(caller, projectName);
    const readable = (await this.entities.get(projectName, entityType, entityId, caller)) !== null;
    if (!readable && !isManagerOrAbove(caller)) throw notFound(entityType, entityId);
    const rows = await this.store.read(projectName, {
      ...window,
      entityIds: [entityId],
      entityType,
      limit: window.limit + 1,
    });
    if (!readable && rows.length === 0 && !window.before) throw notFound(entityType, entityId);
    return { changes: rows.slice(0, window.limit).map(presentChange), hasMore: rows.length > window.limit };
  }

  /** The last change of each field of the entities given that the caller may read (the grid's cells). */
  async latest(
    caller: RequestUser,
    projectName: string,
    entityType: ProjectEntityType,
    entityIds: string[],
    fields?: string[],
  ): Promise<HistoryEntry[]> {
    await this.projects.require(caller, projectName);
    if (entityIds.length === 0) return [];
    const page = await this.entities.query(projectName, entityType, {
      ids: entityIds,
      limit: entityIds.length,
      caller,
      folderFlags: false,
    });
    const readable = page.items.map((item) => String(item.entity.id));
    if (readable.length === 0) return [];
    return (await this.store.latest(projectName, readable, fields)).map(presentChange);
  }

  /** A project's whole history, oldest first, page by page: for managers (an export reads past every folder limit). */
  async *export(
    caller: RequestUser,
    projectName: string,
    window: Pick<HistoryWindow, 'entityType' | 'fields' | 'since' | 'until'>,
  ): AsyncGenerator<HistoryEntry[]> {
    requireManager({ user: caller });
    await this.projects.require(caller, projectName);
    let after: string | undefined;
    for (;;) {
      const rows = await this.store.read(projectName, { ...window, after, oldestFirst: true, limit: 2000 });
      if (rows.length === 0) return;
      yield rows.map(presentChange);
      after = String(rows[rows.length - 1]!.id);
    }
  }
}

function notFound(entityType: string, entityId: string) {
  return new NotFound(`${entityType[0]!.toUpperCase()}${entityType.slice(1)} ${entityId} not found`);
}
