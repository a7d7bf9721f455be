import { sql } from 'kysely';
import type { Database, Static } from '@pipewright/sdk';
import type { ProjectListQuery } from './schemas.js';

// The SQL of the projects addon: public.projects rows (names match regardless of case) and the roots each site
// sets for a project. Queries go through the handle given: inside a unit of work, its transaction.

/** A public.projects row as stored. */
export type Row = Record<string, any>;

const ORDER_COLUMNS = { name: 'name', createdAt: 'created_at', updatedAt: 'updated_at' } as const;

const byName = (name: string) => sql<boolean>`lower(name) = ${name.toLowerCase()}`;

/** The row of a project by its name in any case, or undefined. */
export function findRow(db: Database, name: string): Promise<Row | undefined> {
  return db.selectFrom('projects').selectAll().where(byName(name)).executeTakeFirst();
}

/** Whether a project of that name (in any case) exists. */
export async function projectExists(db: Database, name: string): Promise<boolean> {
  return (
    (await db.selectFrom('projects').select('name').where(byName(name)).executeTakeFirst()) !== undefined
  );
}

/** A page of the projects a query selects, and how many it selects in all; visible limits them (lower case). */
export async function listRows(
  db: Database,
  query: Static<typeof ProjectListQuery>,
  visible: string[] | null,
): Promise<{ count: number; rows: Row[] }> {
  let select = db.selectFrom('projects');
  if (query.library !== undefined) select = select.where('library', '=', query.library);
  if (query.active !== undefined) select = select.where('active', '=', query.active);
  if (query.name) select = select.where('name', 'ilike', query.name);
  if (visible) select = select.where(sql<string>`lower(name)`, 'in', visible);
  const { count } = await select.select(sql<number>`count(*)`.as('count')).executeTakeFirstOrThrow();
  let page = select
    .select(['name', 'code', 'active', 'library', 'created_at', 'updated_at'])
    .orderBy(ORDER_COLUMNS[query.order ?? 'name'], query.desc ? 'desc' : 'asc')
    .orderBy('name');
  // As AYON: no length (or 0) lists every project; a negative one too here, where AYON's database refuses it.
  // Past 2^53 a number is no longer exact: such pages are empty anyway.
  if (query.length && query.length > 0) {
    const length = Math.min(query.length, Number.MAX_SAFE_INTEGER);
    page = page.limit(length).offset(Math.min((query.page - 1) * length, Number.MAX_SAFE_INTEGER));
  }
  return { count, rows: await page.execute() };
}

/** Every project's name, in name order, optionally only active or library ones. */
export async function projectNames(
  db: Database,
  filter: { active?: boolean; library?: boolean },
): Promise<string[]> {
  let select = db.selectFrom('projects').select('name').orderBy('name');
  if (filter.library !== undefined) select = select.where('library', '=', filter.library);
  if (filter.active !== undefined) select = select.where('active', '=', filter.active);
  return (await select.execute()).map((row) => row.name as string);
}

/** Insert a project's row (its columns as columns() gives them). */
export async function insertRow(db: Database, values: Row): Promise<void> {
  await db.insertInto('projects').values(values).execute();
}

/** Set columns of a project's row and answer the row as it is now. */
export function updateRow(db: Database, name: string, values: Row): Promise<Row> {
  return db
    .updateTable('projects')
    .set({ ...values, updated_at: sql`now()` })
    .where('name', '=', name)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Delete a project's row (its exact name). */
export async function deleteRow(db: Database, name: string): Promise<void> {
  await db.deleteFrom('projects').where('name', '=', name).execute();
}

/** The roots a site set for a project, or undefined. */
export async function siteRootsRow(
  db: Database,
  projectName: string,
  siteId: string,
): Promise<Record<string, string> | undefined> {
  const custom = await db
    .selectFrom('project_site_roots')
    .select('roots')
    .where('project_name', '=', projectName)
    .where('site_id', '=', siteId)
    .executeTakeFirst();
  return custom?.roots as Record<string, string> | undefined;
}

/** Store the roots a site sets for a project, replacing any. */
export async function saveSiteRoots(
  db: Database,
  projectName: string,
  siteId: string,
  roots: Record<string, string>,
): Promise<void> {
  await db
    .insertInto('project_site_roots')
    .values({ project_name: projectName, site_id: siteId, roots: JSON.stringify(roots) })
    .onConflict((oc) => oc.columns(['project_name', 'site_id']).doUpdateSet({ roots: JSON.stringify(roots) }))
    .execute();
}
