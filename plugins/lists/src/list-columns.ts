import { mergePatch, type RequestUser } from '@pipewright/sdk';
import type { ListCreate, ListPatch } from './schemas.js';
import type { ListColumns, ListRow } from './store.js';

/** The columns of a new list: what the body gives, AYON's defaults for the rest; the creator owns it by default. */
export function newListColumns(body: ListCreate, caller: RequestUser): ListColumns {
  return {
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
}

/** The columns a PATCH changes: attrib and data merge into the current ones, the others replace. */
export function patchedColumns(body: ListPatch, current: ListRow): ListColumns {
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
  return columns;
}
