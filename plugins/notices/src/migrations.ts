import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Studio-wide: a notice is for one user, whatever the project; read and archived (inactive) as inbox messages are. */
export const studioMigrations: Migration[] = [
  {
    name: '0001_notices',
    async up(db) {
      await sql`
        CREATE TABLE notices (
          id uuid PRIMARY KEY,
          user_name text NOT NULL,
          topic text NOT NULL,
          title text NOT NULL,
          body text NOT NULL DEFAULT '',
          link text,
          read boolean NOT NULL DEFAULT false,
          active boolean NOT NULL DEFAULT true,
          created_at timestamptz NOT NULL DEFAULT now(),
          creation_order bigserial NOT NULL
        )`.execute(db);
      await sql`CREATE INDEX notices_user_idx ON notices (user_name, creation_order)`.execute(db);
    },
  },
];
