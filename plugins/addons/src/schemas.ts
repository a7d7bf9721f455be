import { AddonName, AddonVersion, JsonObject, Type } from '@pipewright/sdk';

export const AddonListQuery = Type.Object({
  details: Type.Optional(
    Type.Boolean({
      default: false,
      description: 'Add where the client code comes from, its pyproject.toml and the services',
    }),
  ),
});

// AYON leaves unset fields out of this list (response_model_exclude_none): clients read them with .get(key, default),
// which a null would defeat. clientPyproject and clientSourceInfo (the launcher's client code) are never set here.
/** AYON's VersionInfo; the client files and services come with details=true, and unset fields are left out. */
export const AddonVersionInfo = Type.Object({
  hasSettings: Type.Boolean(),
  hasSiteSettings: Type.Boolean(),
  frontendScopes: Type.Record(Type.String(), JsonObject),
  clientPyproject: Type.Optional(JsonObject),
  clientSourceInfo: Type.Optional(
    Type.Array(JsonObject, { description: 'Where the launcher downloads the client code from' }),
  ),
  services: Type.Optional(Type.Record(Type.String(), JsonObject)),
  isBroken: Type.Boolean(),
  reason: Type.Optional(
    Type.Record(Type.String(), Type.String(), {
      description: 'Why a broken addon could not be loaded: {error}',
    }),
  ),
  projectCanOverrideAddonVersion: Type.Boolean(),
});

export const AddonListItem = Type.Object({
  name: Type.String(),
  title: Type.String(),
  description: Type.String(),
  versions: Type.Record(Type.String(), AddonVersionInfo),
  productionVersion: Type.Optional(
    Type.String({ description: 'The version this server runs; absent when it does not run' }),
  ),
  stagingVersion: Type.Optional(Type.String()),
  addonType: Type.Union([Type.Literal('server'), Type.Literal('pipeline')], {
    description: "'pipeline' addons bring client code for the launcher",
  }),
  system: Type.Boolean({ description: 'True for the areas built into the server itself' }),
  projectCanOverrideAddonVersion: Type.Boolean(),
});

export const AddonList = Type.Object({ addons: Type.Array(AddonListItem) });

export const FrontendModule = Type.Object({
  addonName: Type.String(),
  addonVersion: Type.String(),
  modules: Type.Record(Type.String(), Type.Array(Type.String()), {
    description: 'Module Federation remote name to the modules it exposes',
  }),
  title: Type.Optional(Type.String({ description: "The addon's title (mf-manifest format)" })),
  frontendScopes: Type.Optional(
    Type.Record(Type.String(), JsonObject, {
      description: 'Where the screens go, as the addon declares it (mf-manifest format)',
    }),
  ),
});

export const FrontendModuleList = Type.Array(FrontendModule);

export const FrontendModulesQuery = Type.Object({
  format: Type.Optional(
    Type.Union([Type.Literal('ayon'), Type.Literal('mf-manifest')], {
      default: 'ayon',
      description:
        "ayon: remotes at AYON's path (frontend/modules/{remote}/remoteEntry.js), as AYON's web app loads them; " +
        "mf-manifest: every remote, addressed by the addon's frontend/mf-manifest.json (Pipewright's web app)",
    }),
  ),
});

export const AddonStaticParams = Type.Object({
  addon_name: AddonName,
  addon_version: AddonVersion,
  '*': Type.String({ maxLength: 1024, description: 'Path of the file inside the folder' }),
});

export const AddonNameParams = Type.Object({ addon_name: AddonName });

export const DeleteAddonQuery = Type.Object({
  purge: Type.Optional(
    Type.Boolean({ default: false, description: 'Accepted for AYON compatibility; settings are kept' }),
  ),
});

export const InstallQuery = Type.Object({
  url: Type.Optional(Type.String({ description: 'Download the package from here instead' })),
  addonName: Type.Optional(AddonName),
  addonVersion: Type.Optional(AddonVersion),
});

export const InstallAnswer = Type.Object({
  eventId: Type.String({ description: 'The addon.install event to poll until it is finished or failed' }),
});

export const InstallListItem = Type.Object({
  id: Type.String(),
  topic: Type.Union([Type.Literal('addon.install'), Type.Literal('addon.install_from_url')]),
  description: Type.String(),
  addonName: Type.Union([Type.String(), Type.Null()]),
  addonVersion: Type.Union([Type.String(), Type.Null()]),
  user: Type.Union([Type.String(), Type.Null()]),
  status: Type.String(),
  createdAt: Type.String({ format: 'date-time' }),
  updatedAt: Type.String({ format: 'date-time' }),
});

export const InstallList = Type.Object({
  items: Type.Array(InstallListItem),
  restartRequired: Type.Boolean({ description: 'Always false: installed addons run without a restart' }),
});
