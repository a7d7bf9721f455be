import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { ProductTypeRecord } from '../api.js';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import { SPECS } from '../entity-types.js';

const TABLES = Object.values(SPECS).map((spec) => spec.table);
// Product types without their own appearance are drawn like this (the specs' defaults).
const DEFAULT_APPEARANCE = { color: '#cccccc', icon: 'deployed_code' };

/** The product types a project's products use, each with its appearance (configured, else the default). */
export async function productTypes(
  db: Database,
  schema: string,
  project: ProjectRecord,
): Promise<ProductTypeRecord[]> {
  const rows = await sql<{
    name: string;
  }>`SELECT DISTINCT product_type AS name FROM ${sql.table(`${schema}.products`)} ORDER BY 1`.execute(db);
  const configured = (project.config.productBaseTypes ?? {}) as Record<
    string,
    { color?: string; icon?: string }
  >;
  return rows.rows.map(({ name }) => ({
    name,
    baseType: name,
    ...DEFAULT_APPEARANCE,
    ...(configured[name] ?? {}),
  }));
}

/** What a project's entities use: tags across every entity table, folder and task types. */
export async function usage(
  db: Database,
  schema: string,
): Promise<{ tags: string[]; folderTypes: string[]; taskTypes: string[] }> {
  const table = (name: string) => sql.table(`${schema}.${name}`);
  const tags = await sql<{ tag: string }>`
    SELECT DISTINCT tag FROM (${sql.join(
      TABLES.map((name) => sql`SELECT unnest(tags) AS tag FROM ${table(name)}`),
      sql` UNION ALL `,
    )}) t ORDER BY tag`.execute(db);
  const distinct = async (column: string, name: string) =>
    (
      await sql<{
        value: string;
      }>`SELECT DISTINCT ${sql.ref(column)} AS value FROM ${table(name)} ORDER BY 1`.execute(db)
    ).rows.map((row) => row.value);
  return {
    tags: tags.rows.map((row) => row.tag),
    folderTypes: await distinct('folder_type', 'folders'),
    taskTypes: await distinct('task_type', 'tasks'),
  };
}

/** How many entities of each table the project holds, and how many in each status. */
export async function stats(db: Database, schema: string) {
  const rows = await sql<{ entity: string; status: string; n: number }>`
    ${sql.join(
      TABLES.map(
        (table) =>
          sql`SELECT ${table} AS entity, status, count(*) AS n FROM ${sql.table(`${schema}.${table}`)} GROUP BY status`,
      ),
      sql` UNION ALL `,
    )}`.execute(db);
  const counts = Object.fromEntries(TABLES.map((t) => [t, 0])) as Record<string, number>;
  const statuses = Object.fromEntries(TABLES.map((t) => [t, {} as Record<string, number>]));
  for (const row of rows.rows) {
    counts[row.entity] += row.n;
    statuses[row.entity][row.status] = row.n;
  }
  return { counts, statuses };
}

/** The tags in use in each entity table, sorted. */
export async function tagsPerTable(db: Database, schema: string): Promise<Record<string, string[]>> {
  const rows = await sql<{ entity: string; tag: string }>`
    ${sql.join(
      TABLES.map(
        (table) =>
          sql`SELECT DISTINCT ${table} AS entity, unnest(tags) AS tag FROM ${sql.table(`${schema}.${table}`)}`,
      ),
      sql` UNION ALL `,
    )} ORDER BY tag`.execute(db);
  const tags = Object.fromEntries(TABLES.map((t) => [t, [] as string[]]));
  for (const row of rows.rows) tags[row.entity].push(row.tag);
  return tags;
}
