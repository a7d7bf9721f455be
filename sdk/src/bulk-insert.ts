import { sql } from 'kysely';
import type { Database, DatabaseTransaction } from './addon.js';

/**
 * Insert many rows with one statement whose rows travel as a single JSON parameter: PostgreSQL parses one value
 * instead of thousands of bind parameters, which makes bulk writes several times cheaper than multi-row VALUES.
 * Values are plain JSON (objects for jsonb columns, arrays for array columns). A column some rows leave out takes
 * its value from `defaults`, or NULL; columns no row names keep the table's own defaults. Answers the number of
 * rows written (rows skipped by `onConflict` are not counted).
 */
export async function insertJsonRows(
  db: Database | DatabaseTransaction,
  table: string,
  rows: Record<string, unknown>[],
  options: { defaults?: Record<string, unknown>; onConflict?: string } = {},
): Promise<number> {
  if (!rows.length) return 0;
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))].map((column) => sql.ref(column));
  const [schema, name] = table.includes('.') ? table.split('.') : [null, table];
  // The row type of the table itself converts the JSON: uuid, text[], jsonb and timestamps come out right.
  const rowType = sql.raw(schema ? `${quote(schema)}.${quote(name)}` : quote(name));
  const result = await sql`
    INSERT INTO ${sql.table(table)} (${sql.join(columns)})
    SELECT ${sql.join(columns)}
    FROM jsonb_populate_recordset(jsonb_populate_record(NULL::${rowType}, ${JSON.stringify(options.defaults ?? {})}::jsonb), ${JSON.stringify(rows)}::jsonb)
    ${options.onConflict ? sql.raw(`ON CONFLICT ${options.onConflict}`) : sql``}`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;
