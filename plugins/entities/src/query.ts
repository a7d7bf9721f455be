import { sql, type RawBuilder } from 'kysely';
import {
  compileFilter,
  ValidationFailed,
  type Database,
  type EntityPage,
  type EntityQuery,
  type FieldKind,
  type FieldMap,
} from '@pipewright/sdk';
import { hideAttributes, scopeCondition, type ReadAccess } from './access.js';
import type { EntityType } from './entity-types.js';
import { present, selectEntities } from './store.js';

/** The column naming each type's parent, and the column holding its "type" where it has one. */
const PARENT: Record<EntityType, string> = {
  folder: 'parent_id',
  task: 'folder_id',
  product: 'folder_id',
  version: 'product_id',
  representation: 'version_id',
  workfile: 'task_id',
};
const TYPE_COLUMN: Partial<Record<EntityType, string>> = {
  folder: 'folder_type',
  task: 'task_type',
  product: 'product_type',
};

/** Wire keys a QueryFilter may name, per type, over the wrapped select (alias e). */
function filterFields(type: EntityType): FieldMap {
  const col = (name: string, kind: FieldKind) => ({ expr: sql.ref(`e.${name}`), kind });
  const fields: FieldMap = {
    id: col('id', 'uuid'),
    name: col('name', 'text'),
    status: col('status', 'text'),
    tags: col('tags', 'textArray'),
    active: col('active', 'boolean'),
    attrib: col('all_attrib', 'json'),
    data: col('data', 'json'),
    path: col('full_path', 'text'),
    createdAt: col('created_at', 'timestamp'),
    updatedAt: col('updated_at', 'timestamp'),
    createdBy: col('created_by', 'text'),
    updatedBy: col('updated_by', 'text'),
  };
  const extra: Record<EntityType, FieldMap> = {
    folder: {
      label: col('label', 'text'),
      folderType: col('folder_type', 'text'),
      parentId: col('parent_id', 'uuid'),
    },
    task: {
      label: col('label', 'text'),
      taskType: col('task_type', 'text'),
      folderId: col('folder_id', 'uuid'),
      assignees: col('assignees', 'textArray'),
    },
    product: { folderId: col('folder_id', 'uuid'), productType: col('product_type', 'text') },
    version: {
      version: col('version', 'integer'),
      productId: col('product_id', 'uuid'),
      taskId: col('task_id', 'uuid'),
      author: col('author', 'text'),
    },
    representation: { versionId: col('version_id', 'uuid') },
    workfile: { taskId: col('task_id', 'uuid') },
  };
  return { ...fields, ...extra[type] };
}

/** Cursors are opaque to clients: base64 of the creation order, which is unique and never changes. */
export const encodeCursor = (order: number) => Buffer.from(JSON.stringify([order])).toString('base64');

function decodeCursor(cursor: string, loc: string): number {
  try {
    const [order] = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    if (Number.isSafeInteger(order)) return order;
  } catch {
    // answered below
  }
  throw new ValidationFailed([
    { loc: [loc], msg: 'Not a cursor this server gave out', type: 'value_error.cursor' },
  ]);
}

const any = (column: string, values: unknown[], cast: string) =>
  sql<boolean>`${sql.ref(`e.${column}`)} = ANY(${values}::${sql.raw(cast)})`;

/** The WHERE conditions of a query, every value bound as a parameter. */
function conditions(type: EntityType, schema: string, q: EntityQuery): RawBuilder<boolean>[] {
  const where: RawBuilder<boolean>[] = [];
  const parent = PARENT[type];
  if (q.ids) where.push(any('id', q.ids, 'uuid[]'));
  if (q.parentIds) {
    const ids = q.parentIds.filter((id): id is string => id !== null);
    const root =
      q.parentIds.length > ids.length ? sql<boolean>`${sql.ref(`e.${parent}`)} IS NULL` : sql<boolean>`false`;
    where.push(sql<boolean>`(${any(parent, ids, 'uuid[]')} OR ${root})`);
  }
  if (q.names) where.push(sql<boolean>`lower(e.name) = ANY(${q.names.map((n) => n.toLowerCase())}::text[])`);
  if (q.name) where.push(sql<boolean>`e.name ILIKE ${q.name}`);
  if (q.paths) {
    const paths = q.paths.map((p) => '/' + p.replace(/^\/+|\/+$/g, ''));
    where.push(sql<boolean>`e.full_path = ANY(${paths}::text[])`);
  }
  const typeColumn = TYPE_COLUMN[type];
  if (q.types && typeColumn) where.push(any(typeColumn, q.types, 'text[]'));
  if (q.statuses) where.push(any('status', q.statuses, 'text[]'));
  if (q.tags) where.push(sql<boolean>`e.tags && ${q.tags}::text[]`);
  if (q.assignees && type === 'task') where.push(sql<boolean>`e.assignees && ${q.assignees}::text[]`);
  if (q.active !== undefined) where.push(sql<boolean>`e.active = ${q.active}`);
  if (type === 'version') {
    if (q.versions) where.push(any('version', q.versions, 'int[]'));
    if (q.taskIds) where.push(any('task_id', q.taskIds, 'uuid[]'));
    if (q.authors) where.push(any('author', q.authors, 'text[]'));
    const versions = sql.table(`${schema}.versions`);
    const latest = sql<boolean>`e.version = (SELECT max(l.version) FROM ${versions} l WHERE l.product_id = e.product_id AND l.version >= 0)`;
    if (q.heroOnly) where.push(sql<boolean>`e.version < 0`);
    if (q.latestOnly) where.push(latest);
    if (q.heroOrLatestOnly) {
      where.push(
        sql<boolean>`(e.version < 0 OR (${latest} AND NOT EXISTS (SELECT 1 FROM ${versions} h WHERE h.product_id = e.product_id AND h.version < 0)))`,
      );
    }
  }
  if (q.filter) where.push(compileFilter(q.filter, filterFields(type), ['filter']));
  if (q.after) where.push(sql<boolean>`e.creation_order > ${decodeCursor(q.after, 'after')}`);
  if (q.before) where.push(sql<boolean>`e.creation_order < ${decodeCursor(q.before, 'before')}`);
  return where;
}

/**
 * One page of entities in creation order, with their derived fields. One row beyond the limit is read to know
 * whether more follow. With `per` the limit applies to each parent (or task) separately, so the nested
 * connections of many entities take one statement, and the page names the groups that have more.
 */
export async function queryEntities(
  db: Database,
  schema: string,
  type: EntityType,
  q: EntityQuery,
  inheritable: string[],
  base: Record<string, unknown>,
  access: ReadAccess = { scope: null, attributes: null },
): Promise<EntityPage> {
  const where = conditions(type, schema, q);
  // Rows outside the caller's read access are left out, as if they did not exist.
  if (access.scope?.ownTasksOnly && q.caller && type === 'task')
    where.push(sql<boolean>`${q.caller.name} = ANY(e.assignees)`);
  if (access.scope && q.caller) {
    where.push(
      scopeCondition(
        schema,
        access.scope,
        q.caller.name,
        { path: sql.ref('e.access_path'), id: sql.ref('e.access_folder') },
        type === 'folder',
      ),
    );
  }
  const whereSql = where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
  const direction = sql.raw(q.fromEnd ? 'DESC' : 'ASC');
  const group = q.per === 'task' ? 'task_id' : PARENT[type];
  const inner = selectEntities(db, schema, type, inheritable, base, q.folderFlags ?? true);
  const query = q.per
    ? sql<Record<string, any>>`
        SELECT * FROM (
          SELECT e.*, row_number() OVER (PARTITION BY ${sql.ref(`e.${group}`)} ORDER BY e.creation_order ${direction}) AS rank_in_group
          FROM (${inner}) e ${whereSql}
        ) ranked WHERE rank_in_group <= ${q.limit + 1} ORDER BY creation_order ${direction}`
    : sql<
        Record<string, any>
      >`SELECT * FROM (${inner}) e ${whereSql} ORDER BY e.creation_order ${direction} LIMIT ${q.limit + 1}`;
  let rows = (await query.execute(db)).rows;
  let groupsWithMore: (string | null)[] = [];
  let hasMore: boolean;
  if (q.per) {
    groupsWithMore = rows
      .filter((row) => Number(row.rank_in_group) > q.limit)
      .map((row) => row[group] ?? null);
    hasMore = groupsWithMore.length > 0;
    rows = rows.filter((row) => Number(row.rank_in_group) <= q.limit);
  } else {
    hasMore = rows.length > q.limit;
    rows = rows.slice(0, q.limit);
  }
  if (q.fromEnd) rows.reverse();
  return {
    hasMore,
    groupsWithMore,
    items: rows.map((row) => ({
      cursor: encodeCursor(Number(row.creation_order)),
      entity: hideAttributes(present(type, row), access.attributes),
    })),
  };
}
