import { Id, JsonObject, ProjectName, QueryFilterSchema, Type } from '@pipewright/sdk';
import { ENTITY_TYPES } from '../entity-types.js';

export const OperationSchema = Type.Object(
  {
    id: Type.Optional(
      Type.String({ maxLength: 64, description: 'Your id for this operation, echoed in its result' }),
    ),
    type: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]),
    entityType: Type.Union(ENTITY_TYPES.map((t) => Type.Literal(t))),
    entityId: Type.Optional(Type.Union([Id, Type.Null()])),
    data: Type.Optional(Type.Union([JsonObject, Type.Null()])),
    force: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const OperationsRequest = Type.Object(
  {
    operations: Type.Array(OperationSchema, { maxItems: 10000 }),
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

export const ProjectParams = Type.Object({ project_name: ProjectName });
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
    search: Type.Optional(Type.String({ maxLength: 255 })),
    types: Type.Optional(Type.String({ maxLength: 2000, description: 'Comma-separated folder types' })),
  },
  { additionalProperties: false },
);

export const AssignRequest = Type.Object(
  {
    users: Type.Array(Type.String({ minLength: 1, maxLength: 128 })),
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

export const ResolveRequest = Type.Object(
  {
    uris: Type.Array(Type.String({ maxLength: 4096 }), {
      maxItems: 10000,
      description: 'ayon+entity:// or ayon:// URIs',
    }),
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
  target: Type.Optional(Type.Union([...ENTITY_TYPES.map((t) => Type.Literal(t)), Type.Null()])),
});
export const ResolvedUri = Type.Object({
  uri: Type.String(),
  entities: Type.Array(ResolvedEntity),
  error: Type.Union([Type.String(), Type.Null()]),
});

export const UrisRequest = Type.Object(
  {
    entityType: Type.Union(ENTITY_TYPES.map((t) => Type.Literal(t))),
    ids: Type.Array(Id, { maxItems: 10000, default: [] }),
  },
  { additionalProperties: false },
);
export const UrisResponse = Type.Object({ uris: Type.Array(Type.Object({ id: Id, uri: Type.String() })) });

export const TasksFoldersQuery = Type.Object(
  {
    filter: Type.Optional(Type.Union([QueryFilterSchema, Type.Null()])),
    search: Type.Optional(Type.Union([Type.String({ maxLength: 255 }), Type.Null()])),
  },
  { additionalProperties: false },
);
export const TasksFoldersAnswer = Type.Object({ folderIds: Type.Array(Id) });

const ContextValues = Type.Array(Type.String({ maxLength: 1024 }), { maxItems: 1000 });
export const RepreContextRequest = Type.Object(
  {
    names: Type.Optional(Type.Array(Type.String({ maxLength: 255 }), { maxItems: 10000 })),
    versionIds: Type.Optional(Type.Array(Id, { maxItems: 10000 })),
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
