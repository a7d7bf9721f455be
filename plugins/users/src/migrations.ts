import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_users',
    async up(db) {
      await sql`
        CREATE TABLE users (
          name text PRIMARY KEY,
          active boolean NOT NULL DEFAULT true,
          attrib jsonb NOT NULL DEFAULT '{}',
          data jsonb NOT NULL DEFAULT '{}',
          password_hash text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      // Names are unique regardless of case: "Alice" and "alice" are one person at a login prompt.
      await sql`CREATE UNIQUE INDEX users_name_lower_idx ON users (lower(name))`.execute(db);
      await sql`
        CREATE TABLE api_keys (
          id uuid PRIMARY KEY,
          user_name text NOT NULL REFERENCES users(name) ON UPDATE CASCADE ON DELETE CASCADE,
          label text NOT NULL,
          key_hash text NOT NULL UNIQUE,
          preview text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          expires_at timestamptz
        )`.execute(db);
      await sql`CREATE INDEX api_keys_user_idx ON api_keys (user_name)`.execute(db);
    },
  },
  {
    name: '0002_user_avatars',
    async up(db) {
      // In the database rather than under DATA_DIR, so every server process serves the same picture. The foreign
      // key carries the avatar along when the user is renamed and drops it when the user is deleted.
      await sql`
        CREATE TABLE user_avatars (
          user_name text PRIMARY KEY REFERENCES users(name) ON UPDATE CASCADE ON DELETE CASCADE,
          mime text NOT NULL,
          bytes bytea NOT NULL,
          hash text NOT NULL,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },
];
