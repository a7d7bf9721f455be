import {
  EntityName,
  Id,
  INDEXED_KEY_MAX_LENGTH,
  JsonObject,
  NotFound,
  Type,
  UserName,
  type ProjectEntityType,
  type TSchema,
} from '@pipewright/sdk';

export type EntityType = ProjectEntityType;

const Nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);
// Labels are AYON's: no quotes or semicolons, no length cap (no index holds them).
const Label = Type.String({ pattern: "^[^';]*$", description: 'No quotes or semicolons' });
// Folder and task types: any text, as in AYON; one the project does not define is refused when written (rules.ts).
const TypeName = Type.String();
// AYON takes any string as a status or tag (text columns here too); which statuses exist is the project's business.
const Tags = Type.Array(Type.String());
/**
 * A representation's file as AYON's RepresentationFileModel takes it: the id is any string, the name optional,
 * nothing bounded (the files are stored as JSON, as sent).
 */
const File = Type.Object(
  {
    id: Type.Optional(Type.String()),
    name: Type.Optional(Nullable(Type.String())),
    path: Type.String(),
    size: Type.Integer({ default: 0 }),
    hash: Type.Optional(Nullable(Type.String())),
    hashType: Type.Optional(
      Type.Union([Type.Literal('md5'), Type.Literal('sha1'), Type.Literal('sha256'), Type.Literal('op3')]),
    ),
  },
  { additionalProperties: false },
);

/** Fields every entity type accepts on create (and, optional, on update). */
const common = {
  status: Type.String(),
  tags: Tags,
  attrib: JsonObject,
  data: JsonObject,
  active: Type.Boolean(),
};

/** One entity type: its table, the wire fields of its own columns, its parent and its write schemas. */
export interface EntityTypeSpec {
  type: EntityType;
  table: string;
  /** URL segment: /api/projects/{p}/{plural}. */
  plural: string;
  /** Wire field to column for the columns of this type (beyond the common ones). */
  columns: Record<string, string>;
  /** The field naming the parent entity, and its type. */
  parent: { field: string; type: EntityType } | null;
  /** Field holding the entity type's "type" (folderType, taskType, productType). */
  typeField?: { field: string; list: 'folderTypes' | 'taskTypes' | null };
  create: TSchema;
  update: TSchema;
}

function spec(
  base: Omit<EntityTypeSpec, 'create' | 'update'>,
  fields: Record<string, TSchema>,
  required: string[],
): EntityTypeSpec {
  const all: Record<string, TSchema> = { ...fields, ...common };
  const create = Type.Object(
    Object.fromEntries([
      ['id', Type.Optional(Id)],
      ...Object.entries(all).map(([k, v]) => [k, required.includes(k) ? v : Type.Optional(v)]),
    ]),
    { additionalProperties: false },
  );
  // On update nothing is required; thumbnails, labels and tasks may be cleared with null.
  const update = Type.Object(
    Object.fromEntries(
      Object.entries(all)
        .filter(([k]) => k !== 'id')
        .map(([k, v]) => [
          k,
          Type.Optional(['label', 'thumbnailId', 'taskId', 'parentId'].includes(k) ? Nullable(v) : v),
        ]),
    ),
    { additionalProperties: false },
  );
  return { ...base, create, update };
}

export const SPECS: Record<EntityType, EntityTypeSpec> = {
  folder: spec(
    {
      type: 'folder',
      table: 'folders',
      plural: 'folders',
      columns: {
        name: 'name',
        label: 'label',
        folderType: 'folder_type',
        parentId: 'parent_id',
        thumbnailId: 'thumbnail_id',
      },
      parent: { field: 'parentId', type: 'folder' },
      typeField: { field: 'folderType', list: 'folderTypes' },
    },
    {
      name: EntityName,
      label: Label,
      folderType: TypeName,
      parentId: Nullable(Id),
      thumbnailId: Nullable(Id),
    },
    ['name'],
  ),
  task: spec(
    {
      type: 'task',
      table: 'tasks',
      plural: 'tasks',
      columns: {
        name: 'name',
        label: 'label',
        taskType: 'task_type',
        folderId: 'folder_id',
        thumbnailId: 'thumbnail_id',
        assignees: 'assignees',
      },
      parent: { field: 'folderId', type: 'folder' },
      typeField: { field: 'taskType', list: 'taskTypes' },
    },
    {
      name: EntityName,
      label: Label,
      taskType: TypeName,
      folderId: Id,
      thumbnailId: Nullable(Id),
      // Any user names, as in AYON: none is looked up.
      assignees: Type.Array(Type.String()),
    },
    ['name', 'folderId'],
  ),
  product: spec(
    {
      type: 'product',
      table: 'products',
      plural: 'products',
      columns: { name: 'name', folderId: 'folder_id', productType: 'product_type' },
      parent: { field: 'folderId', type: 'folder' },
      typeField: { field: 'productType', list: null },
    },
    {
      name: EntityName,
      folderId: Id,
      productType: Type.String({ pattern: '^[a-zA-Z0-9_]([a-zA-Z0-9_.-]*[a-zA-Z0-9_])?$' }),
    },
    ['name', 'folderId', 'productType'],
  ),
  version: spec(
    {
      type: 'version',
      table: 'versions',
      plural: 'versions',
      columns: {
        version: 'version',
        productId: 'product_id',
        taskId: 'task_id',
        thumbnailId: 'thumbnail_id',
        author: 'author',
      },
      parent: { field: 'productId', type: 'product' },
    },
    {
      version: Type.Integer({ description: 'Negative for the hero version' }),
      productId: Id,
      taskId: Nullable(Id),
      thumbnailId: Nullable(Id),
      author: UserName,
    },
    ['version', 'productId'],
  ),
  representation: spec(
    {
      type: 'representation',
      table: 'representations',
      plural: 'representations',
      columns: { name: 'name', versionId: 'version_id', files: 'files', traits: 'traits' },
      parent: { field: 'versionId', type: 'version' },
    },
    { name: EntityName, versionId: Id, files: Type.Array(File), traits: Nullable(JsonObject) },
    ['name', 'versionId'],
  ),
  workfile: spec(
    {
      type: 'workfile',
      table: 'workfiles',
      plural: 'workfiles',
      columns: { path: 'path', taskId: 'task_id', thumbnailId: 'thumbnail_id' },
      parent: { field: 'taskId', type: 'task' },
    },
    {
      // Unique among active workfiles, in an index: held at the index-key cap.
      path: Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH }),
      taskId: Id,
      thumbnailId: Nullable(Id),
    },
    ['path', 'taskId'],
  ),
};

export const SPEC_BY_PLURAL = Object.fromEntries(Object.values(SPECS).map((s) => [s.plural, s])) as Record<
  string,
  EntityTypeSpec
>;

/** How answers and events name each type. */
export const TYPE_LABELS: Record<EntityType, string> = {
  folder: 'Folder',
  task: 'Task',
  product: 'Product',
  version: 'Version',
  representation: 'Representation',
  workfile: 'Workfile',
};

/** The one answer for an entity that does not exist (or that the caller may not see). */
export const entityNotFound = (type: EntityType, id: string, project: string) =>
  new NotFound(`${TYPE_LABELS[type]} ${id} not found in project ${project}`);
