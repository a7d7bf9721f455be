import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_ynput_cloud_connection',
    async up(db) {
      // One row: this server's instance id (made here, once, so every process sees the same) and what the cloud
      // last confirmed. The key itself is a secret (secrets addon, encrypted); key_fingerprint (its SHA-256) tells
      // whether the confirmed info belongs to the key stored now, and cloud_url whether it came from the cloud in use.
      await sql`
        CREATE TABLE ynput_cloud_connection (
          singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
          instance_id text NOT NULL,
          key_fingerprint text,
          cloud_url text,
          info jsonb,
          verified_at timestamptz
        )`.execute(db);
      await sql`
        INSERT INTO ynput_cloud_connection (instance_id)
        VALUES (replace(gen_random_uuid()::text, '-', ''))`.execute(db);
    },
  },
];
