import { sql } from 'kysely';
import { renameUserIn, schemasWithTable, type Database } from '@pipewright/sdk';
import { SPECS } from '../entity-types.js';

/** Carry a renamed user into every project's entities: task assignees, version authors, who made and changed what. */
export function carryUserRenames(db: Database) {
  const columns = renameUserIn(db, [
    ['versions', 'author'],
    ...Object.values(SPECS).flatMap(({ table }) => [
      [table, 'created_by'] as const,
      [table, 'updated_by'] as const,
    ]),
  ]);
  return async (oldName: string, newName: string): Promise<void> => {
    for (const schema of await schemasWithTable(db, 'tasks'))
      await sql`UPDATE ${sql.table(`${schema}.tasks`)} SET assignees = array_replace(assignees, ${oldName}, ${newName})
        WHERE ${oldName} = ANY(assignees)`.execute(db);
    await columns(oldName, newName);
  };
}
