import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Studio tables (public schema): every server process reads the same configuration, flag and sites. */
export const studioMigrations: Migration[] = [
  {
    name: '0001_server_config',
    async up(db) {
      // One row holding only what differs from the defaults, so a new default reaches studios that never
      // changed that field.
      await sql`
        CREATE TABLE server_config (
          singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
          overrides jsonb NOT NULL DEFAULT '{}',
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`INSERT INTO server_config DEFAULT VALUES`.execute(db);
    },
  },
  {
    name: '0002_server_restart',
    async up(db) {
      await sql`
        CREATE TABLE server_restart (
          singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
          required boolean NOT NULL DEFAULT false,
          reason text,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`INSERT INTO server_restart DEFAULT VALUES`.execute(db);
    },
  },
  {
    name: '0003_sites',
    async up(db) {
      // A site is one client installation (a workstation, a farm node), named by the x-ayon-site-id it sends.
      await sql`
        CREATE TABLE sites (
          id text PRIMARY KEY,
          platform text,
          hostname text,
          version text,
          users jsonb NOT NULL DEFAULT '[]',
          created_at timestamptz NOT NULL DEFAULT now(),
          last_seen timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },
];
