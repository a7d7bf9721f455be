import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/** Tables the kernel itself owns: the event log and the bundles that choose which addons run. */
export const coreMigrations: Migration[] = [
  {
    name: '0001_events',
    async up(db) {
      await sql`
        CREATE TABLE events (
          id uuid PRIMARY KEY,
          hash text NOT NULL UNIQUE,
          topic text NOT NULL,
          sender text,
          sender_type text,
          project_name text,
          user_name text,
          depends_on uuid REFERENCES events(id) ON DELETE SET NULL,
          status text NOT NULL DEFAULT 'finished'
            CHECK (status IN ('pending', 'in_progress', 'finished', 'failed', 'aborted', 'restarted')),
          retries integer NOT NULL DEFAULT 0,
          description text NOT NULL DEFAULT '',
          summary jsonb NOT NULL DEFAULT '{}',
          payload jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now(),
          creation_order bigserial
        )`.execute(db);
      await sql`CREATE INDEX events_topic_idx ON events (topic text_pattern_ops)`.execute(db);
      await sql`CREATE INDEX events_depends_on_idx ON events (depends_on)`.execute(db);
      await sql`CREATE INDEX events_updated_at_idx ON events (updated_at)`.execute(db);
      await sql`CREATE INDEX events_project_idx ON events (project_name)`.execute(db);
    },
  },
  {
    name: '0002_bundles',
    async up(db) {
      // data: {addons: {name: version | null}, installerVersion, dependencyPackages, addonDevelopment, isProject}
      await sql`
        CREATE TABLE bundles (
          name text PRIMARY KEY,
          is_production boolean NOT NULL DEFAULT false,
          is_staging boolean NOT NULL DEFAULT false,
          is_dev boolean NOT NULL DEFAULT false,
          is_archived boolean NOT NULL DEFAULT false,
          active_user text,
          data jsonb NOT NULL DEFAULT '{}',
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE UNIQUE INDEX bundles_one_production ON bundles (is_production) WHERE is_production`.execute(
        db,
      );
      await sql`CREATE UNIQUE INDEX bundles_one_staging ON bundles (is_staging) WHERE is_staging`.execute(db);
    },
  },
  {
    // Only jobs depend on other events: the hundreds of thousands of entity events a big ingest writes need not
    // enter that index at all (lookups by depends_on = id still use it).
    name: '0003_events_depends_on_partial',
    async up(db) {
      await sql`DROP INDEX events_depends_on_idx`.execute(db);
      await sql`CREATE INDEX events_depends_on_idx ON events (depends_on) WHERE depends_on IS NOT NULL`.execute(
        db,
      );
    },
  },
  {
    // Listings page newest first (ORDER BY creation_order DESC LIMIT n): without an index every page sorted the
    // whole log; with 300,000 events (one large import) a page of 100 took 130 ms on PGlite, 6 ms with it.
    name: '0004_events_creation_order',
    async up(db) {
      await sql`CREATE INDEX events_creation_order_idx ON events (creation_order)`.execute(db);
    },
  },
  {
    // Most events (every entity change) have no hash of their own: their hash is their id, which the primary key
    // indexes already. From here on such events store NULL, and the unique index holds only hashes given
    // explicitly (readers answer the id when it is NULL; rows written before keep their stored copy). updated_at
    // follows insertion order closely, so a BRIN index serves its range filters. On PGlite, a thousand entity
    // events cost 19 ms with both B-trees, 13.5 ms without.
    name: '0005_events_implicit_hash',
    async up(db) {
      await sql`ALTER TABLE events ALTER COLUMN hash DROP NOT NULL`.execute(db);
      await sql`ALTER TABLE events DROP CONSTRAINT events_hash_key`.execute(db);
      await sql`CREATE UNIQUE INDEX events_hash_key ON events (hash) WHERE hash IS NOT NULL`.execute(db);
      await sql`DROP INDEX events_updated_at_idx`.execute(db);
      await sql`CREATE INDEX events_updated_at_idx ON events USING brin (updated_at)`.execute(db);
    },
  },
  {
    // The outbox of units of work: the events a transaction wrote, until they are published after its commit. A
    // row left behind (the process died in between) is published at the next start.
    name: '0006_event_outbox',
    async up(db) {
      await sql`CREATE TABLE event_outbox (id uuid PRIMARY KEY, event_ids uuid[] NOT NULL)`.execute(db);
    },
  },
];
