import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Run in every project_<name> schema. */
export const projectMigrations: Migration[] = [
  {
    name: '0001_thumbnails',
    async up(db) {
      // Thumbnails are small (a few tens of kilobytes), so the bytes live in the row: one read serves an image,
      // and a project's backup or deletion takes its thumbnails along. Entities point here by thumbnail_id
      // without a foreign key, since an id may be set before its image is uploaded (PUT by id).
      await sql`
        CREATE TABLE thumbnails (
          id uuid PRIMARY KEY,
          mime text NOT NULL,
          data bytea NOT NULL,
          created_by text,
          created_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
    },
  },
];
