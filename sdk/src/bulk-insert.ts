import { sql } from 'kysely';
import type { Database } from './addon.js';
import { Utf8Writer } from './utf8-writer.js';

/**
 * Insert many rows with one statement whose rows travel as a single JSON parameter: PostgreSQL parses one value
 * instead of thousands of bind parameters, which makes bulk writes several times cheaper than multi-row VALUES.
 * Values are plain JSON (objects for jsonb columns, arrays for array columns). A column some rows leave out takes
 * its value from `defaults`, or NULL; columns no row names keep the table's own defaults. Answers the number of
 * rows written.
 */
export async function insertJsonRows(
  db: Database,
  table: string,
  rows: Record<string, unknown>[],
  options: { defaults?: Record<string, unknown> } = {},
): Promise<number> {
  if (!rows.length) return 0;
  const seen = new Set<string>();
  for (const row of rows) for (const key in row) seen.add(key);
  const names = [...seen];
  // A value every row shares (a project, a user, a status, a timestamp, an empty {}) travels once, in the base record.
  const shared: Record<string, unknown> = {};
  for (const name of names) {
    const value = rows[0][name];
    if (rows.every((row) => name in row && same(row[name], value))) shared[name] = value;
  }
  const sharedNames = Object.keys(shared);
  const varying = sharedNames.length
    ? rows.map((row) => {
        const rest: Record<string, unknown> = {};
        for (const key in row) if (!(key in shared)) rest[key] = row[key];
        return rest;
      })
    : rows;
  const columns = sql.join(names.map((column) => sql.ref(column)));
  const base = JSON.stringify({ ...options.defaults, ...shared });
  const [schema, name] = table.includes('.') ? table.split('.') : [null, table];
  // The row type of the table itself converts the JSON: uuid, text[], jsonb and timestamps come out right.
  const rowType = sql.raw(schema ? `${quote(schema)}.${quote(name)}` : quote(name));
  const result = await sql`
    INSERT INTO ${sql.table(table)} (${columns})
    SELECT ${columns}
    FROM jsonb_populate_recordset(jsonb_populate_record(NULL::${rowType}, ${base}::jsonb), ${jsonbRows(varying)}::jsonb)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

/** Equal plain values, or both empty objects or both empty arrays (`{}` attributes, `[]` tags): cheap to check. */
function same(a: unknown, b: unknown): boolean {
  if (a === b && (a === null || typeof a !== 'object')) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === 0 && b.length === 0;
  return !Array.isArray(b) && isEmpty(a) && isEmpty(b);
}

function isEmpty(value: object): boolean {
  for (const _ in value) return false;
  return true;
}

const quote = (identifier: string) => `"${identifier.replace(/"/g, '""')}"`;

/**
 * Rows as one JSON array in jsonb's binary form (a version byte, then the UTF-8 text). Both drivers pass bytes
 * through untouched, where a string parameter is measured and encoded again in JavaScript (PGlite walks it twice).
 */
function jsonbRows(rows: unknown[]): Buffer {
  const out = new Utf8Writer(rows.length * 200);
  out.write('\u0001');
  out.writeJsonArray(rows);
  return out.result();
}
