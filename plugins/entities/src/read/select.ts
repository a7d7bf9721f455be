import { sql, type RawBuilder } from 'kysely';
import { isoTime, type Database } from '@pipewright/sdk';
import type { EntityType } from '../entity-types.js';
import { inheritablePart } from '../inheritance.js';
import { inSubtree } from '../subtree.js';

type Row = Record<string, any>;

const json = (value: Record<string, unknown>) => sql`${JSON.stringify(value)}::jsonb`;

const versionName = (v: string) =>
  sql.raw(`CASE WHEN ${v}.version < 0 THEN 'HERO' ELSE 'v' || lpad(${v}.version::text, 3, '0') END`);

/**
 * How a folder's hasVersions, hasChildren and hasTasks are worked out: not at all (readers that do not show them),
 * as subqueries (cheapest per row, for listings) or through the schema's folder_has_* functions (cheapest to plan,
 * for reads of a few folders by id: see migration 0003).
 */
export type FolderFlags = 'skip' | 'subqueries' | 'functions';

/**
 * One SELECT per type that yields the stored columns plus what the API derives: the full path, the effective
 * attributes and hasVersions, and for access checks the path and id of the folder the entity lives in
 * (access_path, access_folder). Folders and tasks inherit: the project's values (base) overlaid with what the
 * folder's ancestors set (stored in folders.inherited) and then the entity's own values.
 */
export function selectEntities(
  db: Database,
  schema: string,
  type: EntityType,
  inheritable: string[],
  base: Record<string, unknown> = {},
  folderFlags: FolderFlags = 'subqueries',
  folderCounts = false,
): RawBuilder<Row> {
  const t = (table: string) => sql.table(`${schema}.${table}`);
  switch (type) {
    case 'folder':
      // GraphQL's childCount, productCount and taskCount: counted where asked for, through the parent indexes.
      if (folderCounts) {
        return sql<Row>`
          SELECT c.*, c.child_count > 0 AS has_children, c.task_count > 0 AS has_tasks${
            folderFlags !== 'skip'
              ? sql`, EXISTS (
                  SELECT 1 FROM ${t('versions')} v JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} d ON d.id = p.folder_id
                  WHERE ${inSubtree(sql`d.path`, sql`c.path`)}
                ) AS has_versions`
              : sql``
          }
          FROM (
            SELECT f.*, '/' || f.path AS full_path, ${json(base)} || f.inherited || f.attrib AS all_attrib, f.path AS access_path, f.id AS access_folder,
              (SELECT count(*) FROM ${t('folders')} x WHERE x.parent_id = f.id)::int AS child_count,
              (SELECT count(*) FROM ${t('products')} x WHERE x.folder_id = f.id)::int AS product_count,
              (SELECT count(*) FROM ${t('tasks')} x WHERE x.folder_id = f.id)::int AS task_count
            FROM ${t('folders')} f
          ) c`;
      }
      // The has* flags cost three lookups per folder; readers that do not show them (GraphQL pages) skip them.
      if (folderFlags === 'skip') {
        return sql<Row>`
          SELECT f.*, '/' || f.path AS full_path, ${json(base)} || f.inherited || f.attrib AS all_attrib, f.path AS access_path, f.id AS access_folder
          FROM ${t('folders')} f`;
      }
      if (folderFlags === 'functions') {
        const call = (name: string, argument: string) => sql.raw(`"${schema}".${name}(f.${argument})`);
        return sql<Row>`
          SELECT f.*, '/' || f.path AS full_path, ${json(base)} || f.inherited || f.attrib AS all_attrib, f.path AS access_path, f.id AS access_folder,
            ${call('folder_has_versions', 'path')} AS has_versions, ${call('folder_has_children', 'id')} AS has_children,
            ${call('folder_has_tasks', 'id')} AS has_tasks
          FROM ${t('folders')} f`;
      }
      return sql<Row>`
        SELECT f.*, '/' || f.path AS full_path, ${json(base)} || f.inherited || f.attrib AS all_attrib, f.path AS access_path, f.id AS access_folder,
          EXISTS (
            SELECT 1 FROM ${t('versions')} v JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} d ON d.id = p.folder_id
            WHERE ${inSubtree(sql`d.path`, sql`f.path`)}
          ) AS has_versions,
          EXISTS (SELECT 1 FROM ${t('folders')} c WHERE c.parent_id = f.id) AS has_children,
          EXISTS (SELECT 1 FROM ${t('tasks')} k WHERE k.folder_id = f.id) AS has_tasks
        FROM ${t('folders')} f`;
    case 'task':
      return sql<Row>`
        SELECT k.*, '/' || f.path || '/' || k.name AS full_path, f.path AS access_path, f.id AS access_folder,
          ${json(base)} || f.inherited || ${inheritablePart(sql`f.attrib`, inheritable)} || k.attrib AS all_attrib
        FROM ${t('tasks')} k JOIN ${t('folders')} f ON f.id = k.folder_id`;
    case 'product':
      return sql<Row>`
        SELECT p.*, '/' || f.path || '/' || p.name AS full_path, p.attrib AS all_attrib, f.path AS access_path, f.id AS access_folder
        FROM ${t('products')} p JOIN ${t('folders')} f ON f.id = p.folder_id`;
    case 'version':
      return sql<Row>`
        SELECT v.*, ${versionName('v')} AS name, '/' || f.path || '/' || p.name || '/' || ${versionName('v')} AS full_path, v.attrib AS all_attrib,
          f.path AS access_path, f.id AS access_folder, p.name AS product_name, p.product_type
        FROM ${t('versions')} v JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} f ON f.id = p.folder_id`;
    case 'representation':
      return sql<Row>`
        SELECT r.*, '/' || f.path || '/' || p.name || '/' || ${versionName('v')} || '/' || r.name AS full_path, r.attrib AS all_attrib,
          f.path AS access_path, f.id AS access_folder, p.name AS product_name, p.product_type, v.version
        FROM ${t('representations')} r JOIN ${t('versions')} v ON v.id = r.version_id
          JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} f ON f.id = p.folder_id`;
    case 'workfile':
      return sql<Row>`
        SELECT w.*, w.path AS full_path, regexp_replace(w.path, '^.*[/\\\\]', '') AS name, w.attrib AS all_attrib,
          f.path AS access_path, f.id AS access_folder, k.name AS task_name, k.task_type
        FROM ${t('workfiles')} w JOIN ${t('tasks')} k ON k.id = w.task_id JOIN ${t('folders')} f ON f.id = k.folder_id`;
  }
}

const ALIAS: Record<EntityType, string> = {
  folder: 'f',
  task: 'k',
  product: 'p',
  version: 'v',
  representation: 'r',
  workfile: 'w',
};

/** One entity by id, with its derived fields; undefined when it does not exist. */
export async function loadEntity(
  db: Database,
  schema: string,
  type: EntityType,
  id: string,
  inheritable: string[],
  base: Record<string, unknown> = {},
): Promise<Row | undefined> {
  const query = sql<Row>`${selectEntities(db, schema, type, inheritable, base)} WHERE ${sql.ref(`${ALIAS[type]}.id`)} = ${id}`;
  return (await query.execute(db)).rows[0];
}

/** A row as the API shows it (camelCase, AYON field names). */
export function present(type: EntityType, row: Row): Record<string, unknown> {
  const common = {
    id: row.id,
    status: row.status,
    tags: row.tags,
    attrib: row.all_attrib,
    ownAttrib: Object.keys(row.attrib),
    data: row.data,
    active: row.active,
    createdBy: row.created_by,
    updatedBy: row.updated_by,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
  switch (type) {
    case 'folder':
      return {
        ...common,
        name: row.name,
        label: row.label,
        folderType: row.folder_type,
        parentId: row.parent_id,
        thumbnailId: row.thumbnail_id,
        path: row.full_path,
        hasVersions: row.has_versions,
        hasChildren: row.has_children,
        hasTasks: row.has_tasks,
        // Only selected for GraphQL (EntityQuery.folderCounts): REST answers keep AYON's folder model.
        ...(row.child_count === undefined
          ? {}
          : { childCount: row.child_count, productCount: row.product_count, taskCount: row.task_count }),
      };
    case 'task':
      return {
        ...common,
        name: row.name,
        label: row.label,
        taskType: row.task_type,
        folderId: row.folder_id,
        thumbnailId: row.thumbnail_id,
        assignees: row.assignees,
        path: row.full_path,
      };
    case 'product':
      return {
        ...common,
        name: row.name,
        folderId: row.folder_id,
        productType: row.product_type,
        path: row.full_path,
      };
    case 'version':
      return {
        ...common,
        name: row.name,
        version: row.version,
        productId: row.product_id,
        taskId: row.task_id,
        thumbnailId: row.thumbnail_id,
        author: row.author,
        path: row.full_path,
      };
    case 'representation':
      return {
        ...common,
        name: row.name,
        versionId: row.version_id,
        files: row.files,
        traits: row.traits,
        path: row.full_path,
      };
    case 'workfile':
      return {
        ...common,
        name: row.name,
        path: row.path,
        taskId: row.task_id,
        thumbnailId: row.thumbnail_id,
      };
  }
}
