import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Run in every project_<name> schema, after the entity tables exist (links depends on entities). */
export const projectMigrations: Migration[] = [
  {
    name: '0001_links',
    async up(db) {
      // Either end may be any of six entity tables, so no foreign key can guard it: the entity delete hook and
      // the project change hook remove links whose entity or link type goes away.
      await sql`
        CREATE TABLE links (
          id uuid PRIMARY KEY,
          name text,
          link_type text NOT NULL,
          input_id uuid NOT NULL,
          output_id uuid NOT NULL,
          author text,
          data jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          creation_order bigserial
        )`.execute(db);
      await sql`CREATE INDEX links_input_idx ON links (input_id)`.execute(db);
      await sql`CREATE INDEX links_output_idx ON links (output_id)`.execute(db);
      // The same two entities joined twice by one type would only be noise in a breakdown.
      await sql`CREATE UNIQUE INDEX links_unique_idx ON links (link_type, input_id, output_id)`.execute(db);
    },
  },
];
