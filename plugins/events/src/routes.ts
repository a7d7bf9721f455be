import { sql } from 'kysely';
import {
  BadRequest,
  Forbidden,
  NoContent,
  NotFound,
  ServiceUnavailable,
  Type,
  ValidationFailed,
  isManagerOrAbove,
  requireAdmin,
  requireManager,
  requireUser,
  type AddonApp,
  type AddonContext,
  type EventInput,
  type EventRow,
  type RequestUser,
  compileEventFilter,
  eventRowMessage,
  eventRowModel,
  isId,
  newOrderedId,
} from '@pipewright/sdk';
import { enroll, shouldShed } from './enroll.js';
import {
  DispatchEvent,
  DispatchResponse,
  EnrollRequest,
  EnrollResponse,
  EventModel,
  EventOperation,
  EventParams,
  EventPatch,
  QueriedEvent,
  QueryRequest,
} from './schemas.js';

type Context = Pick<AddonContext, 'db' | 'events' | 'storage'>;

async function findEvent(ctx: Context, id: string): Promise<EventRow> {
  const row = await ctx.db.selectFrom('public.events').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound(`Event ${id} not found`);
  return row;
}

/** Managers (and admins, service users) reach every event; everyone else only events recorded as theirs. */
function requireOwnerOrManager(caller: RequestUser, row: EventRow): void {
  if (!isManagerOrAbove(caller) && row.user_name !== caller.name)
    throw new Forbidden('You can only access your own events');
}

export function eventRoutes(ctx: Context) {
  return async (app: AddonApp) => {
    app.post(
      '/api/events',
      { schema: { summary: 'Dispatch an event', body: DispatchEvent, response: { 200: DispatchResponse } } },
      async (request) => {
        const caller = requireManager(request);
        const body = request.body;
        const input: EventInput = {
          topic: body.topic,
          sender: body.sender ?? request.sender.sender,
          senderType: request.sender.senderType,
          hash: body.hash ?? undefined,
          project: body.project ?? null,
          user: body.user ?? caller.name,
          dependsOn: body.dependsOn ?? null,
          description: body.description ?? '',
          summary: body.summary ?? {},
          payload: body.payload ?? {},
          status: body.finished ? 'finished' : 'pending',
          store: body.store,
        };
        if (!body.store) return ctx.events.emit(input);
        if (body.dependsOn) {
          const parent = await ctx.db
            .selectFrom('public.events')
            .select('id')
            .where('id', '=', body.dependsOn)
            .executeTakeFirst();
          if (!parent)
            throw new BadRequest(`dependsOn: event ${body.dependsOn} does not exist`, 'invalid-depends-on');
        }
        // A duplicate hash makes the bus throw Conflict (409).
        if (!body.reuse || body.hash == null) return ctx.events.emit(input);
        // reuse: one upsert statement, so concurrent dispatches of the same hash cannot both insert. The row keeps
        // its id, which keeps events that depend on it linked. An event stored without a hash answers to its id:
        // when that is the hash given, it takes it as its own first, so that the upsert finds it.
        if (isId(body.hash))
          await sql`UPDATE public.events SET hash = ${body.hash} WHERE id = ${body.hash} AND hash IS NULL`.execute(
            ctx.db,
          );
        const { rows } = await sql<EventRow>`
          INSERT INTO public.events AS e (id, hash, topic, sender, sender_type, project_name, user_name, depends_on, status, description, summary, payload)
          VALUES (${newOrderedId()}, ${body.hash}, ${input.topic}, ${input.sender ?? null}, ${input.senderType ?? null}, ${input.project ?? null},
                  ${input.user ?? null}, ${input.dependsOn ?? null}, ${input.status}, ${input.description}, ${JSON.stringify(input.summary)}::jsonb,
                  ${JSON.stringify(input.payload)}::jsonb)
          ON CONFLICT (hash) WHERE hash IS NOT NULL DO UPDATE SET
            topic = excluded.topic, sender = excluded.sender, sender_type = excluded.sender_type,
            project_name = excluded.project_name, user_name = excluded.user_name, depends_on = excluded.depends_on,
            status = excluded.status, retries = 0, description = excluded.description, summary = excluded.summary,
            payload = excluded.payload, created_at = now(), updated_at = now()
          RETURNING *`.execute(ctx.db);
        await ctx.events.announce(eventRowMessage(rows[0]));
        return { id: rows[0].id };
      },
    );

    app.get(
      '/api/events/:event_id',
      {
        schema: {
          summary: 'One event, payload included',
          params: EventParams,
          response: { 200: EventModel },
        },
      },
      async (request) => {
        const caller = requireUser(request);
        const row = await findEvent(ctx, request.params.event_id);
        requireOwnerOrManager(caller, row);
        return eventRowModel(row);
      },
    );

    app.patch(
      '/api/events/:event_id',
      {
        schema: {
          summary: 'Update an event',
          params: EventParams,
          body: EventPatch,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        const id = request.params.event_id;
        requireOwnerOrManager(caller, await findEvent(ctx, id));
        const { sender, projectName, user, ...changes } = request.body;
        // As in AYON, the older projectName wins over project when both are sent.
        const project = projectName || changes.project;
        delete changes.project;
        // The bus cannot change who an event belongs to; write those columns first so the announcement that
        // events.update makes below already carries them.
        const owner: Record<string, unknown> = {};
        if (sender !== undefined) owner.sender = sender;
        if (project !== undefined) owner.project_name = project;
        // As in AYON, an empty or null user keeps the one the event has.
        if (user) owner.user_name = user;
        if (Object.keys(owner).length)
          await ctx.db.updateTable('public.events').set(owner).where('id', '=', id).execute();
        if (!(await ctx.events.update(id, changes))) throw new NotFound(`Event ${id} not found`);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/events/:event_id',
      { schema: { summary: 'Delete an event', params: EventParams, response: { 204: NoContent } } },
      async (request, reply) => {
        requireAdmin(request);
        const id = request.params.event_id;
        const gone = await ctx.db
          .deleteFrom('public.events')
          .where('id', '=', id)
          .returning('id')
          .executeTakeFirst();
        if (!gone) throw new NotFound(`Event ${id} not found`);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/query',
      {
        schema: {
          summary: 'Events matching a filter, newest first (administrators; only entity "event", as in AYON)',
          body: QueryRequest,
          response: { 200: Type.Array(QueriedEvent) },
        },
      },
      async (request) => {
        requireAdmin(request);
        const { entity, filter, limit, offset } = request.body;
        if (entity !== 'event') {
          throw new ValidationFailed([
            {
              loc: ['body', 'entity'],
              msg: `entity "${entity}" cannot be queried; only "event" is supported`,
              type: 'literal_error',
            },
          ]);
        }
        const { rows } = await sql<EventRow>`
          SELECT * FROM public.events AS e WHERE ${compileEventFilter(filter ?? undefined, 'e')}
          ORDER BY e.creation_order DESC LIMIT ${Math.max(limit, 0)} OFFSET ${Math.max(offset, 0)}`.execute(
          ctx.db,
        );
        return rows.map(({ payload: _payload, ...row }) => eventRowModel(row));
      },
    );

    app.post(
      '/api/eventops',
      {
        schema: {
          summary: 'Delete, restart or abort the events a filter selects',
          body: EventOperation,
          response: { 204: NoContent },
        },
      },
      async (request, reply) => {
        const { type, filter } = request.body;
        if (type === 'delete') requireAdmin(request);
        else requireManager(request);
        if (!filter.conditions?.length) {
          // An empty filter selects every event; wiping the whole log by accident is too easy, so refuse it.
          throw new ValidationFailed([
            {
              loc: ['body', 'filter', 'conditions'],
              msg: 'at least one condition is required',
              type: 'min_items',
            },
          ]);
        }
        const where = compileEventFilter(filter, 'e');
        if (type === 'delete') {
          await sql`DELETE FROM public.events AS e WHERE ${where}`.execute(ctx.db);
          return reply.code(204).send(null);
        }
        // restart: failed or aborted jobs become "restarted" with a fresh retry budget; enroll hands them out again.
        // abort: jobs not yet done (pending, in progress) are stopped.
        const [status, from] =
          type === 'restart'
            ? ['restarted', sql`('failed', 'aborted')`]
            : ['aborted', sql`('pending', 'in_progress')`];
        const retries = type === 'restart' ? sql`0` : sql`e.retries`;
        const { rows } = await sql<EventRow>`
          UPDATE public.events AS e SET status = ${status}, retries = ${retries}, updated_at = now()
          WHERE e.status IN ${from} AND ${where}
          RETURNING *`.execute(ctx.db);
        for (const row of rows) await ctx.events.announce(eventRowMessage(row));
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/enroll',
      {
        schema: {
          summary: 'Take the next job derived from finished source events',
          body: EnrollRequest,
          response: { 200: EnrollResponse, 204: NoContent },
        },
      },
      async (request, reply) => {
        const caller = requireUser(request);
        if (!caller.isService && !caller.isAdmin)
          throw new Forbidden('Only service users and administrators may enroll');
        if (shouldShed(ctx.storage.kind, ctx.storage.idleConnections())) {
          throw new ServiceUnavailable(
            'The database is busy; try enrolling again shortly',
            'pool-nearly-full',
          );
        }
        const body = request.body;
        const filter = compileEventFilter(body.filter ?? undefined, 's');
        const result = await enroll(ctx.db, {
          sourceTopic: body.sourceTopic,
          targetTopic: body.targetTopic,
          sender: body.sender ?? null,
          senderType: body.senderType ?? request.sender.senderType,
          description: body.description,
          sequential: body.sequential,
          filter,
          maxRetries: body.maxRetries,
          ignoreSenderTypes: body.ignoreSenderTypes,
          ignoreOlderThan: body.ignoreOlderThan,
        });
        if (!result) return reply.code(204).send(null);
        // Announced after the commit: subscribers never hear of a job that was rolled back.
        if (result.changed) await ctx.events.announce(result.changed);
        return result.job;
      },
    );
  };
}
