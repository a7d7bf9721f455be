import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_settings_overrides',
    async up(db) {
      // One row per addon version and level, holding only what differs from the level below. The level is told by
      // which key columns are set ('' when not):
      //   studio overrides           variant, no project, no site
      //   project overrides          variant, project
      //   project site overrides     project, site and user, no variant (a workstation's choice holds for every variant)
      //   site settings              site and user only (the addon's separate site settings schema)
      // Project rows live here rather than in the project schemas so copying a variant (promote, migrate) is one
      // statement; they are removed when the project is deleted.
      await sql`
        CREATE TABLE settings_overrides (
          addon_name text NOT NULL,
          addon_version text NOT NULL,
          variant text NOT NULL DEFAULT '',
          project_name text NOT NULL DEFAULT '',
          site_id text NOT NULL DEFAULT '',
          user_name text NOT NULL DEFAULT '',
          data jsonb NOT NULL DEFAULT '{}',
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (addon_name, addon_version, variant, project_name, site_id, user_name)
        )`.execute(db);
      await sql`CREATE INDEX settings_overrides_project_idx ON settings_overrides (project_name) WHERE project_name <> ''`.execute(
        db,
      );
      await sql`CREATE INDEX settings_overrides_user_idx ON settings_overrides (user_name) WHERE user_name <> ''`.execute(
        db,
      );
    },
  },
];
