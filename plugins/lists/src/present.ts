import { isoTime, type EventInput, type RequestUser } from '@pipewright/sdk';
import type { Level } from './access-level.js';
import type { EntityList, ListItem, ListSummary } from './schemas.js';
import type { ItemRow, ListRow } from './store.js';

/** What says which list a row is: the start of both its summary and its whole view. */
const listNames = (row: ListRow) => ({
  id: row.id,
  entityListType: row.entity_list_type,
  entityListFolderId: row.entity_list_folder_id,
  entityType: row.entity_type,
  label: row.label,
});

/** A list as AYON's EntityListSummary shows it (create and materialize answers). */
export function summaryOf(row: ListRow, count: number): ListSummary {
  return { ...listNames(row), count };
}

/**
 * An entity_list.* event. AYON dumps its model without aliases, so the summary's keys are snake_case, unlike the
 * REST answers; clients that react to the events read them that way.
 */
export function listEvent(
  topic: 'entity_list.created' | 'entity_list.changed' | 'entity_list.deleted',
  project: string,
  caller: RequestUser,
  row: ListRow,
  count: number,
): EventInput {
  const description =
    topic === 'entity_list.deleted'
      ? `Deleted entity list ${row.label}`
      : `Entity list ${row.label} ${topic === 'entity_list.created' ? 'created' : 'changed'}`;
  return {
    topic,
    project,
    user: caller.name,
    summary: {
      id: row.id,
      entity_list_type: row.entity_list_type,
      entity_list_folder_id: row.entity_list_folder_id,
      entity_type: row.entity_type,
      label: row.label,
      count,
    },
    description,
  };
}

/** An item as GET shows it, with the path of the folder its entity lives in. */
export function presentItem(row: ItemRow, folderPath: string): ListItem {
  return {
    id: row.id,
    entityId: row.entity_id,
    position: row.position,
    label: row.label,
    attrib: row.attrib,
    data: row.data,
    tags: row.tags,
    folderPath,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** A whole list as GET shows it. data.count is the item count, as AYON keeps it there. */
export function presentList(row: ListRow, items: ListItem[], count: number, level: Level): EntityList {
  return {
    ...listNames(row),
    access: row.access,
    attrib: row.attrib,
    data: { ...row.data, count },
    template: row.template,
    tags: row.tags,
    items,
    owner: row.owner,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
    active: row.active,
    accessLevel: level,
  };
}
