import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/**
 * Run in every project_<name> schema. Append-only: a row per changed field, never updated; the id orders rows
 * (the cursor of a page) and the two indexes answer an entity's history, all of it or of one field.
 */
export const projectMigrations: Migration[] = [
  {
    name: '0001_field_history',
    async up(db) {
      await sql`
        CREATE TABLE field_history (
          id bigserial PRIMARY KEY,
          entity_type text NOT NULL,
          entity_id uuid NOT NULL,
          field text NOT NULL,
          old_value jsonb,
          new_value jsonb,
          user_name text,
          via text NOT NULL,
          sender text,
          sender_type text,
          client text,
          changed_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX field_history_entity_idx ON field_history (entity_id, id)`.execute(db);
      await sql`CREATE INDEX field_history_field_idx ON field_history (entity_id, field, id)`.execute(db);
    },
  },
];
