import { sql } from 'kysely';
import { renameUserIn, schemasWithTable, type Database } from '@pipewright/sdk';

/**
 * Carry a renamed user into every project's feed: who wrote an activity or attached its files, whom an assignment
 * names, and the user references that make inboxes, mentions and watchers.
 */
export async function carryUserRename(db: Database, oldName: string, newName: string): Promise<void> {
  const references = renameUserIn(db, [['activity_references', 'entity_name']]);
  const name = JSON.stringify(newName);
  for (const schema of await schemasWithTable(db, 'activities')) {
    const activities = sql.table(`${schema}.activities`);
    await sql`UPDATE ${activities} SET data = jsonb_set(data, '{author}', ${name}::jsonb)
      WHERE data->>'author' = ${oldName}`.execute(db);
    await sql`UPDATE ${activities} SET data = jsonb_set(data, '{assignee}', ${name}::jsonb)
      WHERE data->>'assignee' = ${oldName}`.execute(db);
    await sql`UPDATE ${activities} SET data = jsonb_set(data, '{files}', (
        SELECT jsonb_agg(CASE WHEN file->>'author' = ${oldName}
          THEN jsonb_set(file, '{author}', ${name}::jsonb) ELSE file END ORDER BY position)
        FROM jsonb_array_elements(data->'files') WITH ORDINALITY AS files(file, position)))
      WHERE jsonb_typeof(data->'files') = 'array'
        AND EXISTS (SELECT 1 FROM jsonb_array_elements(data->'files') AS file WHERE file->>'author' = ${oldName})`.execute(
      db,
    );
  }
  // Only user references have a name (a check constraint of the table).
  await references(oldName, newName);
}
