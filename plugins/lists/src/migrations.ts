import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Run in every project_<name> schema: lists belong to one project and go when it is dropped. */
export const projectMigrations: Migration[] = [
  {
    name: '0001_entity_lists',
    async up(db) {
      // Folders only arrange lists in the web app's sidebar; a folder's label is unique among its siblings.
      await sql`
        CREATE TABLE entity_list_folders (
          id uuid PRIMARY KEY,
          label text NOT NULL,
          position integer NOT NULL DEFAULT 0,
          parent_id uuid REFERENCES entity_list_folders(id) ON DELETE CASCADE,
          owner text,
          access jsonb NOT NULL DEFAULT '{}',
          data jsonb NOT NULL DEFAULT '{}',
          creation_order bigserial
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX entity_list_folders_label_idx ON entity_list_folders (coalesce(parent_id::text, ''), lower(label))`.execute(
        db,
      );

      // The label names a list in the project (AYON keeps it unique), so clients can address lists by label.
      await sql`
        CREATE TABLE entity_lists (
          id uuid PRIMARY KEY,
          entity_list_type text NOT NULL,
          entity_type text NOT NULL
            CHECK (entity_type IN ('folder', 'task', 'product', 'version', 'representation', 'workfile')),
          entity_list_folder_id uuid REFERENCES entity_list_folders(id) ON DELETE SET NULL,
          label text NOT NULL,
          owner text,
          access jsonb NOT NULL DEFAULT '{}',
          template jsonb NOT NULL DEFAULT '{}',
          attrib jsonb NOT NULL DEFAULT '{}',
          data jsonb NOT NULL DEFAULT '{}',
          tags text[] NOT NULL DEFAULT '{}',
          active boolean NOT NULL DEFAULT true,
          created_by text,
          updated_by text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          creation_order bigserial
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX entity_lists_label_idx ON entity_lists (label)`.execute(db);
      await sql`CREATE INDEX entity_lists_folder_idx ON entity_lists (entity_list_folder_id)`.execute(db);

      // entity_id may name a row of any of six entity tables, so no foreign key guards it: the entities delete
      // hook removes the items of deleted entities. Positions are 0..n-1 per list, kept dense by every write;
      // they are not unique in the database because shifting them would then need deferred checks.
      await sql`
        CREATE TABLE entity_list_items (
          id uuid PRIMARY KEY,
          entity_list_id uuid NOT NULL REFERENCES entity_lists(id) ON DELETE CASCADE,
          entity_id uuid NOT NULL,
          position integer NOT NULL,
          label text,
          attrib jsonb NOT NULL DEFAULT '{}',
          data jsonb NOT NULL DEFAULT '{}',
          tags text[] NOT NULL DEFAULT '{}',
          created_by text,
          updated_by text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX entity_list_items_list_idx ON entity_list_items (entity_list_id, position)`.execute(
        db,
      );
      await sql`CREATE INDEX entity_list_items_entity_idx ON entity_list_items (entity_id)`.execute(db);
    },
  },
];
