import { Id, JsonObject, ProjectName, SimpleName, Type } from '@pipewright/sdk';
import { MAX_BODY_LENGTH } from './markdown.js';
import { ACTIVITY_TYPES } from './service.js';

const ActivityType = Type.Union(
  ACTIVITY_TYPES.map((type) => Type.Literal(type)),
  { description: 'People create comments; the other types are made by the server and by services' },
);
// AYON's request models bound none of these: a body over its limit is refused by the service (as AYON's does), tags
// are free labels, and any number of files and tags may be sent.
const Body = Type.String({
  description: `Markdown, up to ${MAX_BODY_LENGTH} characters; [label](user:name) and [label](task:id) links mention`,
});
const Tags = Type.Array(Type.String());
const FileIds = Type.Array(Id, { description: 'Ids of files uploaded to the project' });

/**
 * The entity type segment of a path: folders, tasks, products, versions, representations or workfiles, singular or
 * plural. Any text is taken, as in AYON, which answers another with 400.
 */
const EntityTypeSegment = Type.String({ examples: ['tasks'] });

/** A reaction is free text in AYON's request body; the path that takes one back holds AYON's name rule. */
const Reaction = Type.String({ examples: ['thumb_up'] });

export const EntityParams = Type.Object({
  project_name: ProjectName,
  entity_type: EntityTypeSegment,
  entity_id: Id,
});
export const ActivityParams = Type.Object({ project_name: ProjectName, activity_id: Id });
export const ReactionParams = Type.Object({
  project_name: ProjectName,
  activity_id: Id,
  reaction: Type.String({ pattern: SimpleName.pattern }),
});

export const ActivityPostBody = Type.Object({
  id: Type.Optional(Id),
  activityType: ActivityType,
  body: Type.Optional(Body),
  tags: Type.Optional(Tags),
  files: Type.Optional(FileIds),
  timestamp: Type.Optional(Type.String({ format: 'date-time' })),
  data: Type.Optional(JsonObject),
});

export const ActivityPatchBody = Type.Object({
  body: Type.Optional(Body),
  tags: Type.Optional(Tags),
  files: Type.Optional(FileIds),
  appendFiles: Type.Optional(Type.Boolean()),
  data: Type.Optional(JsonObject),
});

/** A create operation of POST /operations/activities names the entity in its data. */
export const OperationCreateData = Type.Object({
  entityType: EntityTypeSegment,
  entityId: Id,
  ...ActivityPostBody.properties,
});

export const ReactionBody = Type.Object({ reaction: Reaction });

/** User names; a name no user has is refused by the service, whatever its shape. */
export const Watchers = Type.Object({ watchers: Type.Array(Type.String()) });

export const OperationsBody = Type.Object({
  operations: Type.Array(
    Type.Object({
      id: Type.Optional(Type.String({ description: 'Your id for this operation, echoed in its result' })),
      type: Type.Union([Type.Literal('create'), Type.Literal('update'), Type.Literal('delete')]),
      activityId: Type.Optional(Type.Union([Id, Type.Null()])),
      data: Type.Optional(Type.Union([JsonObject, Type.Null()])),
    }),
  ),
  canFail: Type.Boolean({ default: false }),
});

export const OperationsResponse = Type.Object({
  operations: Type.Array(
    Type.Object({
      id: Type.String(),
      type: Type.String(),
      activityId: Type.Union([Type.String(), Type.Null()]),
      success: Type.Boolean(),
      status: Type.Integer(),
      errorCode: Type.Union([Type.String(), Type.Null()]),
      detail: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
  success: Type.Boolean(),
});

const Relevance = {
  relevance: Type.Number({ description: 'Higher is more relevant to the entity' }),
  createdAt: Type.Optional(Type.String()),
};
const FolderItem = Type.Object({
  ...Relevance,
  id: Type.String(),
  name: Type.String(),
  label: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  folderType: Type.String(),
  thumbnailId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
const ProductItem = Type.Object({
  ...Relevance,
  id: Type.String(),
  name: Type.String(),
  productType: Type.String(),
  parent: Type.Optional(FolderItem),
});

export const SuggestBody = Type.Object({
  entityType: Type.Union(['folder', 'task', 'product', 'version'].map((t) => Type.Literal(t))),
  entityId: Id,
});

export const SuggestResponse = Type.Object({
  users: Type.Array(
    Type.Object({
      ...Relevance,
      name: Type.String(),
      fullName: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    }),
  ),
  tasks: Type.Array(
    Type.Object({
      ...Relevance,
      id: Type.String(),
      name: Type.String(),
      label: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      taskType: Type.String(),
      thumbnailId: Type.Optional(Type.Union([Type.String(), Type.Null()])),
      parent: Type.Optional(FolderItem),
    }),
  ),
  versions: Type.Array(
    Type.Object({
      ...Relevance,
      id: Type.String(),
      version: Type.Integer(),
      name: Type.String(),
      parent: Type.Optional(ProductItem),
    }),
  ),
  products: Type.Array(ProductItem),
  folders: Type.Array(FolderItem),
});

export const InboxBody = Type.Object({
  // Any text, as in AYON: a name no project has is not found.
  projectName: Type.String({ examples: ['demo_Commercial'] }),
  ids: Type.Optional(Type.Array(Id, { description: 'Reference ids of inbox messages' })),
  all: Type.Optional(Type.Boolean({ description: "Every one of the caller's messages in the project" })),
  status: Type.Union([Type.Literal('unread'), Type.Literal('read'), Type.Literal('inactive')]),
});
