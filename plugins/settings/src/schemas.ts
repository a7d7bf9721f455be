import { JsonObject, ProjectName, Type } from '@pipewright/sdk';

// Addon names and versions are checked against what the server knows (404), so any text goes in the path.
const AddonName = Type.String({ minLength: 1, maxLength: 128, examples: ['core'] });
const AddonVersion = Type.String({ minLength: 1, maxLength: 64, examples: ['1.0.0'] });

/** Bundle names, and the variants that name a dev bundle. */
const NAME_PATTERN = '^[a-zA-Z0-9_]([a-zA-Z0-9_.\\-]*[a-zA-Z0-9_])?$';
const BundleName = Type.String({ pattern: NAME_PATTERN, minLength: 1, maxLength: 128 });

/** production, staging, or the name of a dev bundle. */
const Variant = Type.String({
  pattern: NAME_PATTERN,
  minLength: 1,
  maxLength: 128,
  default: 'production',
  description: 'production, staging or the name of a dev bundle',
});

/** A client installation, as it names itself in x-ayon-site-id. */
const SiteId = Type.String({ pattern: '^[a-zA-Z0-9][a-zA-Z0-9_.\\-]*$', minLength: 1, maxLength: 128 });

// Site ids may be sent as site_id or as its alias site.
const siteQuery = {
  site_id: Type.Optional(SiteId),
  site: Type.Optional(SiteId),
};

export const AddonParams = Type.Object({ addon_name: AddonName, addon_version: AddonVersion });
export const AddonProjectParams = Type.Object({
  addon_name: AddonName,
  addon_version: AddonVersion,
  project_name: ProjectName,
});

export const StudioQuery = Type.Object({
  variant: Variant,
  as: Type.Optional(
    Type.String({
      maxLength: 64,
      description:
        'Read the overrides stored for this version of the addon, converted for the one in the path',
    }),
  ),
});
export const ProjectQuery = Type.Object({ ...StudioQuery.properties, ...siteQuery });
export const VariantQuery = Type.Object({ variant: Variant });
export const ProjectVariantQuery = Type.Object({ variant: Variant, ...siteQuery });
export const SiteQuery = Type.Object(siteQuery);

/** A path of keys inside the settings (list positions may come as numbers). */
const FieldPath = Type.Array(Type.Union([Type.String(), Type.Integer({ minimum: 0 })]), { minItems: 1 });

/** New settings, with the fields the editor pinned (always stored) and unpinned (back to inherited). */
export const SettingsBody = Type.Object(
  {
    __pinned_fields__: Type.Optional(Type.Array(FieldPath)),
    __unpinned_fields__: Type.Optional(Type.Array(FieldPath)),
  },
  { additionalProperties: true },
);

export const ModifyOverridesRequest = Type.Object({
  action: Type.Union([Type.Literal('delete'), Type.Literal('pin')]),
  path: FieldPath,
});

export const SettingsValue = JsonObject;

const OverrideEntry = Type.Object({
  path: Type.Array(Type.String()),
  type: Type.Optional(Type.String()),
  value: Type.Optional(Type.Unknown()),
  level: Type.String(),
  inGroup: Type.Union([Type.Array(Type.String()), Type.Null()]),
});
export const OverrideMap = Type.Record(Type.String(), OverrideEntry);

export const AllSettingsQuery = Type.Object({
  bundle_name: Type.Optional(BundleName),
  project_name: Type.Optional(ProjectName),
  project_bundle_name: Type.Optional(BundleName),
  variant: Variant,
  summary: Type.Boolean({ default: false, description: 'Only describe the addons, without settings values' }),
  ...siteQuery,
  limit: Type.Integer({ default: 30, minimum: 1, description: 'Accepted for AYON clients' }),
});

const AddonSettingsItem = Type.Object({
  name: Type.String(),
  version: Type.String(),
  title: Type.String(),
  hasSettings: Type.Boolean(),
  hasProjectSettings: Type.Boolean(),
  hasProjectSiteSettings: Type.Boolean(),
  hasSiteSettings: Type.Boolean(),
  hasStudioOverrides: Type.Optional(Type.Boolean()),
  hasProjectOverrides: Type.Optional(Type.Boolean()),
  hasProjectSiteOverrides: Type.Optional(Type.Boolean()),
  settings: JsonObject,
  siteSettings: Type.Optional(JsonObject),
  isBroken: Type.Boolean(),
  reason: Type.Optional(Type.Record(Type.String(), Type.String())),
});

export const AllSettingsResponse = Type.Object({
  projectName: Type.Optional(Type.String()),
  bundleName: Type.String(),
  addons: Type.Array(AddonSettingsItem),
  inheritedAddons: Type.Array(Type.String()),
});

const LegacyVariant = Type.Union([Type.Literal('production'), Type.Literal('staging')], {
  default: 'production',
});

export const LegacySettingsQuery = Type.Object({
  variant: LegacyVariant,
  project: Type.Optional(ProjectName),
  site: Type.Optional(SiteId),
});
export const LegacySiteSettingsQuery = Type.Object({ variant: LegacyVariant, site: Type.Optional(SiteId) });

export const AddonSettingsResponse = Type.Object({
  settings: Type.Record(Type.String(), JsonObject),
  versions: Type.Record(Type.String(), Type.String()),
});

export const MigrateSettingsByBundleRequest = Type.Object({
  sourceBundle: BundleName,
  targetBundle: BundleName,
  sourceVariant: BundleName,
  targetVariant: BundleName,
  withProjects: Type.Optional(
    Type.Boolean({ default: true, description: 'Migrate project settings as well' }),
  ),
});

const StandardVariant = Type.Union([Type.Literal('production'), Type.Literal('staging')]);

/** POST /api/addons (deprecated): copy one addon's settings from one variant to the other. */
export const ConfigureAddonsRequest = Type.Object({
  copyVariant: Type.Optional(
    Type.Object({
      addonName: Type.String({ minLength: 1, maxLength: 64 }),
      copyFrom: StandardVariant,
      copyTo: StandardVariant,
    }),
  ),
});
