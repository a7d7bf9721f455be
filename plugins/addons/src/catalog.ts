import type { AddonInfo, Static } from '@pipewright/sdk';
import type { AddonListItem, AddonVersionInfo, FrontendModule } from './schemas.js';

function versionInfo(addon: AddonInfo): Static<typeof AddonVersionInfo> {
  return {
    hasSettings: addon.hasSettings,
    hasSiteSettings: addon.hasSiteSettings,
    frontendScopes: addon.frontendScopes,
    clientPyproject: null,
    clientSourceInfo: null,
    services: addon.services,
    isBroken: addon.isBroken,
    reason: addon.reason,
  };
}

/**
 * The addons in AYON's list shape: one item per name with its versions. The server runs at most one version
 * of a name, and that one is the production version; a broken addon is listed so an operator sees why it
 * is missing, but it has no production version.
 */
export function addonList(addons: AddonInfo[]): Static<typeof AddonListItem>[] {
  const byName = new Map<string, AddonInfo[]>();
  for (const addon of addons) byName.set(addon.name, [...(byName.get(addon.name) ?? []), addon]);
  return [...byName.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([name, versions]) => {
      const running = versions.find((addon) => !addon.isBroken);
      const shown = running ?? versions[0]!;
      return {
        name,
        title: shown.title,
        description: shown.description,
        versions: Object.fromEntries(versions.map((addon) => [addon.version, versionInfo(addon)])),
        productionVersion: running?.version ?? null,
        stagingVersion: null,
        addonType: 'server' as const,
        system: shown.internal,
        projectCanOverrideAddonVersion: false,
      };
    });
}

/** The running addon of this name and version, if any: broken addons serve nothing. */
export function findRunning(addons: AddonInfo[], name: string, version: string): AddonInfo | undefined {
  return addons.find((addon) => addon.name === name && addon.version === version && !addon.isBroken);
}

/** The Module Federation remotes the web app loads at run time, one entry per running addon that has any. */
export function frontendModules(addons: AddonInfo[]): Static<typeof FrontendModule>[] {
  return addons
    .filter((addon) => !addon.isBroken && Object.keys(addon.frontendModules).length > 0)
    .map((addon) => ({ addonName: addon.name, addonVersion: addon.version, modules: addon.frontendModules }));
}
