import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import { STUDIO } from './migrations.js';

// The access_groups table: one row a group and level (STUDIO, or the project's name for its own version).
// Queries go through the shared handle, so inside a unit of work they join its transaction.

/** Every stored group, as read for the cache. */
export function readGroups(db: Database) {
  return db.selectFrom('access_groups').select(['name', 'project_name', 'data']).execute();
}

/** Create or replace a group at a level; answers true when it is new there. */
export async function upsertGroup(db: Database, name: string, level: string, data: string): Promise<boolean> {
  const row = await db
    .insertInto('access_groups')
    .values({ name, project_name: level, data })
    .onConflict((conflict) =>
      conflict.columns(['name', 'project_name']).doUpdateSet({ data, updated_at: sql`now()` }),
    )
    .returning(sql<boolean>`(xmax = 0)`.as('inserted'))
    .executeTakeFirstOrThrow();
  return row.inserted;
}

/** Delete a group at a level; answers whether there was one. */
export async function deleteGroup(db: Database, name: string, level: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('access_groups')
    .where('name', '=', name)
    .where('project_name', '=', level)
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}

/** Delete a project's own versions of groups (its name in any case); answers whether there were any. */
export async function deleteProjectGroups(db: Database, projectName: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('access_groups')
    .where('project_name', '<>', STUDIO)
    .where(sql<string>`lower(project_name)`, '=', projectName.toLowerCase())
    .executeTakeFirst();
  return Number(deleted.numDeletedRows) > 0;
}
