import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

export const studioMigrations: Migration[] = [
  {
    name: '0001_services_hosts',
    async up(db) {
      // A host is whatever machine runs a service host and sends heartbeats; it is known from its first heartbeat.
      await sql`
        CREATE TABLE hosts (
          name text PRIMARY KEY,
          last_seen timestamptz NOT NULL DEFAULT now(),
          health jsonb NOT NULL DEFAULT '{"cpu": 0, "mem": 0}'
        )`.execute(db);
      // hostname is deliberately not a foreign key: a service may be assigned to a host before that host has ever
      // sent a heartbeat, and forgetting a silent host must not delete the services assigned to it.
      await sql`
        CREATE TABLE services (
          name text PRIMARY KEY,
          hostname text NOT NULL,
          addon_name text NOT NULL,
          addon_version text NOT NULL,
          service text NOT NULL,
          should_run boolean NOT NULL DEFAULT true,
          is_running boolean NOT NULL DEFAULT false,
          last_seen timestamptz,
          data jsonb NOT NULL DEFAULT '{}'
        )`.execute(db);
      await sql`CREATE INDEX services_hostname_idx ON services (hostname)`.execute(db);
    },
  },
];
