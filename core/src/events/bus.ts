import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import {
  Conflict,
  currentUnitOfWork,
  eventRowMessage,
  insertJsonRows,
  isId,
  newOrderedId,
  runWithoutSender,
  topicMatcher,
  type Database,
  type DatabaseTransaction,
  type EventBus,
  type EventChanges,
  type EventHandler,
  type EventInput,
  type EventLookup,
  type EventMessage,
  type EventRow,
  type EventStatus,
  type StoredEvent,
  type StoredEventsHook,
} from '@pipewright/sdk';
import { eventMessage, eventRow } from './messages.js';
import type { EventRelay } from './redis-relay.js';

/** Events one emitMany call gave, waiting to be written, and how to tell the caller. */
interface HandOver {
  stored: { input: EventInput; message: EventMessage }[];
  messages: EventMessage[];
  written: () => void;
  refused: (error: unknown) => void;
}

interface Subscription {
  matches: (topic: string) => boolean;
  handler: EventHandler;
}

const storedEvent = (row: EventRow): StoredEvent => ({
  ...eventRowMessage(row),
  payload: row.payload,
  retries: row.retries,
});

/** Persists events in public.events and delivers them to subscribers here and, through the relay, elsewhere. */
export class CoreEventBus implements EventBus {
  private readonly subscriptions = new Set<Subscription>();
  private readonly storedHooks: StoredEventsHook[] = [];
  private relay: EventRelay | null = null;
  /** The last write of events under way; the next one waits for it. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Hand-overs waiting for the next write, and whether one is scheduled to take them. */
  private waiting: HandOver[] = [];
  private flushScheduled = false;

  constructor(
    private readonly db: Database,
    private readonly log: FastifyBaseLogger,
  ) {}

  useRelay(relay: EventRelay): void {
    this.relay = relay;
  }

  async emit(input: EventInput): Promise<{ id: string }> {
    const [result] = await this.emitMany([input]);
    return result;
  }

  async emitMany(inputs: EventInput[]): Promise<{ id: string }[]> {
    const now = new Date().toISOString();
    const messages = inputs.map((input) => eventMessage(input, now));
    const stored = inputs
      .map((input, i) => ({ input, message: messages[i] }))
      .filter(({ message }) => message.store);
    if (currentUnitOfWork(this.db)) {
      await this.storeInUnit(stored, messages);
      return messages.map((message) => ({ id: message.id }));
    }
    // Notices that are not stored (progress, cache invalidation) go out at once, without waiting for writes.
    if (!stored.length) {
      await this.announceAll(messages);
      return messages.map((message) => ({ id: message.id }));
    }
    await new Promise<void>((written, refused) => this.enqueue({ stored, messages, written, refused }));
    return messages.map((message) => ({ id: message.id }));
  }

  /**
   * Hand-overs are written and broadcast in the order they were emitted, even when their callers do not wait for
   * them, and those that arrive while a write is under way are written together by the next one (group commit):
   * under a steady stream of events the database sees one INSERT per batch instead of one per event.
   */
  private enqueue(handOver: HandOver): void {
    this.waiting.push(handOver);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    const done = this.writing.then(async () => {
      this.flushScheduled = false;
      const group = this.waiting.splice(0);
      // Whatever goes wrong, no caller is left waiting (settling a promise twice does nothing).
      await this.flush(group).catch((error) => group.forEach((handOver) => handOver.refused(error)));
    });
    this.writing = done;
  }

  /** Write a group of hand-overs at once; when that is refused, each on its own, so only the faulty one fails. */
  private async flush(group: HandOver[]): Promise<void> {
    let written = group;
    try {
      await this.write(group.flatMap((handOver) => handOver.stored));
    } catch (error) {
      if (group.length === 1) {
        group[0].refused(error);
        return;
      }
      written = [];
      for (const handOver of group) {
        try {
          await this.write(handOver.stored);
          written.push(handOver);
        } catch (own) {
          handOver.refused(own);
        }
      }
    }
    await this.announceAll(written.flatMap((handOver) => handOver.messages));
    for (const handOver of written) handOver.written();
  }

  /** Store events, all or none; a hash already taken is a 409. */
  private async write(stored: { input: EventInput; message: EventMessage }[]): Promise<void> {
    try {
      const taken = await this.idTakenAsHash(stored);
      if (taken) throw taken;
      // All or nothing: several INSERTs, or the events and what hooks write of them, share a transaction.
      if (stored.length > 1000 || this.storedHooks.length)
        await this.db.transaction().execute((trx) => this.store(trx, stored));
      else await this.store(this.db, stored);
    } catch (error) {
      throw (await this.takenHash(error, stored)) ?? error;
    }
  }

  /**
   * Inside a unit of work the events are written by its transaction, with an outbox row listing them, and published
   * once it commits: a rolled-back change publishes nothing. The row goes when they are published; rows left by
   * a crash are published at the next start (publishUnpublished). Never waits for the hand-overs of `writing`:
   * on PGlite those may be waiting for the connection this unit holds.
   */
  private async storeInUnit(
    stored: { input: EventInput; message: EventMessage }[],
    messages: EventMessage[],
  ): Promise<void> {
    const outboxId = stored.length ? newOrderedId() : null;
    if (outboxId) {
      // Checked first: a refused INSERT would abort the unit's whole transaction.
      const taken = (await this.idTakenAsHash(stored)) ?? (await this.hashTaken(stored));
      if (taken) throw taken;
      try {
        await this.store(this.db, stored);
      } catch (error) {
        // The transaction is aborted: no look-up can name the hash any more.
        if ((error as { code?: string }).code === '23505')
          throw new Conflict('An event with one of these hashes already exists', 'duplicate-hash');
        throw error;
      }
      const ids = stored.map(({ message }) => message.id);
      await sql`INSERT INTO public.event_outbox (id, event_ids) VALUES (${outboxId}, ${ids}::uuid[])`.execute(
        this.db,
      );
    }
    currentUnitOfWork(this.db)!.afterCommit(() => this.publishCommitted(messages, outboxId));
  }

  /** Publish what a committed unit wrote, in order with other hand-overs, then forget its outbox row. */
  private publishCommitted(messages: EventMessage[], outboxId: string | null): void {
    const done = this.writing.then(async () => {
      await this.announceAll(messages);
      if (outboxId) await this.db.deleteFrom('public.event_outbox').where('id', '=', outboxId).execute();
    });
    this.writing = done.catch((error) =>
      this.log.error({ err: error }, 'could not publish committed events'),
    );
  }

  /**
   * Publish the events committed but not published before the last stop (a crash between commit and publish),
   * oldest first. Subscribers may hear such an event twice, never not at all.
   */
  async publishUnpublished(): Promise<number> {
    let published = 0;
    const outbox = await this.db.selectFrom('public.event_outbox').select('id').orderBy('id').execute();
    for (const { id } of outbox) {
      const rows = await this.db
        .selectFrom('public.events')
        .selectAll()
        .where(sql<boolean>`id = ANY((SELECT event_ids FROM public.event_outbox WHERE id = ${id})::uuid[])`)
        .orderBy('creation_order')
        .execute();
      await this.announceAll(rows.map((row) => eventRowMessage(row)));
      await this.db.deleteFrom('public.event_outbox').where('id', '=', id).execute();
      published += rows.length;
    }
    if (published) this.log.info(`published ${published} events committed before the last stop`);
    return published;
  }

  /** Write events a thousand per INSERT: a batch of operations may emit tens of thousands. */
  private async store(
    trx: Database | DatabaseTransaction,
    events: { input: EventInput; message: EventMessage }[],
  ) {
    for (let i = 0; i < events.length; i += 1000) {
      const rows = events.slice(i, i + 1000).map(({ input, message }) => eventRow(message, input));
      await insertJsonRows(trx, 'public.events', rows);
    }
    if (!this.storedHooks.length) return;
    const written = events.map(({ input, message }) => ({
      ...message,
      payload: input.payload ?? {},
      retries: 0,
    }));
    for (const hook of this.storedHooks) await hook(written);
  }

  onStored(hook: StoredEventsHook): () => void {
    this.storedHooks.push(hook);
    return () => {
      const at = this.storedHooks.indexOf(hook);
      if (at >= 0) this.storedHooks.splice(at, 1);
    };
  }

  /**
   * An event stored without a hash of its own answers to its id, which the unique index of hashes does not hold:
   * an explicit hash that is such an event's id is taken too. Only hashes of an id's form need the look-up.
   */
  private async idTakenAsHash(events: { input: EventInput }[]): Promise<Conflict | undefined> {
    const ids = events.map(({ input }) => input.hash).filter((hash) => hash !== undefined && isId(hash));
    if (!ids.length) return undefined;
    const row = await this.db
      .selectFrom('public.events')
      .select('id')
      .where(sql<boolean>`id = ANY(${ids}::uuid[]) AND hash IS NULL`)
      .executeTakeFirst();
    return row && new Conflict(`An event with hash ${row.id} already exists`, 'duplicate-hash');
  }

  /**
   * A refused write whose hash is taken (by a stored event or twice in the hand-over) becomes a 409. Checked after
   * the fact: a plain INSERT costs PostgreSQL far less than ON CONFLICT, and nothing of the hand-over is written.
   */
  private async takenHash(error: unknown, events: { input: EventInput }[]): Promise<Conflict | undefined> {
    if ((error as { code?: string }).code !== '23505') return undefined;
    return this.hashTaken(events);
  }

  /** A conflict for the first hash of these events given twice or already stored, if any. */
  private async hashTaken(events: { input: EventInput }[]): Promise<Conflict | undefined> {
    const hashes = events.flatMap(({ input }) => input.hash ?? []);
    const seen = new Set<string>();
    let taken = hashes.find((hash) => seen.size === seen.add(hash).size);
    for (let i = 0; !taken && i < hashes.length; i += 1000) {
      const row = await this.db
        .selectFrom('public.events')
        .select('hash')
        .where('hash', 'in', hashes.slice(i, i + 1000))
        .executeTakeFirst();
      taken = row?.hash;
    }
    return taken === undefined
      ? undefined
      : new Conflict(`An event with hash ${taken} already exists`, 'duplicate-hash');
  }

  /** Inside a unit of work the message goes out once it commits. */
  async announce(message: EventMessage): Promise<void> {
    const unit = currentUnitOfWork(this.db);
    if (unit) unit.afterCommit(() => this.publishCommitted([message], null));
    else await this.announceAll([message]);
  }

  /** Deliver here, then to other processes a thousand per Redis message. */
  private async announceAll(messages: EventMessage[]): Promise<void> {
    this.deliver(messages);
    for (let i = 0; this.relay && i < messages.length; i += 1000) {
      await this.relay
        .publish(messages.slice(i, i + 1000))
        .catch((error) => this.log.error({ err: error }, 'could not publish events to redis'));
    }
  }

  async update(
    id: string,
    changes: EventChanges,
    options: { ifStatus?: EventStatus[] } = {},
  ): Promise<boolean> {
    const values: Record<string, unknown> = { updated_at: new Date() };
    if (changes.status !== undefined) values.status = changes.status;
    if (changes.description !== undefined) values.description = changes.description;
    if (changes.summary !== undefined) values.summary = JSON.stringify(changes.summary);
    if (changes.payload !== undefined) values.payload = JSON.stringify(changes.payload);
    if (changes.retries !== undefined) values.retries = changes.retries;
    let change = this.db.updateTable('public.events').set(values).where('id', '=', id);
    if (options.ifStatus) change = change.where('status', 'in', options.ifStatus);
    const row = await change.returningAll().executeTakeFirst();
    if (!row) return false;
    await this.announce({ ...eventRowMessage(row), progress: changes.progress ?? null });
    return true;
  }

  async get(id: string): Promise<StoredEvent | null> {
    const row = await this.db.selectFrom('public.events').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? storedEvent(row) : null;
  }

  async find(lookup: EventLookup): Promise<StoredEvent[]> {
    let query = this.db.selectFrom('public.events').selectAll().where('topic', 'in', lookup.topics);
    if (lookup.hash !== undefined) query = query.where('hash', '=', lookup.hash);
    if (lookup.statuses) query = query.where('status', 'in', lookup.statuses);
    query = query.orderBy('creation_order', lookup.newestFirst ? 'desc' : 'asc');
    if (lookup.limit !== undefined) query = query.limit(lookup.limit);
    return (await query.execute()).map(storedEvent);
  }

  subscribe(pattern: string, handler: EventHandler): () => void {
    const subscription = { matches: topicMatcher(pattern), handler };
    this.subscriptions.add(subscription);
    return () => this.subscriptions.delete(subscription);
  }

  /**
   * Hand messages, in order, to every subscriber whose pattern matches, once the current task is done: one task
   * per subscriber, however many messages (a batch of operations hands over thousands). A failing subscriber or
   * message never affects the others. remote: the messages came from another process.
   */
  deliver(messages: EventMessage[], remote = false): void {
    for (const { matches, handler } of this.subscriptions) {
      const heard = messages.filter((message) => matches(message.topic));
      if (heard.length)
        queueMicrotask(() =>
          runWithoutSender(() => heard.forEach((message) => this.hand(handler, message, remote))),
        );
    }
  }

  private hand(handler: EventHandler, message: EventMessage, remote: boolean): void {
    try {
      const result: unknown = handler(message, remote);
      if (result instanceof Promise) result.catch((error) => this.subscriberFailed(error, message));
    } catch (error) {
      this.subscriberFailed(error, message);
    }
  }

  private subscriberFailed(error: unknown, message: EventMessage): void {
    this.log.error({ err: error, topic: message.topic }, 'event subscriber failed');
  }

  async delivered(): Promise<void> {
    // Hand-overs made while waiting extend the chain; wait for those too.
    for (let last: Promise<unknown> | null = null; last !== this.writing;) await (last = this.writing);
  }

  /** Events handed over before closing are still written. */
  async close(): Promise<void> {
    await this.writing;
    this.subscriptions.clear();
    await this.relay?.close();
  }
}
