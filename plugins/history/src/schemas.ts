import { Id, PROJECT_ENTITY_TYPES, Type, type TSchema } from '@pipewright/sdk';

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
const EntityType = Type.Union(PROJECT_ENTITY_TYPES.map((type) => Type.Literal(type)));

/** Fields to keep: name, status, attrib.fps, ...; created and deleted for the entity as a whole. */
const Fields = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
  maxItems: 100,
  description: 'Only these fields (attributes as attrib.<name>; created and deleted for the entity itself)',
});

export const HistoryEntry = Type.Object({
  id: Type.String({ description: 'The cursor of this change: pass it as before for the next page' }),
  entityType: Type.String(),
  entityId: Type.String(),
  field: Type.String(),
  oldValue: Type.Unknown(),
  newValue: Type.Unknown(),
  user: Nullable(Type.String()),
  via: Type.String({
    description: 'How the user signed in: session, apiKey (an API key) or service (a service key)',
  }),
  sender: Nullable(Type.String()),
  senderType: Nullable(Type.String()),
  client: Nullable(Type.String({ description: 'The client program (its User-Agent)' })),
  changedAt: Type.String({ format: 'date-time' }),
});

export const EntityHistoryQuery = Type.Object({
  field: Type.Optional(Fields),
  before: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,18}$', description: 'The id of the last change read' }),
  ),
  limit: Type.Integer({ minimum: 1, maximum: 500, default: 100 }),
});

export const EntityHistoryPage = Type.Object({
  changes: Type.Array(HistoryEntry),
  hasMore: Type.Boolean(),
});

export const LatestRequest = Type.Object({
  entityType: EntityType,
  entityIds: Type.Array(Id, { maxItems: 1000 }),
  fields: Type.Optional(Fields),
});

export const LatestAnswer = Type.Object({ changes: Type.Array(HistoryEntry) });

export const ExportQuery = Type.Object({
  format: Type.Union([Type.Literal('csv'), Type.Literal('jsonl')], { default: 'jsonl' }),
  entityType: Type.Optional(EntityType),
  field: Type.Optional(Fields),
  since: Type.Optional(Type.String({ format: 'date-time' })),
  until: Type.Optional(Type.String({ format: 'date-time' })),
});
