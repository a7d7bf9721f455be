import { sql } from 'kysely';
import type { Migration } from '@pipewright/sdk';

/**
 * Studio-wide tables (a webhook may name one project). A delivery is one message to one endpoint: its id is the
 * webhook-id every attempt carries; seq orders an endpoint's messages (the sequence number in each payload); key
 * keeps one entity's messages in order (the entity's id, or the event's). Attempts are the delivery log.
 */
export const studioMigrations: Migration[] = [
  {
    name: '0001_webhooks',
    async up(db) {
      await sql`
        CREATE TABLE webhooks (
          id uuid PRIMARY KEY,
          name text NOT NULL,
          url text NOT NULL,
          project_name text,
          topics text[] NOT NULL,
          entity_types text[] NOT NULL DEFAULT '{}',
          attributes text[] NOT NULL DEFAULT '{}',
          payload text NOT NULL DEFAULT 'thin' CHECK (payload IN ('thin', 'full')),
          secrets jsonb NOT NULL,
          active boolean NOT NULL DEFAULT true,
          health text NOT NULL DEFAULT 'active' CHECK (health IN ('active', 'unstable', 'failed')),
          failures integer NOT NULL DEFAULT 0,
          created_by text,
          created_at timestamptz NOT NULL DEFAULT now(),
          updated_at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`
        CREATE TABLE webhook_deliveries (
          id uuid PRIMARY KEY,
          seq bigserial NOT NULL,
          webhook_id uuid NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
          event_id uuid,
          topic text NOT NULL,
          key text NOT NULL,
          body jsonb NOT NULL,
          status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'held', 'delivered', 'failed', 'skipped')),
          attempts integer NOT NULL DEFAULT 0,
          next_attempt_at timestamptz NOT NULL DEFAULT now(),
          locked_until timestamptz,
          created_at timestamptz NOT NULL DEFAULT now(),
          delivered_at timestamptz
        )`.execute(db);
      await sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(
        db,
      );
      await sql`CREATE INDEX webhook_deliveries_order_idx ON webhook_deliveries (webhook_id, key, seq) WHERE status = 'pending'`.execute(
        db,
      );
      await sql`CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (webhook_id, created_at)`.execute(
        db,
      );
      await sql`
        CREATE TABLE webhook_attempts (
          id bigserial PRIMARY KEY,
          delivery_id uuid NOT NULL REFERENCES webhook_deliveries(id) ON DELETE CASCADE,
          attempt integer NOT NULL,
          status_code integer,
          response text,
          error text,
          latency_ms integer NOT NULL,
          at timestamptz NOT NULL DEFAULT now()
        )`.execute(db);
      await sql`CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (delivery_id, id)`.execute(db);
    },
  },
  {
    name: '0002_conditions_and_batches',
    async up(db) {
      // conditions: clauses on the event, all of which must hold; batch_size: messages a request may carry. A batch
      // is led by its first message: batch_id is the leader's id on every message of it, the leader's included, and
      // the webhook-id of every attempt at it.
      await sql`ALTER TABLE webhooks ADD COLUMN conditions jsonb NOT NULL DEFAULT '[]'`.execute(db);
      await sql`ALTER TABLE webhooks ADD COLUMN batch_size integer NOT NULL DEFAULT 1
        CHECK (batch_size BETWEEN 1 AND 50)`.execute(db);
      await sql`ALTER TABLE webhook_deliveries ADD COLUMN batch_id uuid`.execute(db);
      await sql`CREATE INDEX webhook_deliveries_batch_idx ON webhook_deliveries (batch_id)
        WHERE batch_id IS NOT NULL`.execute(db);
    },
  },
];
