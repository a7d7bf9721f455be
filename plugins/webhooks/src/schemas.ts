import { Id, ProjectName, PROJECT_ENTITY_TYPES, Type, type TSchema } from '@pipewright/sdk';
import { OPERATORS } from './conditions.js';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Topic = Type.String({
  minLength: 1,
  maxLength: 200,
  description: 'An event topic, * standing for any run of characters: entity.task.status_changed, entity.*',
});
const Condition = Type.Object(
  {
    path: Type.String({
      minLength: 1,
      maxLength: 200,
      description:
        "A dot path into a full message's data: payload.newValue, summary.entityType, user, project",
    }),
    op: Type.Union(
      OPERATORS.map((op) => Type.Literal(op)),
      {
        description:
          'eq, ne; in, notIn (a list of values); contains (text or list); gt, gte, lt, lte (numbers or texts); ' +
          'exists, missing (no value)',
      },
    ),
    value: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);
const Fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  url: Type.String({
    minLength: 1,
    maxLength: 2000,
    description: 'Where messages are posted (http or https)',
  }),
  projectName: Type.Optional(Nullable(ProjectName)),
  topics: Type.Array(Topic, { minItems: 1, maxItems: 100 }),
  entityTypes: Type.Optional(
    Type.Array(Type.Union(PROJECT_ENTITY_TYPES.map((type) => Type.Literal(type))), {
      description: 'Entity events of these types only (none: all)',
    }),
  ),
  attributes: Type.Optional(
    Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
      maxItems: 200,
      description: 'Attribute changes of these attributes only (none: all)',
    }),
  ),
  payload: Type.Optional(
    Type.Union([Type.Literal('thin'), Type.Literal('full')], {
      description: "thin: the event's summary; full: its payload too (old and new values)",
    }),
  ),
  conditions: Type.Optional(
    Type.Array(Condition, {
      maxItems: 20,
      description:
        'Clauses on the event, all of which must hold for it to be sent (none: every matching event)',
    }),
  ),
  batchSize: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: 50,
      description:
        'Messages a request may carry: above 1, what is due goes together as {type: "batch", data: [...]}, ' +
        "its webhook-id the first message's id",
    }),
  ),
};

export const WebhookCreate = Type.Object(Fields);
export const WebhookPatch = Type.Partial(
  Type.Object({
    ...Fields,
    active: Type.Boolean({
      description: 'false pauses the webhook (its messages are held); true resumes it',
    }),
    replay: Type.Boolean({
      description: 'On resuming: send what was held while paused (default) or drop it',
    }),
  }),
);

export const Webhook = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  projectName: Nullable(Type.String()),
  topics: Type.Array(Type.String()),
  entityTypes: Type.Array(Type.String()),
  attributes: Type.Array(Type.String()),
  payload: Type.String(),
  conditions: Type.Array(Condition),
  batchSize: Type.Integer(),
  active: Type.Boolean(),
  health: Type.Union([Type.Literal('active'), Type.Literal('unstable'), Type.Literal('failed')]),
  failures: Type.Integer({ description: 'Failed attempts in a row' }),
  createdBy: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const WebhookList = Type.Object({ webhooks: Type.Array(Webhook) });
export const Created = Type.Object({
  id: Type.String(),
  secret: Type.String({ description: 'Shown this once: receivers verify signatures with it' }),
});
export const Secret = Type.Object({ secret: Type.String({ description: 'Shown this once' }) });

export const WebhookParams = Type.Object({ webhook_id: Id });
export const DeliveryParams = Type.Object({ webhook_id: Id, delivery_id: Id });

export const DeliveryQuery = Type.Object({
  status: Type.Optional(
    Type.Array(
      Type.Union(['pending', 'held', 'delivered', 'failed', 'skipped'].map((status) => Type.Literal(status))),
    ),
  ),
  topic: Type.Optional(Type.String({ maxLength: 200 })),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  until: Type.Optional(Type.String({ format: 'date-time' })),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
});

const DeliveryFields = {
  id: Type.String({ description: 'The webhook-id every attempt of this message carries' }),
  sequence: Type.Integer(),
  batchId: Nullable(Type.String({ description: 'The batch it went out in: the webhook-id of its requests' })),
  topic: Type.String(),
  eventId: Nullable(Type.String()),
  status: Type.String(),
  attempts: Type.Integer(),
  nextAttemptAt: Nullable(Type.String({ format: 'date-time' })),
  createdAt: Type.String({ format: 'date-time' }),
  deliveredAt: Nullable(Type.String({ format: 'date-time' })),
};
export const DeliveryList = Type.Object({ deliveries: Type.Array(Type.Object(DeliveryFields)) });
export const DeliveryDetail = Type.Object({
  ...DeliveryFields,
  body: Type.Unknown(),
  log: Type.Array(
    Type.Object({
      attempt: Type.Integer(),
      statusCode: Nullable(Type.Integer()),
      response: Nullable(Type.String({ description: 'The first 4 KB of the answer' })),
      error: Nullable(Type.String()),
      latencyMs: Type.Integer(),
      at: Type.String({ format: 'date-time' }),
    }),
  ),
});

export const ReplayRequest = Type.Object({
  since: Type.String({ format: 'date-time' }),
  until: Type.Optional(Type.String({ format: 'date-time' })),
});
export const Queued = Type.Object({ queued: Type.Integer() });
export const PingAnswer = Type.Object({ id: Type.String() });
