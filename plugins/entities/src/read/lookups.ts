import { sql, type RawBuilder } from 'kysely';
import {
  compileFilter,
  ValidationFailed,
  type Database,
  type FieldMap,
  type RequestUser,
} from '@pipewright/sdk';
import type { EntityQuery } from '../api.js';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import type { EntityType } from '../entity-types.js';
import { inheritance, type ReadDeps } from './entities.js';
import { queryEntities } from './query.js';
import { readableBy } from './readable.js';
import { present, selectEntities } from './select.js';
import { formatUri } from './uris.js';

// Lookups AYON clients make by something other than an id list: the URI of each entity, the folders holding
// matching tasks, representations by values in their context.

type Row = Record<string, any>;

// repreContextFilter is a lookup, not a listing: a generous cap keeps one request from reading a whole project.
const MAX_CONTEXT_MATCHES = 1000;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Task fields over selectEntities('task') (aliased t): attrib is the effective, inherited one. */
const TASK_FIELDS: FieldMap = (() => {
  const col = (name: string) => sql.ref(`t.${name}`);
  return {
    id: { expr: col('id'), kind: 'uuid' },
    name: { expr: col('name'), kind: 'text' },
    label: { expr: col('label'), kind: 'text' },
    taskType: { expr: col('task_type'), kind: 'text' },
    folderId: { expr: col('folder_id'), kind: 'uuid' },
    thumbnailId: { expr: col('thumbnail_id'), kind: 'uuid' },
    status: { expr: col('status'), kind: 'text' },
    tags: { expr: col('tags'), kind: 'textArray' },
    assignees: { expr: col('assignees'), kind: 'textArray' },
    active: { expr: col('active'), kind: 'boolean' },
    path: { expr: col('full_path'), kind: 'text' },
    attrib: { expr: col('all_attrib'), kind: 'json' },
    data: { expr: col('data'), kind: 'json' },
    createdBy: { expr: col('created_by'), kind: 'text' },
    updatedBy: { expr: col('updated_by'), kind: 'text' },
    createdAt: { expr: col('created_at'), kind: 'timestamp' },
    updatedAt: { expr: col('updated_at'), kind: 'timestamp' },
  };
})();

/** The ayon+entity:// URI of each entity the caller may read, in the order asked, each id once; unknown ids left out. */
export async function entityUris(
  deps: ReadDeps,
  caller: RequestUser,
  project: ProjectRecord,
  entityType: EntityType,
  ids: string[],
): Promise<{ id: string; uri: string }[]> {
  const { db, attributes, access, schemaName } = deps;
  if (ids.length === 0) return [];
  // Entities the caller may not read are left out, as unknown ids are.
  const [inheritable, base] = await inheritance(attributes, project);
  const scope = await access.scope(caller, project.name, 'read');
  const query: EntityQuery = { ids, limit: ids.length, caller };
  const visible = scope
    ? (
        await queryEntities(db, schemaName(project.name), entityType, query, inheritable, base, {
          scope,
          attributes: null,
        })
      ).items.map((item) => item.entity.id as string)
    : ids;
  const rows = visible.length ? await uriRows(db, schemaName(project.name), entityType, visible) : [];
  const byId = new Map(
    rows.map((row) => [
      row.id as string,
      formatUri({
        project: project.name,
        path: row.folder_path,
        product: row.product ?? null,
        version: row.version ?? null,
        representation: row.representation ?? null,
        task: row.task ?? null,
        workfile: row.workfile ?? null,
      }),
    ]),
  );
  return [...new Set(ids)].filter((id) => byId.has(id)).map((id) => ({ id, uri: byId.get(id)! }));
}

/** Ids of the folders holding tasks the caller may read that match a filter over task fields and a search text. */
export async function tasksFolders(
  deps: ReadDeps,
  caller: RequestUser,
  project: ProjectRecord,
  filter: Parameters<typeof compileFilter>[0],
  searchText: string | null | undefined,
): Promise<string[]> {
  const { db, attributes, access, schemaName } = deps;
  const where = [
    compileFilter(filter, TASK_FIELDS),
    await readableBy(access, schemaName, caller, project, {
      path: sql.ref('t.access_path'),
      id: sql.ref('t.access_folder'),
    }),
  ];
  const search = searchText?.trim();
  if (search) {
    // Plain text, not a pattern: the search's own % and _ match themselves.
    const pattern = `%${escapeLike(search)}%`;
    where.push(
      sql<boolean>`(t.name ILIKE ${pattern} OR t.label ILIKE ${pattern} OR t.task_type ILIKE ${pattern} OR t.full_path ILIKE ${pattern})`,
    );
  }
  const [inheritable, base] = await inheritance(attributes, project);
  const rows = await sql<{ folder_id: string }>`
    SELECT DISTINCT t.folder_id
    FROM (${selectEntities(db, schemaName(project.name), 'task', inheritable, base)}) t
    WHERE ${sql.join(where, sql` AND `)}
    ORDER BY t.folder_id`.execute(db);
  return rows.rows.map((row) => row.folder_id);
}

/** What repreContextFilter asks: names, versions and context values, each list restricting only when given. */
export interface ContextQuery {
  names?: string[];
  versionIds?: string[];
  /** Key to exact values, or AYON clients' [{key, values}] whose values are regular expressions. */
  context?: Record<string, string[]> | { key: string; values: string[] }[];
}

/** Representations the caller may read by name, version and values in data.context (at most 1000). */
export async function representationsInContext(
  deps: ReadDeps,
  caller: RequestUser,
  project: ProjectRecord,
  { names, versionIds, context }: ContextQuery,
) {
  const { db, access, schemaName } = deps;
  const where: RawBuilder<boolean>[] = [
    await readableBy(access, schemaName, caller, project, { path: sql.ref('f.path'), id: sql.ref('f.id') }),
  ];
  // An empty list restricts nothing, as in AYON (its client answers [] itself before asking).
  if (names?.length) where.push(sql<boolean>`r.name = ANY(${names}::text[])`);
  if (versionIds?.length) where.push(sql<boolean>`r.version_id = ANY(${versionIds}::uuid[])`);
  const problems: { loc: (string | number)[]; msg: string; type: string }[] = [];
  const contextCondition = (key: string, values: string[], regex: boolean, loc: (string | number)[]) => {
    const path = key.split('.');
    if (path.some((p) => !/^[A-Za-z_][A-Za-z0-9_]*$/.test(p))) {
      problems.push({ loc, msg: `invalid context key '${key}'`, type: 'value_error' });
      return;
    }
    const value = sql`(r.data->'context') #>> ${path}::text[]`;
    if (values.length === 0) return;
    where.push(
      regex
        ? sql<boolean>`${value} ~ ANY(${values}::text[])`
        : sql<boolean>`${value} = ANY(${values}::text[])`,
    );
  };
  if (Array.isArray(context))
    context.forEach((item, i) =>
      contextCondition(item.key, item.values, true, ['body', 'context', i, 'key']),
    );
  else if (context)
    for (const [key, values] of Object.entries(context))
      contextCondition(key, values, false, ['body', 'context', key]);
  if (problems.length) throw new ValidationFailed(problems);

  let rows: Row[];
  try {
    rows = (
      await sql<Row>`
        ${selectEntities(db, schemaName(project.name), 'representation', [])}
        ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
        ORDER BY r.creation_order
        LIMIT ${MAX_CONTEXT_MATCHES}`.execute(db)
    ).rows;
  } catch (error) {
    // A pattern PostgreSQL cannot compile is the caller's mistake, not ours.
    if ((error as { code?: string }).code === '2201B') {
      throw new ValidationFailed([
        { loc: ['body', 'context'], msg: (error as Error).message, type: 'invalid_regex' },
      ]);
    }
    throw error;
  }
  const representations = rows.map((row) => present('representation', row) as { id: string });
  return { ids: representations.map((r) => r.id), representations };
}

/** What the formatter needs about each entity: its folder path and the names below it. */
async function uriRows(db: Database, schema: string, type: EntityType, ids: string[]): Promise<Row[]> {
  return (await uriQuery(schema, type, sql`${ids}::uuid[]`).execute(db)).rows;
}

/** The read behind uriRows for one entity type. */
function uriQuery(schema: string, type: EntityType, list: RawBuilder<unknown>) {
  const t = (name: string) => sql.table(`${schema}.${name}`);
  switch (type) {
    case 'folder':
      return sql<Row>`SELECT f.id, f.path AS folder_path FROM ${t('folders')} f WHERE f.id = ANY(${list})`;
    case 'task':
      return sql<Row>`SELECT k.id, f.path AS folder_path, k.name AS task FROM ${t('tasks')} k JOIN ${t('folders')} f ON f.id = k.folder_id WHERE k.id = ANY(${list})`;
    case 'workfile':
      return sql<Row>`
        SELECT w.id, f.path AS folder_path, k.name AS task, regexp_replace(w.path, '^.*[/\\\\]', '') AS workfile
        FROM ${t('workfiles')} w JOIN ${t('tasks')} k ON k.id = w.task_id JOIN ${t('folders')} f ON f.id = k.folder_id
        WHERE w.id = ANY(${list})`;
    case 'product':
      return sql<Row>`SELECT p.id, f.path AS folder_path, p.name AS product FROM ${t('products')} p JOIN ${t('folders')} f ON f.id = p.folder_id WHERE p.id = ANY(${list})`;
    case 'version':
      return sql<Row>`
        SELECT v.id, f.path AS folder_path, p.name AS product, v.version
        FROM ${t('versions')} v JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} f ON f.id = p.folder_id
        WHERE v.id = ANY(${list})`;
    case 'representation':
      return sql<Row>`
        SELECT r.id, f.path AS folder_path, p.name AS product, v.version, r.name AS representation
        FROM ${t('representations')} r JOIN ${t('versions')} v ON v.id = r.version_id
          JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} f ON f.id = p.folder_id
        WHERE r.id = ANY(${list})`;
  }
}
