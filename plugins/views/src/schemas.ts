import { Id, JsonObject, ProjectNameQuery, Type, UserNameKey, type Static } from '@pipewright/sdk';

/**
 * The page the view is for: overview, taskProgress, lists or reviews; any name is taken, as in AYON (an unknown type
 * lists no views and finds none). AYON's name rule: letters, digits and underscores, inner dots and hyphens.
 */
export const ViewTypeName = Type.String({
  pattern: '^[a-zA-Z0-9_]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9_])?$',
  description: 'The page the view is for: overview, taskProgress, lists or reviews',
  examples: ['overview'],
});

const Label = Type.String({ minLength: 1, maxLength: 255, description: 'Human-readable name of the view' });
const Visibility = Type.Unsafe<'public' | 'private'>({
  type: 'string',
  enum: ['public', 'private'],
  description: 'Public views are visible to every user, private ones only to their owner',
});

export const TypeParams = Type.Object({ view_type: ViewTypeName });
export const ViewParams = Type.Object({ view_type: ViewTypeName, view_id: Id });

export const ScopeQuery = Type.Object({
  // Views of this project (and the studio's); without it, the studio's only.
  project_name: Type.Optional(ProjectNameQuery),
});

export const ViewCreate = Type.Object(
  {
    id: Type.Optional(Id),
    label: Label,
    working: Type.Optional(
      Type.Boolean({
        description:
          'The working view keeps the current settings of a page without an explicit save; one per user, view ' +
          'type and scope, always private. As in AYON, a view is a working view unless working is false.',
      }),
    ),
    visibility: Type.Optional(Visibility),
    settings: JsonObject,
    viewType: Type.Optional(ViewTypeName),
  },
  { additionalProperties: false },
);
export type ViewCreate = Static<typeof ViewCreate>;

export const ViewPatch = Type.Object(
  {
    label: Type.Optional(Label),
    owner: Type.Optional(UserNameKey),
    visibility: Type.Optional(Visibility),
    settings: Type.Optional(JsonObject),
    viewType: Type.Optional(ViewTypeName),
  },
  { additionalProperties: false },
);
export type ViewPatch = Static<typeof ViewPatch>;

export const SetDefault = Type.Object({ viewId: Id }, { additionalProperties: false });

const listItemFields = {
  id: Id,
  label: Type.String(),
  scope: Type.Unsafe<'project' | 'studio'>({ type: 'string', enum: ['project', 'studio'] }),
  owner: Type.String(),
  visibility: Visibility,
  working: Type.Boolean(),
  position: Type.Integer(),
  accessLevel: Type.Integer({ description: '30 for the owner, 10 for others who may read the view' }),
};

export const ViewListItem = Type.Object(listItemFields);
export type ViewListItem = Static<typeof ViewListItem>;

export const ViewList = Type.Object({ views: Type.Array(ViewListItem) });

export const View = Type.Object({
  ...listItemFields,
  settings: JsonObject,
  access: JsonObject,
  viewType: ViewTypeName,
});
export type View = Static<typeof View>;

export const CreatedView = Type.Object({ id: Id });

/** What AYON answers for an update, a delete and setting the default: null. */
export const Done = Type.Null({ description: 'Done (AYON answers null)' });
