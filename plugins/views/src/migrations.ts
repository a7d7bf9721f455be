import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/**
 * The same two tables serve both scopes, as in AYON: studio views live in the public schema, a project's views in
 * its project_<name> schema (and go when the project is dropped). Owners are user names, compared regardless of
 * case as user names are.
 */
const createViewTables: Migration = {
  name: '0001_views',
  async up(db) {
    await sql`
      CREATE TABLE views (
        id uuid PRIMARY KEY,
        view_type text NOT NULL,
        label text NOT NULL,
        owner text NOT NULL,
        visibility text NOT NULL DEFAULT 'private' CHECK (visibility IN ('public', 'private')),
        working boolean NOT NULL DEFAULT false,
        position integer NOT NULL DEFAULT 0,
        settings jsonb NOT NULL DEFAULT '{}',
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CHECK (NOT (working AND visibility = 'public'))
      )`.execute(db);
    // One working view per user and view type in each scope; concurrent saves meet here instead of doubling up.
    await sql`CREATE UNIQUE INDEX views_one_working_idx ON views (view_type, lower(owner)) WHERE working`.execute(
      db,
    );
    await sql`CREATE INDEX views_type_idx ON views (view_type, visibility)`.execute(db);

    // No foreign key: a project's default may name a studio view, and a default whose view went is simply skipped.
    await sql`
      CREATE TABLE view_defaults (
        user_name text NOT NULL,
        view_type text NOT NULL,
        view_id uuid NOT NULL,
        updated_at timestamptz NOT NULL DEFAULT now()
      )`.execute(db);
    await sql`CREATE UNIQUE INDEX view_defaults_user_idx ON view_defaults (view_type, lower(user_name))`.execute(
      db,
    );
  },
};

/** Run once in the public schema: studio-wide views. */
export const studioMigrations: Migration[] = [createViewTables];

/** Run in every project_<name> schema: the project's views. */
export const projectMigrations: Migration[] = [createViewTables];
