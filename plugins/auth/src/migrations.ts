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
  {
    name: '0002_one_time_tokens',
    async up(db) {
      // Links mailed to users (password reset, login links). As with sessions, only a hash of each token is kept.
      // No foreign key to users: the user source is whichever addon registered, so renames and deletions reach
      // these rows through the auth service, as they reach sessions.
      await sql`
        CREATE TABLE one_time_tokens (
          token_hash text PRIMARY KEY,
          purpose text NOT NULL,
          user_name text NOT NULL,
          data jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          expires_at timestamptz NOT NULL
        )`.execute(db);
      await sql`CREATE INDEX one_time_tokens_user_idx ON one_time_tokens (lower(user_name), purpose)`.execute(
        db,
      );
    },
  },
];
