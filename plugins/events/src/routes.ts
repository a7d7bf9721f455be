import {
  Forbidden,
  currentSender,
  NoContent,
  NotFound,
  ServiceUnavailable,
  Type,
  ValidationFailed,
  isManagerOrAbove,
  requireAdmin,
  requireManager,
  type AddonApp,
  type AddonContext,
  type EventInput,
  type EventRow,
  type RequestUser,
  eventRowModel,
} from '@pipewright/sdk';
import { shouldShed } from './enroll.js';
import { EventLog } from './service.js';
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

/** Managers (and admins, service users) reach every event; everyone else only events recorded as theirs. */
function requireOwnerOrManager(caller: RequestUser, row: EventRow): void {
  if (!isManagerOrAbove(caller) && row.user_name !== caller.name)
    throw new Forbidden('You can only access your own events');
}

export function eventRoutes(ctx: Context) {
  const log = new EventLog(ctx);
  return async (app: AddonApp) => {
    app.post(
      '/api/events',
      {
        config: { access: 'manager' },
        schema: { summary: 'Dispatch an event', body: DispatchEvent, response: { 200: DispatchResponse } },
      },
      async (request) => {
        const body = request.body;
        const input: EventInput = {
          topic: body.topic,
          sender: body.sender ?? currentSender().sender,
          senderType: currentSender().senderType,
          hash: body.hash ?? undefined,
          project: body.project ?? null,
          user: body.user ?? request.caller.name,
          dependsOn: body.dependsOn ?? null,
          description: body.description ?? '',
          summary: body.summary ?? {},
          payload: body.payload ?? {},
          status: body.finished ? 'finished' : 'pending',
          store: body.store,
        };
        return log.dispatch(input, body.reuse);
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
        const row = await log.find(request.params.event_id);
        requireOwnerOrManager(request.caller, row);
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
      async (request) => {
        const id = request.params.event_id;
        requireOwnerOrManager(request.caller, await log.find(id));
        const { sender, projectName, user, ...changes } = request.body;
        // As in AYON, the older projectName wins over project when both are sent, and an empty or null user keeps
        // the one the event has.
        const project = projectName || changes.project;
        delete changes.project;
        const owner = { sender, project, user: user || undefined };
        if (!(await log.update(id, owner, changes))) throw new NotFound(`Event ${id} not found`);
      },
    );

    app.delete(
      '/api/events/:event_id',
      {
        config: { access: 'admin' },
        schema: { summary: 'Delete an event', params: EventParams, response: { 204: NoContent } },
      },
      async (request) => {
        await log.remove(request.params.event_id);
      },
    );

    app.post(
      '/api/query',
      {
        config: { access: 'admin' },
        schema: {
          summary: 'Events matching a filter, newest first (administrators; only entity "event", as in AYON)',
          body: QueryRequest,
          response: { 200: Type.Array(QueriedEvent) },
        },
      },
      async (request) => {
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
        const rows = await log.query(filter ?? undefined, limit, offset);
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
      async (request) => {
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
        await log.operate(type, filter);
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
        if (!request.caller.isService && !request.caller.isAdmin)
          throw new Forbidden('Only service users and administrators may enroll');
        if (shouldShed(ctx.storage.kind, ctx.storage.idleConnections())) {
          throw new ServiceUnavailable(
            'The database is busy; try enrolling again shortly',
            'pool-nearly-full',
          );
        }
        const body = request.body;
        const job = await log.enroll({
          sourceTopic: body.sourceTopic,
          targetTopic: body.targetTopic,
          sender: body.sender ?? null,
          senderType: body.senderType ?? currentSender().senderType,
          description: body.description,
          sequential: body.sequential,
          filter: body.filter ?? undefined,
          maxRetries: body.maxRetries,
          ignoreSenderTypes: body.ignoreSenderTypes,
          ignoreOlderThan: body.ignoreOlderThan,
        });
        return job ?? reply.code(204).send(null);
      },
    );
  };
}
