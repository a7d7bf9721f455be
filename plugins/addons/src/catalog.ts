import type { AddonInfo, Static } from '@pipewright/sdk';
import type { AddonListItem, AddonVersionInfo, FrontendModule } from './schemas.js';

function versionInfo(addon: AddonInfo): Static<typeof AddonVersionInfo> {
  return {
    hasSettings: addon.hasSettings,
    hasSiteSettings: addon.hasSiteSettings,
    frontendScopes: addon.frontendScopes,
    services: addon.services,
    isBroken: addon.isBroken,
    ...(addon.reason ? { reason: addon.reason } : {}),
  };
}

/**
 * The addons in AYON's list shape: one item per name with its versions. Production uses the version the
 * production bundle names (else the newest enabled one); staging the one the staging bundle names. A broken
 * addon is listed so an operator sees why it is missing.
 */
export function addonList(
  addons: AddonInfo[],
  staging: Record<string, string | null>,
): Static<typeof AddonListItem>[] {
  const byName = new Map<string, AddonInfo[]>();
  for (const addon of addons) byName.set(addon.name, [...(byName.get(addon.name) ?? []), addon]);
  return [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, versions]) => {
      const production = versions.find((addon) => addon.production);
      const shown = production ?? versions[versions.length - 1]!;
      const stagingVersion = staging[name];
      return {
        name,
        title: shown.title,
        description: shown.description,
        versions: Object.fromEntries(versions.map((addon) => [addon.version, versionInfo(addon)])),
        ...(production ? { productionVersion: production.version } : {}),
        ...(versions.some((addon) => addon.version === stagingVersion)
          ? { stagingVersion: stagingVersion! }
          : {}),
        addonType: 'server' as const,
        system: shown.internal,
        projectCanOverrideAddonVersion: false,
      };
    });
}

/** The enabled addon of this name and version, if any: broken and switched-off addons serve nothing. */
export function findRunning(addons: AddonInfo[], name: string, version: string): AddonInfo | undefined {
  return addons.find((addon) => addon.name === name && addon.version === version && addon.enabled);
}

/** The Module Federation remotes the web app loads at run time: the production version of each addon that has any. */
export function frontendModules(addons: AddonInfo[]): Static<typeof FrontendModule>[] {
  return addons
    .filter((addon) => addon.production && Object.keys(addon.frontendModules).length > 0)
    .map((addon) => ({ addonName: addon.name, addonVersion: addon.version, modules: addon.frontendModules }));
}
