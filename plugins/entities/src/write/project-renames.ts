import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { ProjectChange } from '@pipewright/plugin-projects/api';
import { SPECS } from '../entity-types.js';

/**
 * Carry renamed statuses and types over to the project's entities. Project attribute values are overlaid when
 * entities are read: nothing stored depends on them.
 */
export async function carryProjectRenames(
  db: Database,
  schema: string,
  change: ProjectChange,
): Promise<void> {
  for (const [column, renames] of [
    ['status', change.renamed.statuses],
    ['folder_type', change.renamed.folderTypes],
    ['task_type', change.renamed.taskTypes],
  ] as const) {
    const tables =
      column === 'status'
        ? Object.values(SPECS).map((s) => s.table)
        : [column === 'folder_type' ? 'folders' : 'tasks'];
    for (const [from, to] of Object.entries(renames ?? {})) {
      for (const table of tables)
        await sql`UPDATE ${sql.table(`${schema}.${table}`)} SET ${sql.ref(column)} = ${to} WHERE ${sql.ref(column)} = ${from}`.execute(
          db,
        );
    }
  }
}
