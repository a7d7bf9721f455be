import {
  INDEXED_KEY_MAX_LENGTH,
  Id,
  JsonObject,
  PROJECT_ENTITY_TYPES,
  ProjectName,
  QueryFilterSchema,
  Type,
  type ProjectEntityType,
  type Static,
  type TSchema,
} from '@pipewright/sdk';
import { ATTRIBUTE_TYPES, attributeDataFields } from '@pipewright/plugin-attributes/api';

/** The six project entity types a list may hold (one per list). */
export type ListEntityType = ProjectEntityType;

// Plain enums rather than unions of literals: a bad value is then one problem, not one per allowed value.
export const EntityType = Type.Unsafe<ListEntityType>({
  type: 'string',
  enum: [...PROJECT_ENTITY_TYPES],
  description: 'Type of the entities the list holds',
});

/** 0 no access, 10 read, 20 change the items, 30 manage the list (rename, share, delete, materialize). */
export const AccessLevel = Type.Unsafe<0 | 10 | 20 | 30>({
  type: 'integer',
  enum: [0, 10, 20, 30],
  description: '0 none, 10 read, 20 update items, 30 manage',
});

/**
 * Who gets which level: a user ("alice" or "user:alice"), a project team ("team:comp"), an access group
 * ("group:artist"), everyone on the project ("__everyone__"); AYON's guest keys are kept as given.
 */
export const AccessMap = Type.Record(
  Type.String({
    pattern:
      '^(__everyone__|__guests__|(user|team|group|guest):[^\\s]{1,254}|[a-zA-Z0-9][a-zA-Z0-9_.\\-]{0,127})$',
  }),
  AccessLevel,
  { description: 'User, team:<name>, group:<name> or __everyone__ to an access level' },
);

/**
 * The schema or null. Simple types become a type list rather than a union, so a wrong value is reported once
 * instead of once per alternative.
 */
const nullable = <T extends TSchema>(schema: T) =>
  typeof schema.type === 'string'
    ? Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] })
    : Type.Union([schema, Type.Null()]);

// AYON bounds none of these. The one limit kept is the label's: it is the key of a unique index (as in AYON, which
// answers a longer one with 500), so it stops at INDEXED_KEY_MAX_LENGTH.
export const ListLabel = Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH, examples: ['Dailies 2024-05-02'] });
const ItemLabel = nullable(Type.String());
const Tags = Type.Array(Type.String());
const Position = Type.Integer({ description: 'Place in the list, counted from 0; below 0 is the start' });

/** AYON names the generic kind and review sessions; addons may invent their own kinds. Any text. */
export const ListKind = Type.String({ examples: ['generic', 'review-session'] });

/** The owner's user name; one no user has is refused by the service, whatever its shape. */
const Owner = nullable(Type.String({ examples: ['john'] }));

/**
 * What materialize builds the items from. AYON keeps the template as a free object; the keys read here are a folder
 * subtree (folderIds) and an AYON QueryFilter over the entities' fields. Other keys are kept and ignored.
 */
export const ListTemplate = Type.Object(
  {
    folderIds: Type.Optional(
      Type.Array(Id, { maxItems: 1000, description: 'Roots: these folders and everything below them' }),
    ),
    filter: Type.Optional(QueryFilterSchema),
  },
  { additionalProperties: true },
);

export const ListParams = Type.Object({ project_name: ProjectName, entity_list_id: Id });
/** AYON names the list id differently on the multi-patch route; the value is the same. */
export const ListIdParams = Type.Object({ project_name: ProjectName, list_id: Id });
export const ItemParams = Type.Object({
  project_name: ProjectName,
  entity_list_id: Id,
  entity_list_item_id: Id,
});
export const FolderParams = Type.Object({ project_name: ProjectName, folder_id: Id });

export const ListQuery = Type.Object({
  metadata_only: Type.Optional(Type.Boolean({ default: false, description: 'Leave the items out' })),
});

// What an item carries besides its id and entity: each may be left out.
const itemFields = {
  position: Type.Optional(nullable(Position)),
  label: Type.Optional(ItemLabel),
  attrib: Type.Optional(JsonObject),
  data: Type.Optional(JsonObject),
  tags: Type.Optional(Tags),
};

export const ItemCreate = Type.Object(
  { id: Type.Optional(Id), entityId: Id, ...itemFields },
  { additionalProperties: false },
);
export type ItemCreate = Static<typeof ItemCreate>;

export const ItemPatch = Type.Object(
  { entityId: Type.Optional(Id), ...itemFields },
  { additionalProperties: false },
);
export type ItemPatch = Static<typeof ItemPatch>;

export const MultiPatchItem = Type.Object(
  { id: Type.Optional(nullable(Id)), entityId: Type.Optional(nullable(Id)), ...itemFields },
  { additionalProperties: false },
);
export type MultiPatchItem = Static<typeof MultiPatchItem>;

export const MultiPatchMode = Type.Unsafe<'replace' | 'merge' | 'delete'>({
  type: 'string',
  enum: ['replace', 'merge', 'delete'],
  default: 'replace',
  description: 'replace: the items become these; merge: patch or add these; delete: remove these ids',
});

export const MultiPatch = Type.Object(
  {
    items: Type.Array(MultiPatchItem, { minItems: 1 }),
    mode: Type.Optional(MultiPatchMode),
  },
  { additionalProperties: false },
);
export type MultiPatch = Static<typeof MultiPatch>;

export const ItemOrder = Type.Object(
  { order: Type.Array(Id, { minItems: 1, maxItems: 10000, description: 'Every item id, in the new order' }) },
  { additionalProperties: false },
);

export const ListCreate = Type.Object(
  {
    id: Type.Optional(Id),
    entityListType: Type.Optional(ListKind),
    entityListFolderId: Type.Optional(nullable(Id)),
    entityType: EntityType,
    label: ListLabel,
    access: Type.Optional(AccessMap),
    attrib: Type.Optional(JsonObject),
    data: Type.Optional(JsonObject),
    template: Type.Optional(ListTemplate),
    tags: Type.Optional(Tags),
    owner: Type.Optional(Owner),
    active: Type.Optional(nullable(Type.Boolean())),
    items: Type.Optional(Type.Array(ItemCreate)),
  },
  { additionalProperties: false },
);
export type ListCreate = Static<typeof ListCreate>;

export const ListPatch = Type.Object(
  {
    label: Type.Optional(nullable(ListLabel)),
    access: Type.Optional(AccessMap),
    attrib: Type.Optional(JsonObject),
    entityListFolderId: Type.Optional(nullable(Id)),
    data: Type.Optional(JsonObject),
    template: Type.Optional(ListTemplate),
    tags: Type.Optional(Tags),
    owner: Type.Optional(Owner),
    active: Type.Optional(nullable(Type.Boolean())),
  },
  { additionalProperties: false },
);
export type ListPatch = Static<typeof ListPatch>;

export const ListSummary = Type.Object({
  id: Id,
  entityListType: Type.String(),
  entityListFolderId: nullable(Id),
  entityType: EntityType,
  label: Type.String(),
  count: Type.Integer({ minimum: 0 }),
});
export type ListSummary = Static<typeof ListSummary>;

export const ListItem = Type.Object({
  id: Id,
  entityId: Id,
  position: Type.Integer(),
  label: nullable(Type.String()),
  attrib: JsonObject,
  data: JsonObject,
  tags: Type.Array(Type.String()),
  folderPath: Type.String({
    description: 'Path of the folder the entity lives in (the folder itself for folders)',
  }),
  createdBy: nullable(Type.String()),
  updatedBy: nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});
export type ListItem = Static<typeof ListItem>;

export const EntityList = Type.Object({
  id: Id,
  entityListType: Type.String(),
  entityListFolderId: nullable(Id),
  entityType: EntityType,
  label: Type.String(),
  access: Type.Record(Type.String(), Type.Integer()),
  attrib: JsonObject,
  data: JsonObject,
  template: JsonObject,
  tags: Type.Array(Type.String()),
  items: Type.Array(ListItem),
  owner: nullable(Type.String()),
  createdBy: nullable(Type.String()),
  updatedBy: nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  active: Type.Boolean(),
  accessLevel: AccessLevel,
});
export type EntityList = Static<typeof EntityList>;

export const ListEntities = Type.Object({
  entityType: EntityType,
  entityIds: Type.Array(Id),
  entities: Type.Array(JsonObject, {
    description: 'The listed entities as their own GET shows them, in list order (those the caller may read)',
  }),
});

// AYON's attribute data; extra keys (widget, enumResolver, ...) are kept as given.
export const ListAttributeData = Type.Object(
  {
    type: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ATTRIBUTE_TYPES, default: 'string' })),
    ...attributeDataFields,
    enum: Type.Optional(
      nullable(
        Type.Array(
          Type.Object(
            {
              value: Type.Unsafe<string | number | boolean>({ type: ['string', 'number', 'boolean'] }),
              label: Type.String(),
            },
            { additionalProperties: true },
          ),
        ),
      ),
    ),
  },
  { additionalProperties: true },
);

/** A custom attribute of one list (its items may carry values for it), named as AYON names attributes. */
export const ListAttributeDefinition = Type.Object(
  {
    name: Type.String({ pattern: '^[a-zA-Z0-9]{2,30}$', description: '2 to 30 letters or digits' }),
    data: ListAttributeData,
  },
  { additionalProperties: false },
);
export type ListAttributeDefinition = Static<typeof ListAttributeDefinition>;

export const ListAttributeDefinitions = Type.Array(ListAttributeDefinition);

export const FolderData = Type.Object(
  {
    color: Type.Optional(nullable(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: '#rrggbb' }))),
    icon: Type.Optional(nullable(Type.String({ maxLength: 128 }))),
    scope: Type.Optional(nullable(Type.Array(Type.String({ maxLength: 128 }), { maxItems: 100 }))),
  },
  { additionalProperties: false },
);

export const FolderCreate = Type.Object(
  {
    id: Type.Optional(nullable(Id)),
    label: Type.String({ minLength: 1, maxLength: 255 }),
    parentId: Type.Optional(nullable(Id)),
    access: Type.Optional(AccessMap),
    data: Type.Optional(FolderData),
  },
  { additionalProperties: false },
);
export type FolderCreate = Static<typeof FolderCreate>;

export const FolderPatch = Type.Object(
  {
    label: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    parentId: Type.Optional(nullable(Id)),
    access: Type.Optional(nullable(AccessMap)),
    data: Type.Optional(nullable(FolderData)),
  },
  { additionalProperties: false },
);
export type FolderPatch = Static<typeof FolderPatch>;

export const ListFolder = Type.Object({
  id: Id,
  label: Type.String(),
  parentId: nullable(Id),
  position: Type.Integer(),
  owner: nullable(Type.String()),
  access: Type.Record(Type.String(), Type.Integer()),
  data: JsonObject,
});
export type ListFolder = Static<typeof ListFolder>;

export const ListFolders = Type.Object({ folders: Type.Array(ListFolder) });

export const FolderOrder = Type.Object(
  { order: Type.Array(Id, { minItems: 1, maxItems: 10000, description: 'Folder ids in their new order' }) },
  { additionalProperties: false },
);

export const IdResponse = Type.Object({ id: Id });
