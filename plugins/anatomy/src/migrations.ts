import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_anatomy_presets',
    async up(db) {
      await sql`
        CREATE TABLE anatomy_presets (
          name text PRIMARY KEY,
          is_primary boolean NOT NULL DEFAULT false,
          data jsonb NOT NULL,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      // "_" resolves to the primary preset, so two primaries would make it ambiguous.
      await sql`CREATE UNIQUE INDEX anatomy_presets_one_primary_idx ON anatomy_presets (is_primary) WHERE is_primary`.execute(
        db,
      );
    },
  },
];
