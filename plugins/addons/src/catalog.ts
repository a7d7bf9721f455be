import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseToml } from 'smol-toml';
import type { AddonInfo, Static } from '@pipewright/sdk';
import type { AddonListItem, AddonVersionInfo, FrontendModule } from './schemas.js';

type VersionInfo = Static<typeof AddonVersionInfo>;

/**
 * What AYON's list adds with details=true, read from the package's private/ folder: where the launcher downloads
 * the client code (private/client.zip, served by this server) and the client's pyproject.toml, which the
 * dependency tool reads. A package never changes once installed, so each is read once.
 */
const clientFiles = new Map<string, Pick<VersionInfo, 'clientPyproject' | 'clientSourceInfo'>>();
function clientDetails(addon: AddonInfo): Pick<VersionInfo, 'clientPyproject' | 'clientSourceInfo'> {
  let known = clientFiles.get(addon.directory);
  if (!known) {
    const privateDir = join(addon.directory, 'private');
    const pyproject = join(privateDir, 'pyproject.toml');
    known = {
      ...(existsSync(join(privateDir, 'client.zip'))
        ? { clientSourceInfo: [{ type: 'server', filename: 'client.zip' }] }
        : {}),
      ...(existsSync(pyproject) ? { clientPyproject: readPyproject(pyproject) } : {}),
    };
    clientFiles.set(addon.directory, known);
  }
  return known;
}

function readPyproject(path: string): Record<string, unknown> {
  try {
    return parseToml(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch (error) {
    return { error: `Unable to parse pyproject.toml: ${(error as Error).message}` };
  }
}

const ayonFrontends = new Map<string, boolean>();

/**
 * AYON's web app opens an addon's scopes as a page of its own in a frame, at /addons/{name}/{version}/frontend/, so
 * it is told of them only when the addon ships that page (frontend/dist/index.html). Screens built as Module
 * Federation remotes reach Pipewright's web app through /api/frontendModules instead.
 */
function servesAyonFrontend(addon: AddonInfo): boolean {
  let serves = ayonFrontends.get(addon.directory);
  if (serves === undefined) {
    serves = existsSync(join(addon.directory, 'frontend', 'dist', 'index.html'));
    ayonFrontends.set(addon.directory, serves);
  }
  return serves;
}

/** A version as AYON lists it; a broken one shows only why it is broken ({error}). */
function versionInfo(addon: AddonInfo, details: boolean): VersionInfo {
  if (addon.isBroken)
    return {
      hasSettings: false,
      hasSiteSettings: false,
      frontendScopes: {},
      projectCanOverrideAddonVersion: false,
      isBroken: true,
      reason: { error: addon.reason ?? 'unknown reason' },
    };
  return {
    hasSettings: addon.hasSettings,
    hasSiteSettings: addon.hasSiteSettings,
    frontendScopes: servesAyonFrontend(addon) ? addon.frontendScopes : {},
    projectCanOverrideAddonVersion: addon.projectCanOverrideAddonVersion,
    isBroken: false,
    ...(details ? clientDetails(addon) : {}),
    ...(details && Object.keys(addon.services).length ? { services: addon.services } : {}),
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
  details: boolean,
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
        versions: Object.fromEntries(versions.map((addon) => [addon.version, versionInfo(addon, details)])),
        ...(production ? { productionVersion: production.version } : {}),
        ...(versions.some((addon) => addon.version === stagingVersion)
          ? { stagingVersion: stagingVersion! }
          : {}),
        addonType: shown.addonType,
        system: shown.internal,
        projectCanOverrideAddonVersion: shown.projectCanOverrideAddonVersion,
      };
    });
}

/** The enabled addon of this name and version, if any: broken and switched-off addons serve nothing. */
export function findRunning(addons: AddonInfo[], name: string, version: string): AddonInfo | undefined {
  return addons.find((addon) => addon.name === name && addon.version === version && addon.enabled);
}

/**
 * The Module Federation remotes of the production version of each addon, in the form a web app loads them:
 * - 'ayon' (AYON's web app): remotes at AYON's path, /addons/{name}/{version}/frontend/modules/{remote}/remoteEntry.js;
 *   only those the package ships there are listed, so AYON's web app never asks for a file that is not there.
 * - 'mf-manifest' (Pipewright's web app): every declared remote, addressed by the addon's frontend/mf-manifest.json,
 *   with the addon's title and the scopes that place its screens.
 */
export function frontendModules(
  addons: AddonInfo[],
  format: 'ayon' | 'mf-manifest',
): Static<typeof FrontendModule>[] {
  const listed = (addon: AddonInfo): Record<string, string[]> =>
    format === 'mf-manifest'
      ? addon.frontendModules
      : Object.fromEntries(
          Object.entries(addon.frontendModules).filter(([remote]) =>
            existsSync(join(addon.directory, 'frontend', 'dist', 'modules', remote, 'remoteEntry.js')),
          ),
        );
  return addons
    .filter((addon) => addon.production)
    .map((addon) => ({
      addonName: addon.name,
      addonVersion: addon.version,
      modules: listed(addon),
      ...(format === 'mf-manifest' ? { title: addon.title, frontendScopes: addon.frontendScopes } : {}),
    }))
    .filter((module) => Object.keys(module.modules).length > 0);
}
