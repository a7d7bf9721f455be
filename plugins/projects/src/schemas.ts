import { INDEXED_KEY_MAX_LENGTH, JsonObject, ProjectName, Type } from '@pipewright/sdk';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) =>
  Type.Union([schema, Type.Null()]);

/**
 * AYON's project model takes a code of letters, digits and underscores, empty included (a deploy whose code breaks
 * the pattern fails when the project is saved). Codes are unique, kept in an index: hence the index-key cap.
 */
export const ProjectCode = Type.String({ pattern: '^[a-zA-Z0-9_]*$', maxLength: INDEXED_KEY_MAX_LENGTH });
const Items = Type.Array(JsonObject);

export const SiteRootParams = Type.Object({
  project_name: ProjectName,
  // Any text, as in AYON; the site's roots are keyed by it in an index.
  site_id: Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH }),
});

export const ProjectListQuery = Type.Object(
  {
    page: Type.Integer({ minimum: 1, default: 1 }),
    length: Type.Optional(
      Type.Integer({ description: 'Projects per page; none (or 0 or less): all of them' }),
    ),
    library: Type.Optional(Type.Boolean()),
    active: Type.Optional(Type.Boolean()),
    order: Type.Optional(
      Type.Union([Type.Literal('name'), Type.Literal('createdAt'), Type.Literal('updatedAt')]),
    ),
    desc: Type.Boolean({ default: false }),
    name: Type.Optional(Type.String({ description: 'Name filter; % matches any characters' })),
  },
  { additionalProperties: false },
);

export const ProjectListItem = Type.Object({
  name: Type.String(),
  code: Type.String(),
  active: Type.Boolean(),
  library: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const ProjectList = Type.Object({
  detail: Type.String(),
  count: Type.Integer(),
  projects: Type.Array(ProjectListItem),
});

export const Project = Type.Object({
  name: Type.String(),
  code: Type.String(),
  library: Type.Boolean(),
  active: Type.Boolean(),
  folderTypes: Items,
  taskTypes: Items,
  linkTypes: Items,
  statuses: Items,
  tags: Items,
  config: JsonObject,
  attrib: JsonObject,
  ownAttrib: Type.Array(Type.String()),
  data: JsonObject,
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

// The fields PUT and PATCH may set: every one optional, each written only when given.
const EditableFields = {
  code: Type.Optional(ProjectCode),
  library: Type.Optional(Type.Boolean()),
  active: Type.Optional(Type.Boolean()),
  folderTypes: Type.Optional(Items),
  taskTypes: Type.Optional(Items),
  linkTypes: Type.Optional(Items),
  statuses: Type.Optional(Items),
  tags: Type.Optional(Items),
  config: Type.Optional(JsonObject),
  attrib: Type.Optional(JsonObject),
  data: Type.Optional(JsonObject),
};

/** PUT /api/projects/{name}: the whole project; the name comes from the path. */
export const ProjectPut = Type.Object(
  {
    name: Type.Optional(Type.String({ description: 'Ignored: the path names the project' })),
    ...EditableFields,
  },
  { additionalProperties: false },
);

export const ProjectPatch = Type.Object(EditableFields, { additionalProperties: false });

/** POST /api/projects: deploy a project from an anatomy document, a named preset or the primary one. */
export const ProjectDeploy = Type.Object(
  {
    name: ProjectName,
    code: ProjectCode,
    anatomy: Type.Optional(JsonObject),
    preset: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 64,
        description: 'Anatomy preset name; "_" (the default) is the primary one',
      }),
    ),
    library: Type.Optional(Type.Boolean({ default: false })),
  },
  { additionalProperties: false },
);

export const ProjectCreated = Type.Object({ name: Type.String() });

export const SiteRoots = Type.Record(Type.String({ pattern: '^[a-zA-Z0-9_]+$' }), Type.String());
export const SiteRootsQuery = Type.Object(
  {
    platform: Type.Optional(
      Type.Union([Type.Literal('windows'), Type.Literal('linux'), Type.Literal('darwin')]),
    ),
  },
  { additionalProperties: false },
);

export { Nullable };
