import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/**
 * Studio-wide: a guest link arrives as a token alone, before anyone knows its project. Tokens are kept as their
 * SHA-256 (a token is 256 random bits, so a fast hash is enough and finds the row); passwords as argon2id.
 */
export const studioMigrations: Migration[] = [
  {
    name: '0001_guest_links',
    async up(db) {
      await sql`
        CREATE TABLE guest_links (
          id uuid PRIMARY KEY,
          token_hash text NOT NULL UNIQUE,
          project_name text NOT NULL,
          target text NOT NULL CHECK (target IN ('list', 'version')),
          target_id uuid NOT NULL,
          label text NOT NULL,
          expires_at timestamptz,
          password_hash text,
          can_comment boolean NOT NULL DEFAULT false,
          can_download boolean NOT NULL DEFAULT false,
          can_approve boolean NOT NULL DEFAULT false,
          created_by text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          revoked_at timestamptz,
          revoked_by text
        )`.execute(db);
      await sql`CREATE INDEX guest_links_target_idx ON guest_links (project_name, target, target_id)`.execute(
        db,
      );
      // A session is what opening a link gives a guest: the password is asked once, the name kept for comments.
      await sql`
        CREATE TABLE guest_sessions (
          id uuid PRIMARY KEY,
          token_hash text NOT NULL UNIQUE,
          link_id uuid NOT NULL REFERENCES guest_links (id) ON DELETE CASCADE,
          guest_name text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX guest_sessions_link_idx ON guest_sessions (link_id)`.execute(db);
      await sql`
        CREATE TABLE guest_link_log (
          id bigserial PRIMARY KEY,
          link_id uuid NOT NULL REFERENCES guest_links (id) ON DELETE CASCADE,
          at timestamptz NOT NULL DEFAULT now(),
          action text NOT NULL,
          guest_name text,
          address text,
          detail text
        )`.execute(db);
      await sql`CREATE INDEX guest_link_log_link_idx ON guest_link_log (link_id, action, at)`.execute(db);
    },
  },
];
