import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/**
 * Run in every project_<name> schema. One row per review session: a list of versions being reviewed together. The
 * state (what is shown, whether it plays and since when, who drives, who takes part) is the server's, so every
 * process serves the same session and it outlives a restart; revision counts its changes.
 */
export const projectMigrations: Migration[] = [
  {
    name: '0001_review_sessions',
    async up(db) {
      await sql`
        CREATE TABLE review_sessions (
          list_id uuid PRIMARY KEY,
          state jsonb NOT NULL,
          revision integer NOT NULL DEFAULT 1,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },
];
