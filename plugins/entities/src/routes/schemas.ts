import { Id, JsonObject, PROJECT_ENTITY_TYPES, QueryFilterSchema, Type } from '@pipewright/sdk';

export const OperationSchema = Type.Object(
  {
    id: Type.Optional(Type.String({ description: 'Your id for this operation, echoed in its result' })),
    type: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]),
    entityType: Type.Union(PROJECT_ENTITY_TYPES.map((t) => Type.Literal(t))),
    entityId: Type.Optional(Type.Union([Id, Type.Null()])),
    data: Type.Optional(Type.Union([JsonObject, Type.Null()])),
    force: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const OperationsRequest = Type.Object(
  {
    // No cap, as in AYON: rows are written a few hundred at a time, each INSERT one JSON parameter.
    operations: Type.Array(OperationSchema),
    canFail: Type.Boolean({ default: false }),
    waitForEvents: Type.Optional(Type.Boolean()),
    raiseOnError: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);

export const OperationResultSchema = Type.Object({
  id: Type.String(),
  type: Type.String(),
  entityType: Type.String(),
  entityId: Type.Union([Type.String(), Type.Null()]),
  success: Type.Boolean(),
  status: Type.Integer(),
  errorCode: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Union([Type.String(), Type.Null()]),
});

export const OperationsResponse = Type.Object({
  operations: Type.Array(OperationResultSchema),
  success: Type.Boolean(),
});

export const ForceQuery = Type.Object(
  { force: Type.Boolean({ default: false }) },
  { additionalProperties: false },
);
export const EntityResponse = Type.Object({ id: Id }, { additionalProperties: true });

export const FolderListQuery = Type.Object(
  { attrib: Type.Boolean({ default: false }) },
  { additionalProperties: false },
);
export const FolderListItem = Type.Object({
  id: Id,
  path: Type.String(),
  parentId: Type.Union([Id, Type.Null()]),
  parents: Type.Array(Type.String()),
  name: Type.String(),
  label: Type.Union([Type.String(), Type.Null()]),
  folderType: Type.String(),
  hasTasks: Type.Boolean(),
  hasChildren: Type.Boolean(),
  taskNames: Type.Array(Type.String()),
  status: Type.String(),
  tags: Type.Array(Type.String()),
  attrib: Type.Optional(JsonObject),
  ownAttrib: Type.Optional(Type.Array(Type.String())),
  updatedAt: Type.String({ format: 'date-time' }),
});
export const FolderList = Type.Object({ detail: Type.String(), folders: Type.Array(FolderListItem) });

export const HierarchyQuery = Type.Object(
  {
    search: Type.Optional(Type.String()),
    types: Type.Optional(Type.String({ description: 'Comma-separated folder types' })),
  },
  { additionalProperties: false },
);

export const AssignRequest = Type.Object(
  {
    users: Type.Array(Type.String()),
    mode: Type.Union([Type.Literal('add'), Type.Literal('remove'), Type.Literal('set')]),
  },
  { additionalProperties: false },
);

export const BackgroundStarted = Type.Object({ id: Id });
export const BackgroundStatus = Type.Object({
  id: Id,
  status: Type.Union([Type.Literal('pending'), Type.Literal('in_progress'), Type.Literal('completed')]),
  progress: Type.Number({ minimum: 0, maximum: 100 }),
  result: Type.Optional(
    Type.Object({
      operations: Type.Array(OperationResultSchema),
      success: Type.Boolean(),
      detail: Type.Optional(Type.String()),
    }),
  ),
});

const PerType = Type.Object({
  folders: Type.Integer(),
  tasks: Type.Integer(),
  products: Type.Integer(),
  versions: Type.Integer(),
  representations: Type.Integer(),
  workfiles: Type.Integer(),
});
export const ProjectStats = Type.Object({
  counts: PerType,
  statuses: Type.Record(Type.String(), Type.Record(Type.String(), Type.Integer()), {
    description: 'Per entity table: status to count',
  }),
});
const TagList = Type.Array(Type.String());
export const ProjectTags = Type.Object({
  folders: TagList,
  tasks: TagList,
  products: TagList,
  versions: TagList,
  representations: TagList,
  workfiles: TagList,
});
export const ProductTypes = Type.Object({
  productTypes: Type.Array(
    Type.Object({ name: Type.String(), baseType: Type.String(), color: Type.String(), icon: Type.String() }),
  ),
});

// /api/resolve, /uris, /tasksFolders and /repreContextFilter.

const NullableId = Type.Union([Id, Type.Null()]);

/**
 * URIs are any text and as many as sent, as AYON takes them: each is parsed and looked up on its own, so neither
 * length nor count reaches a single statement; a malformed one answers its own error.
 */
export const ResolveRequest = Type.Object(
  {
    uris: Type.Array(Type.String(), { description: 'ayon+entity:// or ayon:// URIs' }),
    resolveRoots: Type.Boolean({
      default: false,
      description: 'Fill {root[...]} in file paths with the roots of the calling site',
    }),
  },
  { additionalProperties: false },
);
export const ResolveQuery = Type.Object(
  { pathOnly: Type.Boolean({ default: false, description: 'Answer only the file path of each entity' }) },
  { additionalProperties: false },
);

const ResolvedEntity = Type.Object({
  projectName: Type.Optional(Type.String()),
  folderId: Type.Optional(NullableId),
  productId: Type.Optional(NullableId),
  versionId: Type.Optional(NullableId),
  representationId: Type.Optional(NullableId),
  taskId: Type.Optional(NullableId),
  workfileId: Type.Optional(NullableId),
  filePath: Type.Union([Type.String(), Type.Null()]),
  target: Type.Optional(Type.Union([...PROJECT_ENTITY_TYPES.map((t) => Type.Literal(t)), Type.Null()])),
});
export const ResolvedUri = Type.Object({
  uri: Type.String(),
  entities: Type.Array(ResolvedEntity),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const UrisRequest = Type.Object(
  {
    entityType: Type.Union(PROJECT_ENTITY_TYPES.map((t) => Type.Literal(t))),
    ids: Type.Array(Id, { default: [] }),
  },
  { additionalProperties: false },
);
export const UrisResponse = Type.Object({ uris: Type.Array(Type.Object({ id: Id, uri: Type.String() })) });

export const TasksFoldersQuery = Type.Object(
  {
    filter: Type.Optional(Type.Union([QueryFilterSchema, Type.Null()])),
    search: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  { additionalProperties: false },
);
export const TasksFoldersAnswer = Type.Object({ folderIds: Type.Array(Id) });

// Lists travel as one array parameter each: no cap needed, as in AYON.
const ContextValues = Type.Array(Type.String());
export const RepreContextRequest = Type.Object(
  {
    names: Type.Optional(Type.Array(Type.String())),
    versionIds: Type.Optional(Type.Array(Id)),
    context: Type.Optional(
      Type.Union(
        [
          Type.Record(Type.String(), ContextValues, {
            description: 'Key (a.b for nested) to accepted values, compared exactly',
          }),
          Type.Array(
            Type.Object({ key: Type.String(), values: ContextValues }, { additionalProperties: false }),
            {
              maxItems: 100,
              description: 'AYON clients send [{key, values}]: the values are regular expressions',
            },
          ),
        ],
        { description: 'Conditions on data.context; every key must match' },
      ),
    ),
  },
  { additionalProperties: false },
);
export const RepreContextAnswer = Type.Object({
  ids: Type.Array(Id, { description: 'What AYON clients read' }),
  representations: Type.Array(Type.Object({ id: Id }, { additionalProperties: true })),
});
