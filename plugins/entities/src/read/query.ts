import { sql, type RawBuilder } from 'kysely';
import {
  compileFilter,
  prepared,
  ValidationFailed,
  type Database,
  type FieldKind,
  type FieldMap,
} from '@pipewright/sdk';
import type { EntityPage, EntityQuery } from '../api.js';
import { hideAttributes, scopeCondition, type ReadAccess } from '../access.js';
import type { EntityType } from '../entity-types.js';
import { inSubtree } from '../subtree.js';
import { present, selectEntities } from './select.js';

const INVALID_REGEX = '2201B';
/**
 * Up to this many entities by id, the read is a prepared statement on PostgreSQL, and folders' has* flags come
 * from functions that keep their plans on PGlite too (see select.ts).
 */
const FEW_BY_ID = 10;

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
      thumbnailId: col('thumbnail_id', 'uuid'),
      label: col('label', 'text'),
      folderType: col('folder_type', 'text'),
      parentId: col('parent_id', 'uuid'),
    },
    task: {
      thumbnailId: col('thumbnail_id', 'uuid'),
      label: col('label', 'text'),
      taskType: col('task_type', 'text'),
      folderId: col('folder_id', 'uuid'),
      assignees: col('assignees', 'textArray'),
    },
    product: { folderId: col('folder_id', 'uuid'), productType: col('product_type', 'text') },
    version: {
      version: col('version', 'integer'),
      thumbnailId: col('thumbnail_id', 'uuid'),
      productId: col('product_id', 'uuid'),
      taskId: col('task_id', 'uuid'),
      author: col('author', 'text'),
    },
    representation: { versionId: col('version_id', 'uuid') },
    workfile: { taskId: col('task_id', 'uuid'), thumbnailId: col('thumbnail_id', 'uuid') },
  };
  return { ...fields, ...extra[type] };
}

/**
 * Cursors are opaque to clients: base64 of [creation order], or of [sort value, creation order] when a page is
 * sorted by another key; the creation order is unique and never changes, so either is a total order.
 */
export const encodeCursor = (order: number, sortValue?: unknown) =>
  Buffer.from(JSON.stringify(sortValue === undefined ? [order] : [sortValue, order])).toString('base64');

function decodeCursor(cursor: string, loc: string): { order: number; value?: unknown } {
  try {
    const parts = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    const order = Array.isArray(parts) ? parts.at(-1) : undefined;
    if (Number.isSafeInteger(order) && parts.length <= 2)
      return parts.length === 2 ? { order, value: parts[0] } : { order };
  } catch {
    // answered below
  }
  throw new ValidationFailed([
    { loc: [loc], msg: 'Not a cursor this server gave out', type: 'value_error.cursor' },
  ]);
}

/** A sort key: its SQL expression over the wrapped select, and how its values travel in a cursor. */
interface SortKey {
  expr: RawBuilder<unknown>;
  kind: 'text' | 'integer' | 'timestamp' | 'json';
}

const ref = (column: string) => sql.ref(`e.${column}`);

/** The sortBy keys of each type (AYON's), besides attrib.<name>. */
const SORT_KEYS: Record<EntityType, Record<string, SortKey>> = {
  folder: {
    folderType: { expr: ref('folder_type'), kind: 'text' },
  },
  task: {
    taskType: { expr: ref('task_type'), kind: 'text' },
    assignees: { expr: sql`array_to_string(e.assignees, '')`, kind: 'text' },
    path: { expr: ref('full_path'), kind: 'text' },
  },
  product: {
    productType: { expr: ref('product_type'), kind: 'text' },
  },
  version: {
    version: { expr: ref('version'), kind: 'integer' },
  },
  representation: {},
  workfile: {},
};

function sortKey(type: EntityType, key: string): SortKey {
  const common: Record<string, SortKey> = {
    createdAt: { expr: ref('created_at'), kind: 'timestamp' },
    updatedAt: { expr: ref('updated_at'), kind: 'timestamp' },
    ...(type === 'version' ? {} : { name: { expr: ref('name'), kind: 'text' as const } }),
    ...(type === 'product' ? {} : { status: { expr: ref('status'), kind: 'text' as const } }),
  };
  const found = SORT_KEYS[type][key] ?? common[key];
  if (found) return found;
  const attribute = /^attrib\.([A-Za-z_][A-Za-z0-9_]*)$/.exec(key)?.[1];
  // An unset attribute sorts as JSON null, first: rows compare whole, so no NULL may break the order.
  if (attribute) return { expr: sql`coalesce(e.all_attrib -> ${attribute}, 'null'::jsonb)`, kind: 'json' };
  throw new ValidationFailed([
    {
      loc: ['sortBy'],
      msg: `cannot sort ${type}s by '${key}'; use one of ${[...Object.keys(common), ...Object.keys(SORT_KEYS[type])].join(', ')} or attrib.<name>`,
      type: 'value_error.sort',
    },
  ]);
}

/** A cursor's sort value as an SQL value of the key's type. */
function sortValue(key: SortKey, value: unknown): RawBuilder<unknown> {
  switch (key.kind) {
    case 'json':
      return sql`${JSON.stringify(value ?? null)}::jsonb`;
    case 'timestamp':
      return sql`${String(value)}::timestamptz`;
    case 'integer':
      return sql`${Number(value)}::int`;
    default:
      return sql`${String(value)}::text`;
  }
}

/** What each type's search terms are looked for in (AYON's fuzzy search): names, labels, types, paths. */
const SEARCHED: Record<EntityType, string[]> = {
  folder: ['name', 'label', 'access_path'],
  task: ['name', 'label', 'task_type', 'access_path'],
  product: ['name', 'product_type', 'access_path'],
  version: ['product_name', 'product_type', 'access_path'],
  representation: ['product_name', 'product_type', 'access_path', 'name'],
  workfile: ['task_name', 'task_type', 'access_path', 'path'],
};

function searchTerm(type: EntityType, term: string): RawBuilder<boolean> {
  const pattern = `%${term}%`;
  const parts = SEARCHED[type].map((column) => sql<boolean>`${ref(column)} ILIKE ${pattern}`);
  // "12" or "v12" also finds version 12.
  const number = /^v?(\d+)$/.exec(term)?.[1];
  if (number && (type === 'version' || type === 'representation') && Number(number) <= 2 ** 31 - 1)
    parts.push(sql<boolean>`e.version = ${Number(number)}`);
  return sql<boolean>`(${sql.join(parts, sql` OR `)})`;
}

const any = (column: string, values: unknown[], cast: string) =>
  sql<boolean>`${sql.ref(`e.${column}`)} = ANY(${values}::${sql.raw(cast)})`;

/** The WHERE conditions of a query, every value bound as a parameter. */
function conditions(type: EntityType, schema: string, q: EntityQuery): RawBuilder<boolean>[] {
  const where: RawBuilder<boolean>[] = [];
  const parent = PARENT[type];
  // One id (GET of one entity) is an equality, which plans and runs a little faster than = ANY on PGlite.
  if (q.ids?.length === 1) where.push(sql<boolean>`e.id = ${q.ids[0]}::uuid`);
  else if (q.ids) where.push(any('id', q.ids, 'uuid[]'));
  if (q.parentIds && type === 'task' && q.includeFolderChildren) {
    // The tasks of those folders and of every folder below them, by path range (see inSubtree).
    const ids = q.parentIds.filter((id): id is string => id !== null);
    where.push(
      sql<boolean>`EXISTS (SELECT 1 FROM ${sql.table(`${schema}.folders`)} top WHERE top.id = ANY(${ids}::uuid[]) AND ${inSubtree(ref('access_path'), sql.ref('top.path'))})`,
    );
  } else if (q.parentIds) {
    const ids = q.parentIds.filter((id): id is string => id !== null);
    const root =
      q.parentIds.length > ids.length ? sql<boolean>`${sql.ref(`e.${parent}`)} IS NULL` : sql<boolean>`false`;
    where.push(sql<boolean>`(${any(parent, ids, 'uuid[]')} OR ${root})`);
  }
  if (q.names) where.push(sql<boolean>`lower(e.name) = ANY(${q.names.map((n) => n.toLowerCase())}::text[])`);
  if (q.namesCi)
    where.push(sql<boolean>`lower(e.name) = ANY(${q.namesCi.map((n) => n.toLowerCase())}::text[])`);
  if (q.nameEx !== undefined) where.push(sql<boolean>`e.name ~ ${q.nameEx}`);
  if (q.pathEx !== undefined) {
    const path =
      type === 'folder' ? ref('full_path') : type === 'workfile' ? ref('path') : sql`'/' || e.access_path`;
    where.push(sql<boolean>`${path} ~ ${q.pathEx}`);
  }
  if (q.name) where.push(sql<boolean>`e.name ILIKE ${q.name}`);
  if (q.paths) {
    const paths = q.paths.map((p) => '/' + p.replace(/^\/+|\/+$/g, ''));
    where.push(sql<boolean>`e.full_path = ANY(${paths}::text[])`);
  }
  const typeColumn = TYPE_COLUMN[type];
  if (q.types && typeColumn) where.push(any(typeColumn, q.types, 'text[]'));
  if (q.statuses) where.push(any('status', q.statuses, 'text[]'));
  if (q.tags) where.push(sql<boolean>`e.tags && ${q.tags}::text[]`);
  if (q.tagsAll)
    where.push(q.tagsAll.length ? sql<boolean>`e.tags @> ${q.tagsAll}::text[]` : sql<boolean>`e.tags = '{}'`);
  if (q.tagsAny)
    where.push(
      q.tagsAny.length ? sql<boolean>`e.tags && ${q.tagsAny}::text[]` : sql<boolean>`e.tags <> '{}'`,
    );
  if (type === 'task') {
    if (q.assignees) where.push(sql<boolean>`e.assignees && ${q.assignees}::text[]`);
    if (q.assigneesAll)
      where.push(
        q.assigneesAll.length
          ? sql<boolean>`e.assignees @> ${q.assigneesAll}::text[]`
          : sql<boolean>`e.assignees = '{}'`,
      );
    if (q.assigneesAny)
      where.push(
        q.assigneesAny.length
          ? sql<boolean>`e.assignees && ${q.assigneesAny}::text[]`
          : sql<boolean>`e.assignees <> '{}'`,
      );
  }
  if (type === 'folder') {
    const t = (table: string) => sql.table(`${schema}.${table}`);
    // Built only when asked for: a read by id asks for none, and building them all cost it microseconds.
    const flag = (value: boolean | undefined, table: string, column: string) => {
      if (value === undefined) return;
      const exists = sql<boolean>`EXISTS (SELECT 1 FROM ${t(table)} x WHERE ${sql.ref(`x.${column}`)} = e.id)`;
      where.push(value ? exists : sql<boolean>`NOT ${exists}`);
    };
    flag(q.hasChildren, 'folders', 'parent_id');
    flag(q.hasProducts, 'products', 'folder_id');
    flag(q.hasTasks, 'tasks', 'folder_id');
    if (q.taskAssignees)
      where.push(
        sql<boolean>`EXISTS (SELECT 1 FROM ${t('tasks')} x WHERE x.folder_id = e.id AND x.assignees @> ${q.taskAssignees}::text[])`,
      );
  }
  for (const attribute of q.attributes ?? [])
    where.push(sql<boolean>`(e.all_attrib ->> ${attribute.name}) = ANY(${attribute.values}::text[])`);
  for (const term of q.search ?? []) where.push(searchTerm(type, term));
  for (const condition of q.restrict ?? []) where.push(condition(ref('id')));
  if (q.active !== undefined) where.push(sql<boolean>`e.active = ${q.active}`);
  if (type === 'version') {
    if (q.versions) where.push(any('version', q.versions, 'int[]'));
    if (q.taskIds) where.push(any('task_id', q.taskIds, 'uuid[]'));
    if (q.authors) where.push(any('author', q.authors, 'text[]'));
    const versions = sql.table(`${schema}.versions`);
    const latest = () =>
      sql<boolean>`e.version = (SELECT max(l.version) FROM ${versions} l WHERE l.product_id = e.product_id AND l.version >= 0)`;
    if (q.heroOnly) where.push(sql<boolean>`e.version < 0`);
    if (q.latestOnly) where.push(latest());
    if (q.heroOrLatestOnly) {
      where.push(
        sql<boolean>`(e.version < 0 OR (${latest()} AND NOT EXISTS (SELECT 1 FROM ${versions} h WHERE h.product_id = e.product_id AND h.version < 0)))`,
      );
    }
  }
  if (q.filter) where.push(compileFilter(q.filter, filterFields(type), ['filter']));
  const key = q.sortBy ? sortKey(type, q.sortBy) : null;
  const beyond = (cursor: string, loc: string, operator: '>' | '<') => {
    const { order, value } = decodeCursor(cursor, loc);
    const op = sql.raw(operator);
    // A sorted page continues after (sort value, creation order) as a pair; a cursor without a value, by order.
    return key && value !== undefined
      ? sql<boolean>`(${key.expr}, e.creation_order) ${op} (${sortValue(key, value)}, ${order})`
      : sql<boolean>`e.creation_order ${op} ${order}`;
  };
  if (q.after) where.push(beyond(q.after, 'after', '>'));
  if (q.before) where.push(beyond(q.before, 'before', '<'));
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
  const key = q.sortBy ? sortKey(type, q.sortBy) : null;
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
  const order = key
    ? sql`${key.expr} ${direction}, e.creation_order ${direction}`
    : sql`e.creation_order ${direction}`;
  // The sort value travels in cursors: timestamps as PostgreSQL's text, which keeps the microseconds.
  const sortColumn = key
    ? sql`, ${key.kind === 'timestamp' ? sql`(${key.expr})::text` : key.expr} AS sort_value`
    : sql``;
  const group = q.per === 'task' ? 'task_id' : PARENT[type];
  // A read of a few entities by id (GET of one entity, the detail panel) is the same text call after call.
  const fewById = q.ids !== undefined && q.ids.length <= FEW_BY_ID;
  // At most one row can match one id: nothing to sort, and no row beyond the limit to look for.
  const single = q.ids?.length === 1 && q.limit >= 1;
  const inner = selectEntities(
    db,
    schema,
    type,
    inheritable,
    base,
    q.folderFlags === false ? 'skip' : fewById ? 'functions' : 'subqueries',
    q.folderCounts ?? false,
  );
  const query = q.per
    ? sql<Record<string, any>>`
        SELECT * FROM (
          SELECT e.*${sortColumn}, row_number() OVER (PARTITION BY ${sql.ref(`e.${group}`)} ORDER BY ${order}) AS rank_in_group
          FROM (${inner}) e ${whereSql}
        ) e WHERE rank_in_group <= ${q.limit + 1} ORDER BY ${order}`
    : single
      ? sql<Record<string, any>>`SELECT e.*${sortColumn} FROM (${inner}) e ${whereSql}`
      : sql<
          Record<string, any>
        >`SELECT e.*${sortColumn} FROM (${inner}) e ${whereSql} ORDER BY ${order} LIMIT ${q.limit + 1}`;
  let rows = (
    await (fewById ? prepared(query) : query).execute(db).catch((error) => {
      // pathEx and nameEx are the client's regular expressions: one PostgreSQL cannot read is theirs to fix.
      if ((error as { code?: string }).code === INVALID_REGEX)
        throw new ValidationFailed([
          {
            loc: [q.pathEx !== undefined ? 'pathEx' : 'nameEx'],
            msg: 'not a valid regular expression',
            type: 'value_error.regex',
          },
        ]);
      throw error;
    })
  ).rows;
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
      cursor: encodeCursor(Number(row.creation_order), key ? row.sort_value : undefined),
      entity: hideAttributes(present(type, row), access.attributes),
    })),
  };
}
