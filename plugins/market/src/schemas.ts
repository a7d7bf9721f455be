import { AddonName, JsonObject, Type, type Static, type TSchema } from '@pipewright/sdk';

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/** The rule addon names follow, checked on the catalogue as it is read (routes take any name, see below). */
export const CatalogueAddonName = Type.String({
  pattern: '^[a-z0-9][a-z0-9_-]*$',
  minLength: 1,
  maxLength: 64,
  examples: ['maya'],
});
export const ReleaseName = Type.String({
  pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
  minLength: 1,
  maxLength: 128,
  examples: ['2025.06-vfx'],
});

// Names in the path are looked up in the catalogue, so any text goes, as in AYON: one it lacks is not found.
export const AddonParams = Type.Object({ addon_name: AddonName });
export const ReleaseParams = Type.Object({ release_name: Type.String({ examples: ['2025.06-vfx'] }) });
export const ReleaseListQuery = Type.Object({
  all: Type.Optional(
    Type.Boolean({ default: false, description: 'Older releases too, not only the latest' }),
  ),
});
export const LicenseQuery = Type.Object({
  refresh: Type.Optional(
    Type.Boolean({ default: false, description: 'Ask Ynput Cloud to sync the licenses first' }),
  ),
});

export const LinkTypes = ['homepage', 'github', 'documentation', 'license'] as const;

export const Link = Type.Object({
  type: Type.Union(LinkTypes.map((type) => Type.Literal(type))),
  label: Nullable(Type.String()),
  url: Type.String(),
});

const listItemFields = {
  name: Type.String({ examples: ['maya'] }),
  title: Type.String({ examples: ['Maya'] }),
  description: Nullable(Type.String()),
  orgName: Nullable(Type.String({ examples: ['ynput-official'] })),
  orgTitle: Nullable(Type.String({ examples: ['Ynput'] })),
  icon: Nullable(Type.String({ description: 'Icon URL' })),
  category: Nullable(Type.String({ examples: ['dcc-integration'] })),
  tags: Type.Array(Type.String()),
  flags: Type.Array(Type.String()),
  latestVersion: Nullable(
    Type.String({ description: 'Newest version this server can run (its ayonVersion requirement is met)' }),
  ),
  links: Nullable(Type.Array(Link)),
  available: Type.Boolean({ description: 'The addon can be downloaded' }),
  currentProductionVersion: Nullable(Type.String({ description: 'Version the production bundle uses' })),
  currentLatestVersion: Nullable(Type.String({ description: 'Newest version installed on this server' })),
  isOutdated: Type.Boolean({ description: 'An installed addon for which a newer compatible version exists' }),
};

export const MarketAddonListItem = Type.Object(listItemFields);
export const MarketAddonList = Type.Object({ addons: Type.Array(MarketAddonListItem) });

export const MarketAddonVersionListItem = Type.Object({
  version: Type.String(),
  ayonVersion: Nullable(
    Type.String({ description: 'Server versions the addon version runs on', examples: ['>=1.1.0'] }),
  ),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  isCompatible: Type.Boolean(),
  isInstalled: Type.Boolean(),
  isProduction: Type.Boolean(),
});

export const MarketAddonDetail = Type.Object({
  ...listItemFields,
  versions: Type.Array(MarketAddonVersionListItem, { description: 'Newest first' }),
  warning: Nullable(Type.String()),
});

export const MarketAddonVersionDetail = Type.Object({
  ...listItemFields,
  version: Type.String(),
  url: Nullable(
    Type.String({
      description: 'The zip to give POST /api/addons/install?url=; null when it cannot be installed here',
    }),
  ),
  altUrl: Nullable(Type.String()),
  checksum: Nullable(Type.String()),
  ayonVersion: Nullable(Type.String()),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
  isInstalled: Type.Boolean(),
  isProduction: Type.Boolean(),
  isCompatible: Type.Boolean(),
});
export type MarketAddonVersionDetail = Static<typeof MarketAddonVersionDetail>;

const Platform = Type.Union([Type.Literal('windows'), Type.Literal('linux'), Type.Literal('darwin')]);
const Source = Type.Object(
  { type: Type.Union([Type.Literal('server'), Type.Literal('http')]), url: Type.Optional(Type.String()) },
  { additionalProperties: false },
);
const ModuleVersions = Type.Record(
  Type.String(),
  Type.Union([Type.String(), Type.Record(Type.String(), Type.String())]),
);
const packageFields = {
  filename: Type.String({ pattern: '^[\\w\\-+._]+$' }),
  platform: Platform,
  size: Type.Optional(Type.Integer({ minimum: 0 })),
  checksum: Type.Optional(Type.String()),
  checksumAlgorithm: Type.Optional(
    Type.Union([Type.Literal('md5'), Type.Literal('sha1'), Type.Literal('sha256')]),
  ),
  sources: Type.Optional(Type.Array(Source)),
  pythonVersion: Type.Optional(Type.String()),
};

/** AYON's InstallerManifest: also the shape the catalogue lists installers in. */
export const InstallerManifest = Type.Object(
  {
    ...packageFields,
    version: Type.String(),
    pythonModules: Type.Optional(ModuleVersions),
    runtimePythonModules: Type.Optional(Type.Record(Type.String(), Type.String())),
  },
  { additionalProperties: false },
);

/** AYON's DependencyPackageManifest: also the shape the catalogue lists dependency packages in. */
export const DependencyPackageManifest = Type.Object(
  {
    ...packageFields,
    installerVersion: Type.String(),
    sourceAddons: Type.Optional(Type.Record(Type.String(), Nullable(Type.String()))),
    pythonModules: Type.Optional(ModuleVersions),
  },
  { additionalProperties: false },
);

const releaseFields = {
  name: Type.String({ examples: ['2025.06-vfx'] }),
  label: Type.String({ examples: ['VFX'] }),
  release: Type.String({ examples: ['2025.06'] }),
  description: Type.String(),
  icon: Type.String({ examples: ['movie'] }),
  createdAt: Type.String({ format: 'date-time' }),
  mandatoryAddons: Type.Array(Type.String()),
};

export const ReleaseListItem = Type.Object({
  ...releaseFields,
  isLatest: Type.Boolean({ description: 'Part of the newest release' }),
  addons: Type.Array(Type.String(), { description: 'Names of the addons in the release' }),
});

export const ReleaseList = Type.Object({ releases: Type.Array(ReleaseListItem), detail: Type.String() });

export const ReleaseInfo = Type.Object({
  ...releaseFields,
  addons: Type.Array(MarketAddonVersionDetail),
  installers: Type.Optional(Type.Array(InstallerManifest)),
  dependencyPackages: Type.Optional(Type.Array(DependencyPackageManifest)),
});

export const LicenseList = Type.Object({
  licenses: Type.Array(JsonObject),
  syncedAt: Nullable(
    Type.Number({ description: 'When the licenses were read from Ynput Cloud (Unix seconds)' }),
  ),
});
