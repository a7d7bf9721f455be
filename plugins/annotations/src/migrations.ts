import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/**
 * Run in every project_<name> schema. One row per drawn object: a stroke, a shape or a text on one frame of one
 * reviewable. frame is the media frame in the shot's numbering (the media's first frame number plus its index),
 * never a time; coordinates in shape are normalised by the picture's height, as OpenRV and the OTIO annotation
 * schema keep them (origin at the centre, y up, the height spanning -0.5 to 0.5), so no resolution changes them.
 */
export const projectMigrations: Migration[] = [
  {
    name: '0001_annotations',
    async up(db) {
      await sql`
        CREATE TABLE annotations (
          id uuid PRIMARY KEY,
          version_id uuid NOT NULL,
          reviewable_id uuid NOT NULL,
          frame integer NOT NULL,
          kind text NOT NULL,
          color text NOT NULL,
          shape jsonb NOT NULL,
          author text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          creation_order bigserial NOT NULL
        )`.execute(db);
      await sql`CREATE INDEX annotations_frame_idx ON annotations (reviewable_id, frame, creation_order)`.execute(
        db,
      );
    },
  },
];
