import { isoTime, type Static } from '@pipewright/sdk';
import type { ProjectLayout } from '@pipewright/plugin-anatomy/api';
import type { ProjectRecord } from './api.js';
import { linkTypeOnWire } from './columns.js';
import type { Project } from './schemas.js';
import type { Row } from './store.js';

// A stored project as others see it: on the wire (GET /api/projects/{name}), as the record other addons use, and
// as the layout the anatomy addon converts.

type Json = Record<string, unknown>;

/** The project as the API answers it; attrib holds the attribute defaults under the project's own values. */
export function presentRow(row: Row, defaults: Json): Static<typeof Project> {
  return {
    name: row.name,
    code: row.code,
    library: row.library,
    active: row.active,
    folderTypes: row.folder_types,
    taskTypes: row.task_types,
    linkTypes: (row.link_types as Json[]).map(linkTypeOnWire),
    statuses: row.statuses,
    tags: row.tags,
    config: row.config,
    attrib: { ...defaults, ...row.attrib },
    ownAttrib: Object.keys(row.attrib),
    data: row.data,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** The record other addons get (ProjectDirectory), from the project as presented. */
export function recordOf(presented: Static<typeof Project>): ProjectRecord {
  return {
    name: presented.name,
    code: presented.code,
    library: presented.library,
    active: presented.active,
    attrib: presented.attrib,
    folderTypes: presented.folderTypes as ProjectRecord['folderTypes'],
    taskTypes: presented.taskTypes as ProjectRecord['taskTypes'],
    statuses: presented.statuses as ProjectRecord['statuses'],
    tags: presented.tags as ProjectRecord['tags'],
    linkTypes: presented.linkTypes as ProjectRecord['linkTypes'],
    config: presented.config,
    data: presented.data,
    createdAt: presented.createdAt,
    updatedAt: presented.updatedAt,
  };
}

/** The part of a row an anatomy describes. */
export function layoutOf(row: Row): ProjectLayout {
  return {
    folderTypes: row.folder_types,
    taskTypes: row.task_types,
    linkTypes: row.link_types,
    statuses: row.statuses,
    tags: row.tags,
    attrib: row.attrib,
    config: row.config,
  };
}
