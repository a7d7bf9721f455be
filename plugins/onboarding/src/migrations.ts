import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_onboarding_state',
    async up(db) {
      // One row: whether the administrator finished (or dismissed) the setup wizard that follows the first login.
      await sql`
        CREATE TABLE onboarding_state (
          singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
          finished boolean NOT NULL DEFAULT false,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`INSERT INTO onboarding_state DEFAULT VALUES`.execute(db);
    },
  },
];
