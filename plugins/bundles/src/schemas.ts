import { INDEXED_KEY_MAX_LENGTH, Type, type Static } from '@pipewright/sdk';

// Field names and shapes follow AYON's BundleModel, BundlePatchModel, ListBundleModel and CheckBundleResponseModel.
// Unknown body fields are ignored, as AYON's models do, so a client may send a listed bundle back as it got it.

/**
 * The name of a new bundle: letters, digits and underscore, with inner dots and hyphens (AYON's NAME_REGEX). It is
 * the bundles' primary key, so no longer than an index key takes.
 */
export const BundleName = Type.String({
  pattern: '^[a-zA-Z0-9_]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9_])?$',
  maxLength: INDEXED_KEY_MAX_LENGTH,
  examples: ['studio_2024_05'],
});

/** A bundle named in the path: any text, as in AYON; a name no bundle has is not found. */
export const BundleParams = Type.Object({ bundle_name: Type.String({ examples: ['studio_2024_05'] }) });

/**
 * An addon's version in a bundle: any text, as in AYON (a version the server does not have fails the check),
 * null (switched off; "none" is read as null, as AYON does), or a project bundle's placeholder (__inherit__ keeps
 * the studio version, __disable__ switches it off).
 */
export const AddonVersion = Type.Union([Type.String(), Type.Null()]);

export const AddonVersions = Type.Record(Type.String({ minLength: 1, maxLength: 128 }), AddonVersion, {
  description: 'Addon name to version; null switches the addon off',
  examples: [{ core: '1.0.0', ftrack: null }],
});

/** Platform to dependency package filename. */
export const DependencyPackages = Type.Object(
  {
    windows: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    linux: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    darwin: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  },
  // A map keyed by platform, not a model: an unknown platform is refused (AYON's dict[Platform, str] does so),
  // where unknown fields of models are dropped (only additionalProperties: false drops them).
  { additionalProperties: Type.Never(), description: 'Mapping of platform to dependency package filename' },
);

export const AddonDevelopmentItem = Type.Object(
  {
    enabled: Type.Boolean({ default: true, description: 'Enable/disable addon development' }),
    path: Type.String({ default: '', description: 'Path to addon directory' }),
  },
  { additionalProperties: true },
);

export const AddonDevelopment = Type.Record(Type.String(), AddonDevelopmentItem);

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

/** POST /api/bundles and POST /api/bundles/check. */
export const BundleCreate = Type.Object({
  name: BundleName,
  createdAt: Type.Optional(Type.String({ format: 'date-time' })),
  addons: Type.Optional(AddonVersions),
  installerVersion: Type.Optional(Nullable(Type.String())),
  dependencyPackages: Type.Optional(DependencyPackages),
  addonDevelopment: Type.Optional(AddonDevelopment),
  isProduction: Type.Optional(Type.Boolean()),
  isStaging: Type.Optional(Type.Boolean()),
  /** Ignored on create: a new bundle is never archived. */
  isArchived: Type.Optional(Type.Boolean()),
  isDev: Type.Optional(Type.Boolean()),
  isProject: Type.Optional(Type.Boolean()),
  activeUser: Type.Optional(Nullable(Type.String())),
});
export type BundleCreate = Static<typeof BundleCreate>;

/** PATCH /api/bundles/{bundle_name}: absent fields stay as they are. */
export const BundlePatch = Type.Object({
  addons: Type.Optional(AddonVersions),
  installerVersion: Type.Optional(Nullable(Type.String())),
  dependencyPackages: Type.Optional(DependencyPackages),
  isProduction: Type.Optional(Type.Boolean()),
  isStaging: Type.Optional(Type.Boolean()),
  isArchived: Type.Optional(Type.Boolean()),
  isDev: Type.Optional(Type.Boolean()),
  activeUser: Type.Optional(Nullable(Type.String())),
  addonDevelopment: Type.Optional(AddonDevelopment),
});
export type BundlePatch = Static<typeof BundlePatch>;

export const PatchQuery = Type.Object({
  build: Type.Optional(
    Type.Array(Type.Union([Type.Literal('windows'), Type.Literal('linux'), Type.Literal('darwin')]), {
      description: 'Build dependency packages for selected platforms (accepted; nothing is built)',
    }),
  ),
  force: Type.Boolean({ default: false, description: 'Skip the compatibility check' }),
});

export const CreateQuery = Type.Object({
  force: Type.Boolean({ default: false, description: 'Force creation of bundle' }),
});

export const ListQuery = Type.Object({
  archived: Type.Boolean({ default: false, description: 'Include archived bundles' }),
});

export const BundleAction = Type.Object({
  action: Type.Union([Type.Literal('promote')], { examples: ['promote'] }),
});

/** A bundle as listed. Fields that are null are left out, as AYON's list does. */
export const Bundle = Type.Object({
  name: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  addons: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
  installerVersion: Type.Optional(Type.String()),
  dependencyPackages: Type.Record(Type.String(), Type.Union([Type.String(), Type.Null()])),
  addonDevelopment: Type.Record(
    Type.String(),
    Type.Object({ enabled: Type.Boolean(), path: Type.String() }, { additionalProperties: true }),
  ),
  isProduction: Type.Boolean(),
  isStaging: Type.Boolean(),
  isArchived: Type.Boolean(),
  isDev: Type.Boolean(),
  isProject: Type.Boolean(),
  activeUser: Type.Optional(Type.String()),
});

export const BundleList = Type.Object({
  bundles: Type.Array(Bundle),
  productionBundle: Type.Optional(Type.String()),
  stagingBundle: Type.Optional(Type.String()),
  devBundles: Type.Array(Type.String()),
});

export const BundleIssue = Type.Object({
  severity: Type.Union([Type.Literal('error'), Type.Literal('warning')]),
  addon: Type.Optional(Type.String()),
  message: Type.String(),
  requiredAddon: Type.Optional(Type.String()),
});
export type BundleIssue = Static<typeof BundleIssue>;

export const CheckResult = Type.Object({
  success: Type.Boolean(),
  issues: Type.Array(BundleIssue),
});

/**
 * POST /api/projects/{project_name}/bundles (deprecated): the project's own bundles per variant, kept in the
 * project's data as sent, as AYON keeps them.
 */
export const ProjectBundles = Type.Object({
  production: Type.Optional(Type.Union([Type.String(), Type.Null()])),
  staging: Type.Optional(Type.Union([Type.String(), Type.Null()])),
});
