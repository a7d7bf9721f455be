import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_sessions',
    async up(db) {
      // Only a hash of the token is kept: a database dump does not hand out live sessions.
      await sql`
        CREATE TABLE sessions (
          id uuid PRIMARY KEY,
          token_hash text NOT NULL UNIQUE,
          user_name text NOT NULL,
          is_api_key boolean NOT NULL DEFAULT false,
          client_info jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          last_used timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX sessions_user_idx ON sessions (lower(user_name))`.execute(db);
    },
  },
];
