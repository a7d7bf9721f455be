import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Run in every project_<name> schema: activities belong to one project and go when it is dropped. */
export const projectMigrations: Migration[] = [
  {
    name: '0001_activities',
    async up(db) {
      await sql`
        CREATE TABLE activities (
          id uuid PRIMARY KEY,
          activity_type text NOT NULL,
          body text NOT NULL DEFAULT '',
          tags text[] NOT NULL DEFAULT '{}',
          data jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          creation_order bigint GENERATED ALWAYS AS IDENTITY
        )`.execute(db);
      await sql`CREATE INDEX activities_type ON activities (activity_type)`.execute(db);

      // Who and what an activity concerns, one row each: the fan-out that makes the feed of an entity and the
      // inbox of a user single indexed reads. Entities are referenced by id, users by name.
      await sql`
        CREATE TABLE activity_references (
          id uuid PRIMARY KEY,
          activity_id uuid NOT NULL REFERENCES activities (id) ON DELETE CASCADE,
          reference_type text NOT NULL
            CHECK (reference_type IN ('origin', 'author', 'mention', 'relation', 'watching')),
          entity_type text NOT NULL,
          entity_id uuid,
          entity_name text,
          active boolean NOT NULL DEFAULT true,
          read boolean NOT NULL DEFAULT false,
          data jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          creation_order bigint GENERATED ALWAYS AS IDENTITY,
          CHECK ((entity_type = 'user') = (entity_name IS NOT NULL)),
          CHECK ((entity_type = 'user') = (entity_id IS NULL))
        )`.execute(db);
      // A user is addressed once per activity (the strongest reason wins), so an inbox never shows one activity
      // twice; an entity may be both the origin's relation and mentioned.
      await sql`
        CREATE UNIQUE INDEX activity_references_user
          ON activity_references (activity_id, entity_name) WHERE entity_type = 'user'`.execute(db);
      await sql`
        CREATE UNIQUE INDEX activity_references_entity
          ON activity_references (activity_id, reference_type, entity_id) WHERE entity_id IS NOT NULL`.execute(
        db,
      );
      await sql`
        CREATE INDEX activity_references_feed
          ON activity_references (entity_id) WHERE entity_id IS NOT NULL`.execute(db);
      await sql`
        CREATE INDEX activity_references_inbox
          ON activity_references (entity_name, updated_at DESC, creation_order DESC)
          WHERE entity_type = 'user' AND reference_type <> 'author'`.execute(db);
    },
  },
];
