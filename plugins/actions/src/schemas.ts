import {
  AddonName,
  AddonVersion,
  INDEXED_KEY_MAX_LENGTH,
  JsonObject,
  PROJECT_ENTITY_TYPES,
  Type,
  Variant,
  type Static,
  type TSchema,
} from '@pipewright/sdk';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ENTITY_TYPES = ['project', ...PROJECT_ENTITY_TYPES, 'list'] as const;
const EntityType = Type.Union(ENTITY_TYPES.map((type) => Type.Literal(type)));

/**
 * The context of a request for actions. Every field may be missing or null (the dashboard has no project, a project
 * page no entity). Clients of several AYON versions send extra fields; they are accepted and ignored. As in AYON,
 * names and ids are plain strings: one that names nothing finds nothing.
 */
const contextFields = {
  projectName: Type.Optional(Nullable(Type.String())),
  entityType: Type.Optional(Nullable(EntityType)),
  entityIds: Type.Optional(Nullable(Type.Array(Type.String()))),
  entitySubtypes: Type.Optional(Nullable(Type.Array(Type.String()))),
  formData: Type.Optional(Nullable(JsonObject)),
};
export const ActionContextBody = Type.Object(contextFields);
export type ActionContextBody = Static<typeof ActionContextBody>;

/** The context as answered (take): every field present. */
export const ActionContextModel = Type.Object({
  projectName: Nullable(Type.String()),
  entityType: Nullable(Type.String()),
  entityIds: Nullable(Type.Array(Type.String())),
  entitySubtypes: Nullable(Type.Array(Type.String())),
  formData: Nullable(JsonObject),
});

export const ListQuery = Type.Object({
  mode: Type.Union([Type.Literal('simple'), Type.Literal('dynamic'), Type.Literal('all')], {
    default: 'simple',
  }),
  variant: Variant,
});

export const ManageQuery = Type.Object({ variant: Variant });

// AYON's icon model sends its unset members as null.
const Icon = Type.Object({
  type: Type.String(),
  name: Type.Optional(Nullable(Type.String())),
  color: Type.Optional(Nullable(Type.String())),
  url: Type.Optional(Nullable(Type.String())),
});

/** An action as the list and the manager view show it. */
export const ActionItem = Type.Object({
  identifier: Type.String(),
  label: Type.String(),
  groupLabel: Nullable(Type.String()),
  category: Type.String(),
  order: Type.Number(),
  icon: Nullable(Icon),
  featured: Type.Boolean(),
  adminOnly: Type.Boolean(),
  managerOnly: Type.Boolean(),
  configFields: Nullable(Type.Array(JsonObject)),
  addonName: Type.String(),
  addonVersion: Type.String(),
  variant: Type.String(),
  mode: Type.Union([Type.Literal('simple'), Type.Literal('dynamic')]),
  // Simple actions only, in the manager view: where the action applies.
  entityType: Type.Optional(Nullable(Type.String())),
  entitySubtypes: Type.Optional(Nullable(Type.Array(Type.String()))),
  allowMultiselection: Type.Optional(Type.Boolean()),
});
export type ActionItem = Static<typeof ActionItem>;

export const ActionListResponse = Type.Object({ variant: Type.String(), actions: Type.Array(ActionItem) });
export const ManageResponse = Type.Object({ actions: Type.Array(ActionItem) });

/** Which action: the addon (name and version) that contributes it, its identifier and the settings variant. */
export const ActionQuery = Type.Object({
  addonName: AddonName,
  addonVersion: AddonVersion,
  // Any text, as in AYON; capped only because a stored config is keyed by it (in a btree index).
  identifier: Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH }),
  variant: Variant,
});
export type ActionQuery = Static<typeof ActionQuery>;

/** The context plus, when writing, the new settings of the action; without a value the stored ones are read back. */
export const ConfigBody = Type.Object({ ...contextFields, value: Type.Optional(Nullable(JsonObject)) });

export const ExecuteResponse = Type.Object({
  type: Type.Union(
    ['form', 'launcher', 'navigate', 'query', 'redirect', 'simple'].map((type) => Type.Literal(type)),
  ),
  success: Type.Boolean(),
  message: Nullable(Type.String()),
  payload: Nullable(JsonObject),
  uri: Type.Optional(Nullable(Type.String())),
});

/** The 64 hexadecimal characters of a launcher token. */
export const TokenParams = Type.Object({
  token: Type.String({ pattern: '^[0-9a-f]{64}$', description: '64 lowercase hex characters' }),
});

export const TakeResponse = Type.Object({
  eventId: Type.String(),
  actionIdentifier: Type.String(),
  args: Type.Array(Type.String()),
  context: ActionContextModel,
  addonName: Type.String(),
  addonVersion: Type.String(),
  variant: Type.String(),
  userName: Type.String(),
});

export const AbortBody = Type.Object({
  message: Type.String({ default: 'Action aborted' }),
});
