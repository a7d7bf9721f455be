import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_secrets',
    async up(db) {
      // Only ciphertext is stored; the key lives outside the database (key file or environment), so a database
      // dump or backup alone does not reveal any value.
      await sql`
        CREATE TABLE secrets (
          name text PRIMARY KEY,
          value_encrypted text NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },
];
