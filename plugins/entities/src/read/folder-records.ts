import { sql, type RawBuilder } from 'kysely';
import type { Database, FolderScope, RequestUser } from '@pipewright/sdk';
import { scopeCondition } from '../access.js';

// Separators of the records folderRecords answers: control characters no name, status or type contains (labels
// travel as JSON).
export const RECORD = '\x1e';
export const FIELD = '\x1f';
export const TASK = '\x1d';

/** Ids as 32 hex digits, as the API spells them (and cheaper than uuid's own text form). */
export const hex = (column: string) => sql`encode(uuid_send(${sql.ref(column)}), 'hex')`;

// Tree order: each folder followed by its subtree, siblings by name byte by byte (the same order on every server,
// whatever its locale, and far cheaper to sort than a linguistic collation). That is the order of the paths with
// their slashes read as the lowest character: "a/b" before "a-b", which plain path order puts first.
const treeOrder = sql`replace(f.path, '/', chr(1)) COLLATE "C"`;

/**
 * The active folders the caller may read (with their ancestors, so the tree stays whole) as one text value: a
 * record per folder, in tree order (treeOrder), of the given fields and then the folder's task names (TASK
 * between them, unsorted); FIELD and RECORD separate the rest. One value instead of a row per folder is what
 * keeps large trees fast: rows, not SQL, are the cost (on PGlite above all), and building each folder's JSON in
 * SQL costs more than building it here.
 */
export async function folderRecords(
  db: Database,
  schema: string,
  caller: RequestUser,
  readScope: FolderScope | null,
  fields: RawBuilder<unknown>[],
): Promise<string> {
  const t = (name: string) => sql.table(`${schema}.${name}`);
  // Users whose groups hide sibling tasks see only their own task names.
  const ownTasks = readScope?.ownTasksOnly ? sql`WHERE ${caller.name} = ANY(assignees)` : sql``;
  const readable = readScope
    ? scopeCondition(schema, readScope, caller.name, { path: sql.ref('f.path'), id: sql.ref('f.id') }, true)
    : sql`true`;
  // Tasks arrive ordered by folder so that they group without a hash table (which spills to disk at this size).
  const { rows } = await sql<{ records: string | null }>`
    SELECT string_agg(concat_ws(chr(31), ${sql.join(fields)}, coalesce(k.names, '')), chr(30) ORDER BY ${treeOrder})
      AS records
    FROM ${t('folders')} f LEFT JOIN (
      SELECT folder_id, string_agg(name, chr(29)) AS names
      FROM (SELECT folder_id, name FROM ${t('tasks')} ${ownTasks} ORDER BY folder_id) sorted
      GROUP BY folder_id
    ) k ON k.folder_id = f.id
    WHERE f.active AND ${readable}`.execute(db);
  return rows[0]?.records ?? '';
}
