import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Run in every project_<name> schema. */
export const projectMigrations: Migration[] = [
  {
    name: '0001_files',
    async up(db) {
      // One row per stored file; the bytes live in the file storage. size stays null while the upload streams in:
      // the row reserves the id (so two uploads cannot race for one X-File-Id), and readers skip it until the
      // bytes are complete. activity_id has no foreign key: the activities addon is optional and keeps its own
      // references. media_info caches ffprobe's answer, computed on first use.
      await sql`
        CREATE TABLE files (
          id uuid PRIMARY KEY,
          name text NOT NULL,
          size bigint,
          content_type text NOT NULL,
          author text,
          activity_id uuid,
          media_info jsonb,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX files_activity_id ON files (activity_id)`.execute(db);
    },
  },
];
