import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';

const TABLES = ['folders', 'products', 'versions', 'representations', 'tasks', 'workfiles'] as const;
export type EntityCounts = Record<(typeof TABLES)[number], number>;

/**
 * How many entities of each type a project holds, active or not (as AYON counts them). The tables belong to the
 * entities addon, which this addon depends on; counting is one statement over all six.
 */
export async function countEntities(db: Database, schema: string): Promise<EntityCounts> {
  const { rows } = await sql<{ entity: string; n: number }>`
    ${sql.join(
      TABLES.map(
        (table) => sql`SELECT ${table} AS entity, count(*) AS n FROM ${sql.table(`${schema}.${table}`)}`,
      ),
      sql` UNION ALL `,
    )}`.execute(db);
  const counts = Object.fromEntries(TABLES.map((table) => [table, 0])) as EntityCounts;
  for (const row of rows) counts[row.entity as keyof EntityCounts] = Number(row.n);
  return counts;
}
