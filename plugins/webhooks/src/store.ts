import { sql } from 'kysely';
import { insertJsonRows, type Database } from '@pipewright/sdk';
import type { Condition } from './conditions.js';

/** A webhook as stored. */
export interface WebhookRow {
  id: string;
  name: string;
  url: string;
  project_name: string | null;
  topics: string[];
  entity_types: string[];
  attributes: string[];
  payload: 'thin' | 'full';
  conditions: Condition[];
  /** How many messages a request may carry (1: each on its own, without the batch envelope). */
  batch_size: number;
  /** Newest first; a rotated one keeps working until its until. */
  secrets: { secret: string; until: string | null }[];
  active: boolean;
  health: 'active' | 'unstable' | 'failed';
  failures: number;
  created_by: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A message owed to an endpoint, as enqueued (a type, not an interface: it goes to insertJsonRows as a record). */
export type NewDelivery = {
  id: string;
  webhook_id: string;
  event_id: string | null;
  topic: string;
  key: string;
  body: Record<string, unknown>;
  status: 'pending' | 'held';
};

export interface DeliveryRow extends Omit<NewDelivery, 'status'> {
  seq: string;
  /** The batch the message went out in: its leader's id, the webhook-id of every attempt at it. */
  batch_id: string | null;
  status: 'pending' | 'held' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  next_attempt_at: Date;
  created_at: Date;
  delivered_at: Date | null;
}

/** A claimed delivery with what sending it needs. */
export type ClaimedDelivery = DeliveryRow & Pick<WebhookRow, 'url' | 'secrets' | 'batch_size'>;

export interface AttemptRow {
  attempt: number;
  status_code: number | null;
  response: string | null;
  error: string | null;
  latency_ms: number;
  at: Date;
}

/** One attempt at a claimed message, and where it leaves the message. */
export interface AttemptOutcome {
  delivery: ClaimedDelivery;
  attempt: Omit<AttemptRow, 'at' | 'attempt'>;
  outcome: { status: 'delivered' | 'failed' } | { status: 'pending'; next: Date };
}

/** Which deliveries of a webhook the log shows, newest first. */
export interface LogFilter {
  statuses?: string[];
  topic?: string;
  since?: Date;
  until?: Date;
  limit: number;
}

export type WebhookFields = Omit<WebhookRow, 'created_at' | 'updated_at' | 'failures' | 'health'>;

/** The webhooks tables: endpoints, the messages owed to them and every attempt made. */
export class WebhookStore {
  constructor(private readonly db: Database) {}

  async list(): Promise<WebhookRow[]> {
    return (await this.db.selectFrom('webhooks').selectAll().orderBy('created_at').execute()) as WebhookRow[];
  }

  async get(id: string): Promise<WebhookRow | null> {
    return ((await this.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirst()) ??
      null) as WebhookRow | null;
  }

  async insert(row: WebhookFields): Promise<void> {
    await this.db
      .insertInto('webhooks')
      .values({ ...row, secrets: JSON.stringify(row.secrets), conditions: JSON.stringify(row.conditions) })
      .execute();
  }

  async update(id: string, changes: Partial<WebhookRow>): Promise<void> {
    const values: Record<string, unknown> = { ...changes, updated_at: new Date() };
    if (changes.secrets) values.secrets = JSON.stringify(changes.secrets);
    if (changes.conditions) values.conditions = JSON.stringify(changes.conditions);
    await this.db.updateTable('webhooks').set(values).where('id', '=', id).execute();
  }

  async remove(id: string): Promise<boolean> {
    const done = await this.db.deleteFrom('webhooks').where('id', '=', id).executeTakeFirst();
    return Number(done.numDeletedRows) > 0;
  }

  /** Enqueue messages; for events, in the unit of work storing them, so both commit or neither does. */
  async enqueue(rows: NewDelivery[]): Promise<void> {
    await insertJsonRows(this.db, 'public.webhook_deliveries', rows);
  }

  /**
   * Claim due messages for leaseMs: each the oldest one owed to its endpoint for its entity, so one entity's
   * messages arrive in order and none overtakes one in retry. Another process skips what this one locked. A batch
   * is claimed through its leader, whole: its other messages come with it, and are never claimed on their own.
   */
  async claim(limit: number, leaseMs: number): Promise<ClaimedDelivery[]> {
    const claimed = await sql<ClaimedDelivery>`
      WITH due AS (
        SELECT d.id FROM webhook_deliveries d
        WHERE d.status = 'pending' AND d.next_attempt_at <= now()
          AND (d.locked_until IS NULL OR d.locked_until < now())
          AND (d.batch_id IS NULL OR d.batch_id = d.id)
          AND EXISTS (SELECT 1 FROM webhooks w WHERE w.id = d.webhook_id AND w.active)
          AND NOT EXISTS (
            SELECT 1 FROM webhook_deliveries e
            WHERE e.webhook_id = d.webhook_id AND e.key = d.key AND e.status = 'pending' AND e.seq < d.seq
              AND e.batch_id IS DISTINCT FROM d.id)
        ORDER BY d.seq LIMIT ${limit}
        FOR UPDATE SKIP LOCKED
      )
      UPDATE webhook_deliveries d SET locked_until = now() + ${`${leaseMs} milliseconds`}::interval,
        attempts = d.attempts + 1
      FROM webhooks w
      WHERE w.id = d.webhook_id AND d.status = 'pending'
        AND (d.id IN (SELECT id FROM due) OR d.batch_id IN (SELECT id FROM due))
      RETURNING d.*, w.url, w.secrets, w.batch_size`.execute(this.db);
    return claimed.rows;
  }

  /** Make claimed messages one batch, led by the first: committed before it is sent, so retries carry the same. */
  async formBatch(leaderId: string, ids: string[]): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ batch_id: leaderId })
      .where('id', 'in', ids)
      .execute();
  }

  /**
   * What attempts came to, recorded together (a dispatcher records what finished while it last wrote): each message
   * delivered, given up, or due again at its next.
   */
  async attempted(outcomes: AttemptOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    // Only where the claim still holds: a message redelivered or replayed meanwhile stays due.
    const claimed = (rows: AttemptOutcome[]) =>
      sql<boolean>`locked_until IS NOT NULL AND (id, attempts) IN (${sql.join(
        rows.map(({ delivery }) => sql`(${delivery.id}::uuid, ${delivery.attempts}::integer)`),
      )})`;
    await this.db.transaction().execute(async () => {
      await this.db
        .insertInto('webhook_attempts')
        .values(
          outcomes.map(({ delivery, attempt }) => ({
            delivery_id: delivery.id,
            attempt: delivery.attempts,
            ...attempt,
          })),
        )
        .execute();
      for (const status of ['delivered', 'failed'] as const) {
        const rows = outcomes.filter(({ outcome }) => outcome.status === status);
        if (rows.length === 0) continue;
        await this.db
          .updateTable('webhook_deliveries')
          .set({ status, locked_until: null, delivered_at: status === 'delivered' ? new Date() : null })
          .where(claimed(rows))
          .execute();
      }
      for (const row of outcomes)
        if (row.outcome.status === 'pending')
          await this.db
            .updateTable('webhook_deliveries')
            .set({ status: 'pending', locked_until: null, next_attempt_at: row.outcome.next })
            .where(claimed([row]))
            .execute();
    });
  }

  async log(webhookId: string, filter: LogFilter): Promise<DeliveryRow[]> {
    let query = this.db.selectFrom('webhook_deliveries').selectAll().where('webhook_id', '=', webhookId);
    if (filter.statuses?.length) query = query.where('status', 'in', filter.statuses);
    if (filter.topic) query = query.where('topic', '=', filter.topic);
    if (filter.since) query = query.where('created_at', '>=', filter.since);
    if (filter.until) query = query.where('created_at', '<', filter.until);
    return (await query.orderBy('seq', 'desc').limit(filter.limit).execute()) as DeliveryRow[];
  }

  async delivery(webhookId: string, id: string): Promise<DeliveryRow | null> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .where('id', '=', id)
      .executeTakeFirst();
    return (row ?? null) as DeliveryRow | null;
  }

  async attempts(deliveryId: string): Promise<AttemptRow[]> {
    return (await this.db
      .selectFrom('webhook_attempts')
      .select(['attempt', 'status_code', 'response', 'error', 'latency_ms', 'at'])
      .where('delivery_id', '=', deliveryId)
      .orderBy('id')
      .execute()) as AttemptRow[];
  }

  /**
   * Send messages of a webhook again, due now: one (with its webhook-id, when it went alone), a time range, or
   * those held. They leave their batches; what is left of a batch without its leader goes on its own again.
   */
  async requeue(
    webhookId: string,
    which: { id: string } | { since: Date; until: Date } | { held: true },
  ): Promise<number> {
    return this.db.transaction().execute(async () => {
      let query = this.db
        .updateTable('webhook_deliveries')
        .set({
          status: 'pending',
          next_attempt_at: new Date(),
          locked_until: null,
          delivered_at: null,
          batch_id: null,
        })
        .where('webhook_id', '=', webhookId);
      if ('id' in which) query = query.where('id', '=', which.id);
      else if ('held' in which) query = query.where('status', '=', 'held');
      else query = query.where('created_at', '>=', which.since).where('created_at', '<', which.until);
      const requeued = Number((await query.executeTakeFirst()).numUpdatedRows);
      await sql`UPDATE webhook_deliveries d SET batch_id = NULL
        WHERE d.webhook_id = ${webhookId} AND d.batch_id IS NOT NULL AND d.status IN ('pending', 'held')
          AND NOT EXISTS (SELECT 1 FROM webhook_deliveries l WHERE l.id = d.batch_id AND l.batch_id = l.id)`.execute(
        this.db,
      );
      return requeued;
    });
  }

  /**
   * Move a webhook's messages from one status to another: pending to held when it pauses (they wait until it is
   * re-enabled), held to skipped when it is re-enabled without replaying them.
   */
  async move(webhookId: string, from: 'pending' | 'held', to: 'held' | 'skipped'): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({ status: to, locked_until: null })
      .where('webhook_id', '=', webhookId)
      .where('status', '=', from)
      .execute();
  }

  /** Forget finished messages (and their attempts) created before cutoff: the log keeps 14 days. */
  async prune(cutoff: Date): Promise<void> {
    await this.db
      .deleteFrom('webhook_deliveries')
      .where('created_at', '<', cutoff)
      .where('status', 'in', ['delivered', 'failed', 'skipped'])
      .execute();
  }
}
