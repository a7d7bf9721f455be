import { sql } from 'kysely';
import type { Database } from './addon.js';

/**
 * The schemas holding a table of this name: public and every project_<name> schema whose project migrations made
 * it. For work that touches every project at once (a user rename), in the caller's transaction.
 */
export async function schemasWithTable(db: Database, table: string): Promise<string[]> {
  const { rows } = await sql<{ schema: string }>`
    SELECT n.nspname AS schema FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE c.relname = ${table} AND c.relkind = 'r' AND (n.nspname = 'public' OR n.nspname LIKE 'project\\_%')
    ORDER BY 1`.execute(db);
  return rows.map((row) => row.schema);
}

/**
 * A rename hook (UserDirectory.onRename) for columns that hold a user's name, given as [table, column]: in every
 * schema that has the table, the old name becomes the new one.
 */
export function renameUserIn(db: Database, columns: readonly (readonly [table: string, column: string])[]) {
  return async (oldName: string, newName: string): Promise<void> => {
    for (const [table, column] of columns)
      for (const schema of await schemasWithTable(db, table))
        await sql`UPDATE ${sql.table(`${schema}.${table}`)} SET ${sql.ref(column)} = ${newName}
          WHERE ${sql.ref(column)} = ${oldName}`.execute(db);
  };
}
