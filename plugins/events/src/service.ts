import { sql } from 'kysely';
import {
  BadRequest,
  NotFound,
  compileEventFilter,
  eventRowMessage,
  isId,
  newOrderedId,
  type AddonContext,
  type EventInput,
  type EventRow,
} from '@pipewright/sdk';
import { enroll, type EnrollOptions } from './enroll.js';

type Context = Pick<AddonContext, 'db' | 'events'>;

/** Who an event belongs to: the columns the bus's own update leaves alone. */
export interface EventOwner {
  sender?: string | null;
  project?: string | null;
  user?: string;
}

/** The event log as the events API reads and changes it: the core's public.events table and its bus. */
export class EventLog {
  constructor(private readonly ctx: Context) {}

  async find(id: string): Promise<EventRow> {
    const row = await this.ctx.db
      .selectFrom('public.events')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFound(`Event ${id} not found`);
    return row;
  }

  /**
   * Store (or, unstored, only broadcast) an event. reuse with a hash replaces the event of that hash in place, in
   * one upsert statement, so concurrent dispatches of the same hash cannot both insert; the row keeps its id, which
   * keeps events that depend on it linked. Without reuse a duplicate hash is a conflict (409, from the bus).
   */
  async dispatch(input: EventInput, reuse: boolean): Promise<{ id: string }> {
    if (!input.store) return this.ctx.events.emit(input);
    if (input.dependsOn) {
      const parent = await this.ctx.db
        .selectFrom('public.events')
        .select('id')
        .where('id', '=', input.dependsOn)
        .executeTakeFirst();
      if (!parent)
        throw new BadRequest(`dependsOn: event ${input.dependsOn} does not exist`, 'invalid-depends-on');
    }
    if (!reuse || input.hash == null) return this.ctx.events.emit(input);
    const hash = input.hash;
    return this.ctx.db.transaction().execute(async () => {
      // An event stored without a hash answers to its id: when that is the hash given, it takes it as its own
      // first, so that the upsert finds it.
      if (isId(hash))
        await sql`UPDATE public.events SET hash = ${hash} WHERE id = ${hash} AND hash IS NULL`.execute(
          this.ctx.db,
        );
      const { rows } = await sql<EventRow>`
        INSERT INTO public.events AS e (id, hash, topic, sender, sender_type, project_name, user_name, depends_on, status, description, summary, payload)
        VALUES (${newOrderedId()}, ${hash}, ${input.topic}, ${input.sender ?? null}, ${input.senderType ?? null}, ${input.project ?? null},
                ${input.user ?? null}, ${input.dependsOn ?? null}, ${input.status}, ${input.description ?? ''},
                ${JSON.stringify(input.summary ?? {})}::jsonb, ${JSON.stringify(input.payload ?? {})}::jsonb)
        ON CONFLICT (hash) WHERE hash IS NOT NULL DO UPDATE SET
          topic = excluded.topic, sender = excluded.sender, sender_type = excluded.sender_type,
          project_name = excluded.project_name, user_name = excluded.user_name, depends_on = excluded.depends_on,
          status = excluded.status, retries = 0, description = excluded.description, summary = excluded.summary,
          payload = excluded.payload, created_at = now(), updated_at = now()
        RETURNING *`.execute(this.ctx.db);
      await this.ctx.events.announce(eventRowMessage(rows[0]));
      return { id: rows[0].id };
    });
  }

  /** Change an event and who it belongs to, in one transaction; false when there is no such event. */
  async update(id: string, owner: EventOwner, changes: Parameters<Context['events']['update']>[1]) {
    return this.ctx.db.transaction().execute(async () => {
      // The bus cannot change who an event belongs to; those columns are written first, so that the announcement
      // the bus makes already carries them.
      const columns: Record<string, unknown> = {};
      if (owner.sender !== undefined) columns.sender = owner.sender;
      if (owner.project !== undefined) columns.project_name = owner.project;
      if (owner.user !== undefined) columns.user_name = owner.user;
      if (Object.keys(columns).length)
        await this.ctx.db.updateTable('public.events').set(columns).where('id', '=', id).execute();
      return this.ctx.events.update(id, changes);
    });
  }

  async remove(id: string): Promise<void> {
    const gone = await this.ctx.db
      .deleteFrom('public.events')
      .where('id', '=', id)
      .returning('id')
      .executeTakeFirst();
    if (!gone) throw new NotFound(`Event ${id} not found`);
  }

  /** The events a filter selects, newest first. */
  async query(filter: unknown, limit: number, offset: number): Promise<EventRow[]> {
    const { rows } = await sql<EventRow>`
      SELECT * FROM public.events AS e WHERE ${compileEventFilter(filter, 'e')}
      ORDER BY e.creation_order DESC LIMIT ${Math.max(limit, 0)} OFFSET ${Math.max(offset, 0)}`.execute(
      this.ctx.db,
    );
    return rows;
  }

  /**
   * Delete, restart or abort the events a filter selects. restart: failed or aborted jobs become "restarted" with
   * a fresh retry budget, and enroll hands them out again; abort: jobs not yet done (pending, in progress) stop.
   */
  async operate(type: 'delete' | 'restart' | 'abort', filter: unknown): Promise<void> {
    const where = compileEventFilter(filter, 'e');
    if (type === 'delete') {
      await sql`DELETE FROM public.events AS e WHERE ${where}`.execute(this.ctx.db);
      return;
    }
    const [status, from] =
      type === 'restart'
        ? ['restarted', sql`('failed', 'aborted')`]
        : ['aborted', sql`('pending', 'in_progress')`];
    const retries = type === 'restart' ? sql`0` : sql`e.retries`;
    await this.ctx.db.transaction().execute(async () => {
      const { rows } = await sql<EventRow>`
        UPDATE public.events AS e SET status = ${status}, retries = ${retries}, updated_at = now()
        WHERE e.status IN ${from} AND ${where}
        RETURNING *`.execute(this.ctx.db);
      for (const row of rows) await this.ctx.events.announce(eventRowMessage(row));
    });
  }

  /** The next job for a service (see enroll.ts), its filter read over the source events; null for none. */
  async enroll(options: Omit<EnrollOptions, 'filter'> & { filter: unknown }) {
    const result = await enroll(this.ctx.db, { ...options, filter: compileEventFilter(options.filter, 's') });
    // Announced after the commit: subscribers never hear of a job that was rolled back.
    if (!result) return null;
    if (result.changed) await this.ctx.events.announce(result.changed);
    return result.job;
  }
}
