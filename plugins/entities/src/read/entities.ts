import type { Database } from '@pipewright/sdk';
import type { AttributeLibrary } from '@pipewright/plugin-attributes/api';
import type { EntityPage, EntityQuery } from '../api.js';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import type { FolderAccess } from '../access.js';
import type { EntityType } from '../entity-types.js';
import { projectBase } from '../inheritance.js';
import { queryEntities } from './query.js';

/** What the read path needs besides its arguments. */
export interface ReadDeps {
  db: Database;
  attributes: AttributeLibrary;
  access: FolderAccess;
  schemaName: (project: string) => string;
}

/** What reads need to compute inherited attributes: the keys that inherit, and the project's values for them. */
export async function inheritance(
  attributes: AttributeLibrary,
  project: ProjectRecord,
): Promise<[string[], Record<string, unknown>]> {
  const keys = await attributes.inheritable('folder');
  return [keys, projectBase(project.attrib, keys)];
}

/** A page of entities as query.caller may read them: rows and attributes outside their access are left out. */
export async function readEntities(
  { db, attributes, access, schemaName }: ReadDeps,
  project: ProjectRecord,
  type: EntityType,
  query: EntityQuery,
): Promise<EntityPage> {
  const readAccess = await access.read(query.caller, project.name);
  return queryEntities(
    db,
    schemaName(project.name),
    type,
    query,
    ...(await inheritance(attributes, project)),
    readAccess,
  );
}
