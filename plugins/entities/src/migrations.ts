import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';
import { inSubtree } from './subtree.js';

// Columns every entity table shares. attrib holds the entity's own values only; inherited ones are derived.
const common = sql.raw(`
  attrib jsonb NOT NULL DEFAULT '{}',
  data jsonb NOT NULL DEFAULT '{}',
  status text NOT NULL,
  tags text[] NOT NULL DEFAULT '{}',
  active boolean NOT NULL DEFAULT true,
  created_by text,
  updated_by text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  creation_order bigserial`);

/** Run in every project_<name> schema. Uniqueness users rely on is enforced here, among active rows only. */
export const projectMigrations: Migration[] = [
  {
    name: '0001_entities',
    async up(db) {
      // path is the folder's materialised "a/b/c", kept exact inside each write's transaction; inherited holds
      // the attribute values the folder gets from the project and its ancestors (its own values excluded).
      await sql`
        CREATE TABLE folders (
          id uuid PRIMARY KEY,
          name text NOT NULL,
          label text,
          folder_type text NOT NULL,
          parent_id uuid REFERENCES folders(id) ON DELETE CASCADE,
          thumbnail_id uuid,
          path text NOT NULL,
          inherited jsonb NOT NULL DEFAULT '{}',
          ${common}
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX folders_sibling_name_idx ON folders (parent_id, lower(name)) WHERE active AND parent_id IS NOT NULL`.execute(
        db,
      );
      await sql`CREATE UNIQUE INDEX folders_root_name_idx ON folders (lower(name)) WHERE active AND parent_id IS NULL`.execute(
        db,
      );
      await sql`CREATE INDEX folders_parent_idx ON folders (parent_id)`.execute(db);
      await sql`CREATE INDEX folders_path_idx ON folders (path text_pattern_ops)`.execute(db);

      await sql`
        CREATE TABLE tasks (
          id uuid PRIMARY KEY,
          name text NOT NULL,
          label text,
          task_type text NOT NULL,
          folder_id uuid NOT NULL REFERENCES folders(id) ON DELETE CASCADE,
          thumbnail_id uuid,
          assignees text[] NOT NULL DEFAULT '{}',
          ${common}
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX tasks_name_idx ON tasks (folder_id, lower(name)) WHERE active`.execute(
        db,
      );
      await sql`CREATE INDEX tasks_folder_idx ON tasks (folder_id)`.execute(db);

      // No cascade from folders: a published product blocks deleting its folder unless forced.
      await sql`
        CREATE TABLE products (
          id uuid PRIMARY KEY,
          name text NOT NULL,
          folder_id uuid NOT NULL REFERENCES folders(id),
          product_type text NOT NULL,
          ${common}
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX products_name_idx ON products (folder_id, lower(name)) WHERE active`.execute(
        db,
      );
      await sql`CREATE INDEX products_folder_idx ON products (folder_id)`.execute(db);

      // A negative version number is the product's hero version; there is at most one.
      await sql`
        CREATE TABLE versions (
          id uuid PRIMARY KEY,
          version integer NOT NULL,
          product_id uuid NOT NULL REFERENCES products(id) ON DELETE CASCADE,
          task_id uuid REFERENCES tasks(id) ON DELETE SET NULL,
          thumbnail_id uuid,
          author text,
          ${common}
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX versions_number_idx ON versions (product_id, version) WHERE active`.execute(
        db,
      );
      await sql`CREATE UNIQUE INDEX versions_one_hero_idx ON versions (product_id) WHERE active AND version < 0`.execute(
        db,
      );
      await sql`CREATE INDEX versions_task_idx ON versions (task_id)`.execute(db);

      await sql`
        CREATE TABLE representations (
          id uuid PRIMARY KEY,
          name text NOT NULL,
          version_id uuid NOT NULL REFERENCES versions(id) ON DELETE CASCADE,
          files jsonb NOT NULL DEFAULT '[]',
          traits jsonb,
          ${common}
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX representations_name_idx ON representations (version_id, lower(name)) WHERE active`.execute(
        db,
      );

      await sql`
        CREATE TABLE workfiles (
          id uuid PRIMARY KEY,
          path text NOT NULL,
          task_id uuid NOT NULL REFERENCES tasks(id) ON DELETE CASCADE,
          thumbnail_id uuid,
          ${common}
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX workfiles_path_idx ON workfiles (lower(path)) WHERE active`.execute(db);
      await sql`CREATE INDEX workfiles_task_idx ON workfiles (task_id)`.execute(db);
    },
  },
  {
    // Keyset pages (GraphQL connections) walk each table in creation order.
    name: '0002_creation_order_indexes',
    async up(db) {
      for (const table of ['folders', 'tasks', 'products', 'versions', 'representations', 'workfiles']) {
        await sql`CREATE INDEX ${sql.raw(`${table}_creation_order_idx`)} ON ${sql.table(table)} (creation_order)`.execute(
          db,
        );
      }
    },
  },
  {
    // A folder's hasVersions, hasChildren and hasTasks as functions, for reads of one or a few folders: PostgreSQL
    // plans the three lookups inline on every query, which costs more than running them for one row, while a
    // plpgsql function plans its query once per connection. Listings keep the inline lookups (see read/select.ts).
    name: '0003_folder_flag_functions',
    async up(db) {
      const { schema } = (await sql<{ schema: string }>`SELECT current_schema() AS schema`.execute(db))
        .rows[0];
      const t = (table: string) => `"${schema}".${table}`;
      const subtree = inSubtree(sql.ref('d.path'), sql.raw('folder_path')).compile(db).sql;
      const define = (name: string, parameter: string, condition: string) =>
        sql`CREATE FUNCTION ${sql.raw(name)}(${sql.raw(parameter)}) RETURNS boolean LANGUAGE plpgsql STABLE AS ${sql.lit(
          `BEGIN RETURN EXISTS (${condition}); END`,
        )}`.execute(db);
      await define(
        'folder_has_versions',
        'folder_path text',
        `SELECT 1 FROM ${t('versions')} v JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} d ON d.id = p.folder_id WHERE ${subtree}`,
      );
      await define(
        'folder_has_children',
        'folder uuid',
        `SELECT 1 FROM ${t('folders')} c WHERE c.parent_id = folder`,
      );
      await define(
        'folder_has_tasks',
        'folder uuid',
        `SELECT 1 FROM ${t('tasks')} k WHERE k.folder_id = folder`,
      );
    },
  },
];
