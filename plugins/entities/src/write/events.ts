import type { EventInput } from '@pipewright/sdk';
import { TYPE_LABELS, type EntityType, type EntityTypeSpec } from '../entity-types.js';
import type { Batch, Json, Row } from './batch.js';
import { storedValue } from './columns.js';

// The event topic suffix of each changed field (entity.folder.renamed, entity.task.status_changed, ...).
const CHANGE_TOPICS: Record<string, string> = {
  name: 'renamed',
  status: 'status_changed',
  tags: 'tags_changed',
  attrib: 'attrib_changed',
  data: 'data_changed',
  label: 'label_changed',
  folderType: 'type_changed',
  taskType: 'type_changed',
  productType: 'type_changed',
  thumbnailId: 'thumbnail_changed',
  active: 'active_changed',
  assignees: 'assignees_changed',
  parentId: 'parent_changed',
  folderId: 'folder_changed',
  taskId: 'task_changed',
  productId: 'product_changed',
  versionId: 'version_changed',
  version: 'version_changed',
  author: 'author_changed',
  files: 'files_changed',
  path: 'path_changed',
  traits: 'traits_changed',
};

/** An event about the entity whose row (its columns as stored, or as written now) is given. */
export function entityEvent(
  batch: Batch,
  type: EntityType,
  action: string,
  row: Json,
  summary: Json,
): EventInput {
  for (const key in summary) if (summary[key] === undefined) delete summary[key];
  return {
    topic: `entity.${type}.${action}`,
    project: batch.project.name,
    user: batch.caller.name,
    summary,
    description: `${TYPE_LABELS[type]} ${entityName(type, row)} ${action.replace('_', ' ')}`,
  };
}

/**
 * The events of an update: one per topic its changed fields fall under. A topic of one field keeps what it was and
 * what it became, as AYON's do: the activity feed says "from ... to ...".
 */
export function changeEvents(
  batch: Batch,
  spec: EntityTypeSpec,
  change: { id: string; parentId: unknown; before: Row; after: Row; data: Json; changed: string[] },
): EventInput[] {
  const { id, parentId, before, after, data, changed } = change;
  const topics = new Set(changed.map((field) => CHANGE_TOPICS[field]).filter(Boolean));
  return [...topics].map((topic) => {
    const fields = changed.filter((f) => CHANGE_TOPICS[f] === topic);
    const single = fields.length === 1 ? fields[0]! : null;
    const event = entityEvent(batch, spec.type, topic, after, {
      entityId: id,
      parentId,
      value: single ? data[single] : undefined,
    });
    if (single) {
      const column = single in spec.columns ? spec.columns[single] : single;
      event.payload = { oldValue: storedValue(single, before[column]), newValue: data[single] };
    }
    return event;
  });
}

/** What people call an entity: its name; v003 (or HERO) for a version; the file name for a workfile. */
export function entityName(type: EntityType, row: Json): string {
  if (type === 'version') {
    const version = Number(row.version);
    return version < 0 ? 'HERO' : `v${String(version).padStart(3, '0')}`;
  }
  if (type === 'workfile') return String(row.path ?? '').replace(/^.*[\\/]/, '');
  return String(row.name);
}
