import type { TObject, TProperties } from '@sinclair/typebox';
import { INDEXED_KEY_MAX_LENGTH, ProjectName, SimpleName, Type, UserName } from '@pipewright/sdk';

// Permission bodies keep AYON's snake_case keys (they are stored and exchanged as documents); everything around
// them is camelCase like the rest of the API.

const Level = Type.Integer({ default: 0, description: '0 none, 1 read, 2 write, 3 everything' });
const Restrict = (description: string) => Type.Boolean({ default: false, title: 'Restrict', description });
const Names = (description: string) => Type.Array(Type.String(), { default: [], description });

const FolderAccessEntry = Type.Object(
  {
    access_type: Type.String({
      examples: ['assigned', 'hierarchy', 'children'],
      description:
        'assigned: folders holding a task assigned to the user; hierarchy: the folder and its subtree; children: ' +
        'only its subtree. Any other value is kept and grants nothing, as in AYON.',
    }),
    path: Type.Optional(Type.String({ description: 'Folder path, for hierarchy and children' })),
  },
  { additionalProperties: false },
);

const FolderWhitelist = (what: string) =>
  Type.Object(
    {
      enabled: Restrict(`Restrict where the user may ${what} to the folders listed`),
      access_list: Type.Array(FolderAccessEntry, { default: [] }),
    },
    { additionalProperties: false, description: `Folders the user may ${what}` },
  );

const sections = {
  studio: Type.Object(
    {
      enabled: Type.Boolean({ default: false }),
      create_projects: Type.Boolean({ default: false }),
      list_all_users: Type.Boolean({ default: false }),
    },
    { additionalProperties: false, description: 'Studio-wide permissions' },
  ),
  project: Type.Object(
    { enabled: Type.Boolean({ default: false }), anatomy: Level, access: Level, settings: Level },
    { additionalProperties: false, description: 'Project management levels' },
  ),
  create: FolderWhitelist('create'),
  read: FolderWhitelist('read'),
  update: FolderWhitelist('update'),
  publish: FolderWhitelist('publish to'),
  delete: FolderWhitelist('delete'),
  attrib_read: Type.Object(
    {
      enabled: Restrict('Hide the attributes not listed'),
      attributes: Names('Attributes the user may read'),
    },
    { additionalProperties: false },
  ),
  attrib_write: Type.Object(
    {
      enabled: Restrict('Refuse changes to the attributes and fields not listed'),
      attributes: Names('Attributes the user may change'),
      fields: Names('Top-level fields the user may change (name, status, assignees, ...)'),
    },
    { additionalProperties: false },
  ),
  endpoints: Type.Object(
    {
      enabled: Restrict('Restrict the REST endpoints the user may call'),
      endpoints: Names('Allowed endpoints'),
    },
    { additionalProperties: false },
  ),
  links: Type.Object(
    {
      enabled: Restrict('Restrict the link types the user may create'),
      link_types: Names('Allowed link types'),
    },
    { additionalProperties: false },
  ),
  advanced: Type.Object(
    {
      show_sibling_tasks: Type.Boolean({
        default: true,
        description: 'Show tasks next to the ones assigned',
      }),
    },
    { additionalProperties: false },
  ),
};

/** A complete permission object, as stored per group and answered per user and project. */
export const PermissionsSchema = Type.Object(sections, { title: 'Permissions', additionalProperties: false });

// Every field optional at every depth: a PUT may send only what it changes from the defaults.
const partial = (schema: TObject) =>
  Type.Object(
    Object.fromEntries(
      Object.entries(schema.properties).map(([key, value]) => [key, Type.Optional(value)]),
    ) as TProperties,
    { additionalProperties: false, description: schema.description },
  );

/**
 * PUT body: any subset of the sections. Unknown top-level sections (AYON's activities, actions, ...) are accepted
 * and ignored, so documents written by AYON's own tools round-trip without a 422.
 */
export const PermissionsInput = Type.Object(
  Object.fromEntries(
    Object.entries(sections).map(([key, value]) => [key, Type.Optional(partial(value))]),
  ) as TProperties,
  { additionalProperties: true },
);

/** A group's name is (part of) its table's primary key, hence the index bound rather than a shorter cap. */
export const AccessGroupName = Type.String({ ...SimpleName, maxLength: INDEXED_KEY_MAX_LENGTH });

/**
 * "_" names the studio level, any project name a project's own overrides. Any other text is simply no project
 * (404), as in AYON, so only the length of a project name is checked.
 */
const LevelName = Type.String({ maxLength: ProjectName.maxLength, examples: ['_', 'MyProject01'] });
export const LevelParams = Type.Object({ project_name: LevelName });
export const GroupParams = Type.Object({ access_group_name: AccessGroupName, project_name: LevelName });
export const UserProjectParams = Type.Object({ user_name: UserName, project_name: ProjectName });
export const ProjectUserParams = Type.Object({ project_name: ProjectName, user_name: UserName });

export const AccessGroupListItem = Type.Object({
  name: Type.String(),
  isProjectLevel: Type.Boolean({ description: 'The project has its own version of this group' }),
});
export const AccessGroupList = Type.Array(AccessGroupListItem);

/** Unknown names are refused by the service with their place in the body, so the schema takes any text. */
const GroupNames = Type.Array(Type.String());

/** AYON's shape: {userName: {projectName: [accessGroupName, ...]}}; [] takes the project away. */
export const SetAccessBody = Type.Record(Type.String(), Type.Record(Type.String(), GroupNames), {
  examples: [{ alice: { MyProject01: ['editor'] }, bob: { MyProject01: ['artist'], MyProject02: [] } }],
});

export const UserAccessGroupsBody = Type.Object(
  {
    accessGroups: Type.Array(
      Type.Object({ project: Type.String(), accessGroups: GroupNames }, { additionalProperties: false }),
    ),
  },
  { additionalProperties: false },
);

export const ProjectUserBody = GroupNames;

/** User name to the groups they hold (in one project, or a user's whole map of project to groups). */
export const GroupsByName = Type.Record(Type.String(), Type.Array(Type.String()));

export const UserPermissions = Type.Object({
  user_level: Type.Union([Type.Literal('admin'), Type.Literal('manager'), Type.Literal('user')]),
  studio: sections.studio,
  projects: Type.Record(Type.String(), PermissionsSchema, { description: 'Each project the user can reach' }),
});

export const ShareOption = Type.Object({
  shareType: Type.Union([Type.Literal('user'), Type.Literal('team'), Type.Literal('global')]),
  value: Type.String(),
  name: Type.String(),
  label: Type.String(),
});
export const ShareOptions = Type.Object({ options: Type.Array(ShareOption) });

export const JsonSchemaDocument = Type.Record(Type.String(), Type.Unknown());
