import { sql, type RawBuilder } from 'kysely';
import type { RequestUser } from '@pipewright/sdk';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import { scopeCondition, type FolderAccess } from '../access.js';

/** SQL: the entity (whose folder has this path and id) is one the caller may read; true when unrestricted. */
export async function readableBy(
  access: FolderAccess,
  schemaName: (project: string) => string,
  caller: RequestUser,
  project: ProjectRecord,
  folder: { path: RawBuilder<unknown>; id: RawBuilder<unknown> },
): Promise<RawBuilder<boolean>> {
  const scope = await access.scope(caller, project.name, 'read');
  return scope
    ? scopeCondition(schemaName(project.name), scope, caller.name, folder, false)
    : sql<boolean>`true`;
}
