import { sql } from 'kysely';
import {
  requireUser,
  type AddonApp,
  type Database,
  type ProductTypeRecord,
  type ProjectRecord,
} from '@pipewright/sdk';
import { SPECS } from './entity-types.js';
import type { Deps } from './routes.js';
import { ProductTypes, ProjectParams, ProjectStats, ProjectTags } from './routes/schemas.js';

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

/** What a project holds, counted and listed across the entity tables. */
export function projectSummaryRoutes({ db, projects, schemaName }: Deps) {
  return async (app: AddonApp) => {
    app.get(
      '/api/projects/:project_name/stats',
      {
        schema: {
          summary: 'How many entities of each type the project holds, and in which statuses',
          params: ProjectParams,
          response: { 200: ProjectStats },
        },
      },
      async (request) => {
        const project = await projects.require(requireUser(request), request.params.project_name);
        const schema = schemaName(project.name);
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
        return { counts: counts as any, statuses };
      },
    );

    app.get(
      '/api/projects/:project_name/tags',
      {
        schema: {
          summary: 'Tags in use, per entity type',
          params: ProjectParams,
          response: { 200: ProjectTags },
        },
      },
      async (request) => {
        const project = await projects.require(requireUser(request), request.params.project_name);
        const schema = schemaName(project.name);
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
        return tags as any;
      },
    );

    app.get(
      '/api/projects/:project_name/productTypes',
      {
        schema: {
          summary: 'Product types used in the project, with their appearance',
          params: ProjectParams,
          response: { 200: ProductTypes },
        },
      },
      async (request) => {
        const project = await projects.require(requireUser(request), request.params.project_name);
        return { productTypes: await productTypes(db, schemaName(project.name), project) };
      },
    );
  };
}
