import { Id, INDEXED_KEY_MAX_LENGTH, JsonObject, QueryFilterSchema, Type } from '@pipewright/sdk';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/** A letter, then 2 to 64 letters, digits, underscore, dot or asterisk (the asterisk only where topics are matched). */
export const TopicPattern = Type.String({
  pattern: '^[a-zA-Z][a-zA-Z0-9_.*]{2,64}$',
  examples: ['entity.folder.*'],
});
/** A concrete topic: the same rule without the asterisk (what is stored on an event). */
export const Topic = Type.String({
  pattern: '^[a-zA-Z][a-zA-Z0-9_.]{2,64}$',
  examples: ['entity.folder.created'],
});

export const STATUSES = ['pending', 'in_progress', 'finished', 'failed', 'aborted', 'restarted'] as const;
export type Status = (typeof STATUSES)[number];
// One enum rather than a union of literals, so a wrong value is reported once.
export const EventStatus = Type.Unsafe<Status>({ type: 'string', enum: [...STATUSES] });

/** Free text, as AYON takes it: descriptions, senders and their types, user names recorded on an event. */
const Text = Type.String();
/**
 * Text an index of the event log holds (the hash, unique; the project name): any text, as in AYON, up to what an
 * index key takes.
 */
const IndexedText = Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH });

export const EventParams = Type.Object({ event_id: Id });

export const DispatchEvent = Type.Object(
  {
    topic: Topic,
    sender: Type.Optional(Nullable(Text)),
    hash: Type.Optional(Nullable(IndexedText)),
    project: Type.Optional(Nullable(IndexedText)),
    user: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 255 }))),
    dependsOn: Type.Optional(Nullable(Id)),
    description: Type.Optional(Nullable(Text)),
    summary: Type.Optional(Nullable(JsonObject)),
    payload: Type.Optional(Nullable(JsonObject)),
    finished: Type.Boolean({ default: true, description: 'false creates the event as pending (a job)' }),
    store: Type.Boolean({ default: true, description: 'false only broadcasts the event' }),
    reuse: Type.Boolean({
      default: false,
      description: 'true replaces an event of the same hash instead of answering 409',
    }),
  },
  { additionalProperties: false },
);

export const DispatchResponse = Type.Object({ id: Id });

export const EventPatch = Type.Object(
  {
    sender: Type.Optional(Nullable(Text)),
    project: Type.Optional(Nullable(IndexedText)),
    projectName: Type.Optional(
      Nullable(
        Type.String({
          maxLength: INDEXED_KEY_MAX_LENGTH,
          description: "Deprecated: AYON's older name of project",
        }),
      ),
    ),
    user: Type.Optional(
      Nullable(Type.String({ description: 'Empty or null keeps the current user, as in AYON' })),
    ),
    status: Type.Optional(EventStatus),
    description: Type.Optional(Text),
    summary: Type.Optional(JsonObject),
    payload: Type.Optional(JsonObject),
    progress: Type.Optional(
      Type.Number({ minimum: 0, maximum: 100, description: 'Broadcast only, never stored' }),
    ),
    retries: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

export const EventModel = Type.Object({
  id: Id,
  hash: Type.String(),
  topic: Type.String(),
  project: Nullable(Type.String()),
  user: Nullable(Type.String()),
  sender: Nullable(Type.String()),
  senderType: Nullable(Type.String()),
  dependsOn: Nullable(Type.String()),
  status: Type.String(),
  retries: Type.Integer(),
  description: Type.String(),
  summary: JsonObject,
  payload: JsonObject,
  createdAt: Type.String(),
  updatedAt: Type.String(),
});

export const EventOperation = Type.Object(
  {
    type: Type.Union([Type.Literal('delete'), Type.Literal('restart'), Type.Literal('abort')]),
    filter: QueryFilterSchema,
  },
  { additionalProperties: false },
);

export const EnrollRequest = Type.Object(
  {
    sourceTopic: Type.Union([TopicPattern, Type.Array(Topic, { minItems: 1, maxItems: 100 })]),
    targetTopic: Topic,
    sender: Type.Optional(Nullable(Text)),
    senderType: Type.Optional(Nullable(Type.String({ description: 'Defaults to the x-sender-type header' }))),
    description: Type.Optional(Nullable(Text)),
    sequential: Type.Boolean({ default: false }),
    filter: Type.Optional(Nullable(QueryFilterSchema)),
    maxRetries: Type.Integer({ default: 3 }),
    ignoreSenderTypes: Type.Optional(Nullable(Type.Array(Text))),
    ignoreOlderThan: Type.Integer({
      default: 3,
      description: 'Days; 0 means no limit (a negative number, a cutoff in the future, leaves nothing)',
    }),
    debug: Type.Boolean({ default: false }),
  },
  { additionalProperties: false },
);

export const EnrollResponse = Type.Object({
  id: Id,
  dependsOn: Id,
  hash: Type.String(),
  status: Type.String(),
});

export const QueryRequest = Type.Object(
  {
    entity: Type.String({ description: 'Only "event" can be queried, as in AYON' }),
    filter: Type.Optional(Type.Union([QueryFilterSchema, Type.Null()])),
    limit: Type.Integer({ default: 100, description: 'Events to answer at most; 0 or less answers none' }),
    offset: Type.Integer({ default: 0, description: 'Events to skip; less than 0 reads as 0' }),
  },
  { additionalProperties: false },
);

/** Query answers leave the payload out: it can be large, and GET /api/events/{id} serves it. */
export const QueriedEvent = Type.Omit(EventModel, ['payload']);
