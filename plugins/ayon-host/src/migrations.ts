import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_ayon_action_config',
    async up(db) {
      // AYON packages keep their actions' per-user settings under a key they compute themselves
      // (create_action_config_hash: ayon-applications keys by user, application and task). The other columns say
      // whose it is (a user reads only their own) and let a project's or user's rows be found.
      await sql`
        CREATE TABLE ayon_action_config (
          hash text PRIMARY KEY,
          addon_name text NOT NULL,
          addon_version text NOT NULL,
          identifier text NOT NULL,
          project_name text,
          user_name text NOT NULL,
          data jsonb NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },
];
