import {
  BadRequest,
  Forbidden,
  isManagerOrAbove,
  isoTime,
  newId,
  NotFound,
  type Database,
  type EventBus,
  type RequestUser,
  type StoredEvent,
} from '@pipewright/sdk';
import type { Notices } from '@pipewright/plugin-notices/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import { checkConditions, type Condition } from './conditions.js';
import { messageBody, orderKey, wants } from './matching.js';
import { newSecret } from './signing.js';
import type { DeliveryRow, LogFilter, NewDelivery, WebhookRow, WebhookStore } from './store.js';
import { checkUrl, resolvePublic } from './target.js';

/** A webhook as an administrator writes it. */
export interface WebhookInput {
  name: string;
  url: string;
  projectName?: string | null;
  topics: string[];
  entityTypes?: string[];
  attributes?: string[];
  payload?: 'thin' | 'full';
  conditions?: Condition[];
  batchSize?: number;
}

/** A change to a webhook; re-enabling it replays what it missed while paused, unless replay is false. */
export interface WebhookPatch extends Partial<WebhookInput> {
  active?: boolean;
  replay?: boolean;
}

/** Consecutive failed attempts after which an endpoint is unstable. */
const UNSTABLE_AFTER = 5;
/** How long a rotated secret keeps signing beside the new one. */
const ROTATION_OVERLAP_MS = 24 * 3_600_000;
/** What other processes' changes may take to be seen here when their broadcast is lost. */
const CACHE_MS = 30_000;

export const presentWebhook = (row: WebhookRow) => ({
  id: row.id.replaceAll('-', ''),
  name: row.name,
  url: row.url,
  projectName: row.project_name,
  topics: row.topics,
  entityTypes: row.entity_types,
  attributes: row.attributes,
  payload: row.payload,
  conditions: row.conditions,
  batchSize: row.batch_size,
  active: row.active,
  health: row.health,
  failures: row.failures,
  createdBy: row.created_by,
  createdAt: isoTime(row.created_at),
  updatedAt: isoTime(row.updated_at),
});

export const presentDelivery = (row: DeliveryRow) => ({
  id: row.id.replaceAll('-', ''),
  sequence: Number(row.seq),
  batchId: row.batch_id?.replaceAll('-', '') ?? null,
  topic: row.topic,
  eventId: row.event_id?.replaceAll('-', '') ?? null,
  status: row.status,
  attempts: row.attempts,
  nextAttemptAt: row.status === 'pending' ? isoTime(row.next_attempt_at) : null,
  createdAt: isoTime(row.created_at),
  deliveredAt: row.delivered_at ? isoTime(row.delivered_at) : null,
});

/**
 * Webhooks: administrators' (any scope) and managers' (their projects'). Messages are enqueued by the transaction
 * that stores their events (enqueue, an event bus hook), so a committed change is sent on even after a crash.
 */
export class WebhookService {
  private cache: { rows: WebhookRow[]; at: number } | null = null;

  constructor(
    private readonly db: Database,
    private readonly store: WebhookStore,
    private readonly deps: { projects: ProjectDirectory; notices: Notices },
    private readonly events: EventBus,
    private readonly poke: () => void,
  ) {}

  /** The messages stored events owe to webhooks, written in the unit of work that stores the events. */
  async enqueue(events: StoredEvent[]): Promise<boolean> {
    const webhooks = await this.all();
    const rows: NewDelivery[] = [];
    for (const event of events)
      for (const webhook of webhooks)
        if (wants(webhook, event))
          rows.push({
            id: newId(),
            webhook_id: webhook.id,
            event_id: event.id,
            topic: event.topic,
            key: orderKey(event),
            body: messageBody(webhook, event),
            status: webhook.active ? 'pending' : 'held',
          });
    if (rows.length) await this.store.enqueue(rows);
    return rows.length > 0;
  }

  /** Every webhook, kept for a while: every stored event is matched against them. */
  private async all(): Promise<WebhookRow[]> {
    if (!this.cache || Date.now() - this.cache.at > CACHE_MS)
      this.cache = { rows: await this.store.list(), at: Date.now() };
    return this.cache.rows;
  }

  /** Forget the kept webhooks (a change here, or another process's broadcast). */
  forget(): void {
    this.cache = null;
  }

  private async changed(): Promise<void> {
    this.forget();
    await this.events.emit({ topic: 'webhook.changed', store: false });
  }

  async list(caller: RequestUser) {
    this.mayManage(caller, 'some project');
    const rows = await this.store.list();
    return rows.filter((row) => this.allowed(caller, row.project_name)).map(presentWebhook);
  }

  async get(caller: RequestUser, id: string) {
    return presentWebhook(await this.existing(caller, id));
  }

  async create(caller: RequestUser, input: WebhookInput): Promise<{ id: string; secret: string }> {
    const projectName = await this.scope(caller, input.projectName ?? null);
    await this.checkTarget(input.url);
    checkConditions(input.conditions ?? []);
    const id = newId();
    const secret = newSecret();
    await this.store.insert({
      id,
      name: input.name,
      url: input.url,
      project_name: projectName,
      topics: input.topics,
      entity_types: input.entityTypes ?? [],
      attributes: input.attributes ?? [],
      payload: input.payload ?? 'thin',
      conditions: input.conditions ?? [],
      batch_size: input.batchSize ?? 1,
      secrets: [{ secret, until: null }],
      active: true,
      created_by: caller.name,
    });
    await this.changed();
    return { id, secret };
  }

  async update(caller: RequestUser, id: string, patch: WebhookPatch): Promise<void> {
    const current = await this.existing(caller, id);
    const changes: Partial<WebhookRow> = {};
    if (patch.projectName !== undefined) changes.project_name = await this.scope(caller, patch.projectName);
    if (patch.url !== undefined) {
      await this.checkTarget(patch.url);
      changes.url = patch.url;
    }
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.topics !== undefined) changes.topics = patch.topics;
    if (patch.entityTypes !== undefined) changes.entity_types = patch.entityTypes;
    if (patch.attributes !== undefined) changes.attributes = patch.attributes;
    if (patch.payload !== undefined) changes.payload = patch.payload;
    if (patch.conditions !== undefined) {
      checkConditions(patch.conditions);
      changes.conditions = patch.conditions;
    }
    if (patch.batchSize !== undefined) changes.batch_size = patch.batchSize;
    if (patch.active !== undefined && patch.active !== current.active) {
      changes.active = patch.active;
      if (patch.active) Object.assign(changes, { health: 'active', failures: 0 });
    }
    await this.store.update(current.id, changes);
    if (changes.active === false) await this.store.move(current.id, 'pending', 'held');
    if (changes.active === true) {
      if (patch.replay === false) await this.store.move(current.id, 'held', 'skipped');
      else await this.store.requeue(current.id, { held: true });
    }
    await this.changed();
    this.poke();
  }

  async remove(caller: RequestUser, id: string): Promise<void> {
    const current = await this.existing(caller, id);
    await this.store.remove(current.id);
    await this.changed();
  }

  /** A new secret, signing from now on; the others sign beside it for a day, so receivers can switch over. */
  async rotate(caller: RequestUser, id: string): Promise<{ secret: string }> {
    const current = await this.existing(caller, id);
    const now = Date.now();
    const until = new Date(now + ROTATION_OVERLAP_MS).toISOString();
    const kept = current.secrets
      .filter((old) => old.until === null || Date.parse(old.until) > now)
      .map((old) => ({ secret: old.secret, until: old.until ?? until }));
    const secret = newSecret();
    await this.store.update(current.id, { secrets: [{ secret, until: null }, ...kept] });
    await this.changed();
    return { secret };
  }

  async deliveries(caller: RequestUser, id: string, filter: LogFilter) {
    const current = await this.existing(caller, id);
    return (await this.store.log(current.id, filter)).map(presentDelivery);
  }

  async delivery(caller: RequestUser, id: string, deliveryId: string) {
    const current = await this.existing(caller, id);
    const row = await this.store.delivery(current.id, deliveryId);
    if (!row) throw new NotFound(`Delivery ${deliveryId} of webhook ${id} not found`);
    const attempts = (await this.store.attempts(row.id)).map((attempt) => ({
      attempt: attempt.attempt,
      statusCode: attempt.status_code,
      response: attempt.response,
      error: attempt.error,
      latencyMs: attempt.latency_ms,
      at: isoTime(attempt.at),
    }));
    return { ...presentDelivery(row), body: row.body, log: attempts };
  }

  async redeliver(caller: RequestUser, id: string, deliveryId: string): Promise<void> {
    const current = await this.existing(caller, id);
    if (!(await this.store.requeue(current.id, { id: deliveryId })))
      throw new NotFound(`Delivery ${deliveryId} of webhook ${id} not found`);
    this.poke();
  }

  /** Send again every message of a time range, with their own webhook-ids (receivers drop what they had). */
  async replay(caller: RequestUser, id: string, since: Date, until: Date): Promise<{ queued: number }> {
    const current = await this.existing(caller, id);
    if (since >= until) throw new BadRequest('since must come before until', 'webhook-replay-range');
    const queued = await this.store.requeue(current.id, { since, until });
    this.poke();
    return { queued };
  }

  /** A test message, webhook.ping, sent as events are. */
  async ping(caller: RequestUser, id: string): Promise<{ id: string }> {
    const current = await this.existing(caller, id);
    const deliveryId = newId();
    const timestamp = new Date().toISOString();
    await this.store.enqueue([
      {
        id: deliveryId,
        webhook_id: current.id,
        event_id: null,
        topic: 'webhook.ping',
        key: deliveryId,
        body: { type: 'webhook.ping', timestamp, data: { webhook: current.name, sentBy: caller.name } },
        status: current.active ? 'pending' : 'held',
      },
    ]);
    this.poke();
    return { id: deliveryId };
  }

  /** The dispatcher's news of an endpoint: an answer in 2xx makes it healthy again. */
  async succeeded(webhookId: string): Promise<void> {
    const current = (await this.all()).find((row) => row.id === webhookId);
    if (current && current.failures === 0 && current.health === 'active') return;
    await this.store.update(webhookId, { failures: 0, health: 'active' });
    await this.changed();
  }

  /**
   * A failed attempt. paused says why the endpoint pauses, when it does: it is gone (410), or a message ran out of
   * retries. Its messages are then held, and whoever made it is told in their inbox, in the same transaction.
   */
  async failed(webhookId: string, paused: string | null): Promise<void> {
    await this.db.transaction().execute(async () => {
      const current = await this.store.get(webhookId);
      if (!current) return;
      const failures = current.failures + 1;
      await this.store.update(webhookId, {
        failures,
        health: paused ? 'failed' : failures >= UNSTABLE_AFTER ? 'unstable' : current.health,
        ...(paused ? { active: false } : {}),
      });
      if (!paused || !current.active) return;
      await this.store.move(webhookId, 'pending', 'held');
      if (current.created_by)
        await this.deps.notices.send([current.created_by], {
          topic: 'webhook.paused',
          title: `Webhook "${current.name}" paused: ${paused}`,
          body:
            `Nothing more is sent to ${current.url} until it is resumed; what happens meanwhile is kept. ` +
            'Resume it in Settings › Webhooks, and choose there whether to send what it missed.',
          link: `/addon/webhooks/webhooks_screens?webhook=${current.id.replaceAll('-', '')}`,
        });
    });
    await this.changed();
  }

  private allowed(caller: RequestUser, projectName: string | null): boolean {
    if (caller.isAdmin || caller.isService) return true;
    return isManagerOrAbove(caller) && projectName !== null;
  }

  private mayManage(caller: RequestUser, scope: string | null): void {
    if (!this.allowed(caller, scope))
      throw new Forbidden(
        scope === null ? 'Only administrators manage studio-wide webhooks' : 'Only managers manage webhooks',
      );
  }

  /** The project a webhook may be scoped to by the caller (null: studio-wide). */
  private async scope(caller: RequestUser, projectName: string | null): Promise<string | null> {
    this.mayManage(caller, projectName);
    return projectName === null ? null : (await this.deps.projects.require(caller, projectName)).name;
  }

  private async existing(caller: RequestUser, id: string): Promise<WebhookRow> {
    const row = await this.store.get(id);
    if (!row) throw new NotFound(`Webhook ${id} not found`);
    this.mayManage(caller, row.project_name);
    return row;
  }

  /**
   * A target as saved: http(s), and not private (unless allowed). A name that does not resolve yet is taken: the
   * receiver may not be up, and every attempt checks again.
   */
  private async checkTarget(raw: string): Promise<void> {
    await resolvePublic(checkUrl(raw).hostname).catch((error: { errorCode?: string }) => {
      if (error.errorCode !== 'webhook-unresolved') throw error;
    });
  }
}
