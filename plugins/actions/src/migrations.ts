import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_action_config',
    async up(db) {
      // One row per user, action and project. Settings outside any project use '' as the project: a NULL would
      // never collide in the primary key, so a second save would add a row instead of replacing the first.
      // The addon version is kept for reference only, so settings survive an addon upgrade.
      await sql`
        CREATE TABLE action_config (
          addon_name text NOT NULL,
          identifier text NOT NULL,
          user_name text NOT NULL,
          project_name text NOT NULL DEFAULT '',
          addon_version text NOT NULL,
          data jsonb NOT NULL DEFAULT '{}',
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (addon_name, identifier, user_name, project_name)
        )`.execute(db);
    },
  },
];
