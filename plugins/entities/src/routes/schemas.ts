import { Id, JsonObject, ProjectName, Type } from '@pipewright/sdk';
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
