import {
  AddonName,
  AddonVersion,
  INDEXED_KEY_MAX_LENGTH,
  JsonObject,
  ProjectName,
  ProjectNameQuery,
  Type,
  Variant,
} from '@pipewright/sdk';

/**
 * A client installation, as it names itself in x-ayon-site-id: any text, as in AYON, but site settings are stored
 * under it in an indexed key.
 */
const SiteId = Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH });

// Site ids may be sent as site_id or as its alias site.
const siteQuery = {
  site_id: Type.Optional(SiteId),
  site: Type.Optional(SiteId),
};

export const AddonProjectParams = Type.Object({
  addon_name: AddonName,
  addon_version: AddonVersion,
  project_name: ProjectName,
});

export const StudioQuery = Type.Object({
  variant: Variant,
  as: Type.Optional(
    Type.String({
      description:
        'Read the overrides stored for this version of the addon, converted for the one in the path',
    }),
  ),
});
export const ProjectQuery = Type.Object({ ...StudioQuery.properties, ...siteQuery });
export const VariantQuery = Type.Object({ variant: Variant });
export const ProjectVariantQuery = Type.Object({ variant: Variant, ...siteQuery });
export const SiteQuery = Type.Object(siteQuery);

/**
 * A path of keys inside the settings (list positions may come as numbers). Empty too, as in AYON: pinning it keeps
 * the overrides as they are, deleting it removes nothing.
 */
const FieldPath = Type.Array(Type.Union([Type.String(), Type.Integer()]));

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
  // Bundles are looked up by name (an unknown one is not found), so any text goes, as in AYON.
  bundle_name: Type.Optional(Type.String()),
  project_name: Type.Optional(ProjectNameQuery),
  project_bundle_name: Type.Optional(Type.String()),
  variant: Variant,
  summary: Type.Boolean({ default: false, description: 'Only describe the addons, without settings values' }),
  ...siteQuery,
  limit: Type.Integer({ default: 30, description: 'Accepted for AYON clients' }),
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

// Any text, as in AYON: bundles are looked up (404). The target variant is stored as part of an indexed key.
export const MigrateSettingsByBundleRequest = Type.Object({
  sourceBundle: Type.String(),
  targetBundle: Type.String(),
  sourceVariant: Type.String(),
  targetVariant: Type.String({ maxLength: INDEXED_KEY_MAX_LENGTH }),
  withProjects: Type.Optional(
    Type.Boolean({ default: true, description: 'Migrate project settings as well' }),
  ),
});

const StandardVariant = Type.Union([Type.Literal('production'), Type.Literal('staging')]);

/** POST /api/addons (deprecated): copy one addon's settings from one variant to the other. */
export const ConfigureAddonsRequest = Type.Object({
  copyVariant: Type.Optional(
    Type.Object({
      addonName: AddonName,
      copyFrom: StandardVariant,
      copyTo: StandardVariant,
    }),
  ),
});
