import { dependenciesOf } from './order.js';
import { readdir, readFile, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { existsSync } from 'node:fs';
import {
  AYON_PACKAGE_FILE,
  readAyonPackagePy,
  type AddonDefinition,
  type PackageReader,
} from '@pipewright/sdk';

/** An addon package found on disk, with its definition loaded. */
export interface DiscoveredAddon {
  definition: AddonDefinition;
  directory: string;
  internal: boolean;
  /** Why the package could not be loaded; such an addon is listed as broken and never set up. */
  loadError?: string;
}

/** The folder holding the server's internal addons (plugins/ at the repository root). */
export const INTERNAL_ADDONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../../../plugins');

/**
 * Import an addon package from its folder: the "." export of its package.json is its entry. A folder without one
 * is of another format: the readers addons added are asked in turn; an AYON package none of them reads is served as
 * files alone.
 */
export async function importAddon(
  directory: string,
  internal: boolean,
  readers: readonly PackageReader[] = [],
): Promise<DiscoveredAddon> {
  if (!existsSync(join(directory, 'package.json'))) {
    for (const read of readers) {
      const definition = await read(directory);
      if (definition) return { definition, directory, internal };
    }
    if (existsSync(join(directory, AYON_PACKAGE_FILE)))
      return { definition: await ayonPackageDefinition(directory), directory, internal };
  }
  const manifest = JSON.parse(await readFile(join(directory, 'package.json'), 'utf8'));
  const entry =
    typeof manifest.exports === 'string'
      ? manifest.exports
      : (manifest.exports?.['.'] ?? manifest.main ?? 'index.js');
  const file = join(directory, typeof entry === 'string' ? entry : entry.default);
  const url = pathToFileURL(file);
  // Node caches modules by URL: an installed addon reinstalled in the same version gets a new modification time,
  // so its new code is imported instead of the first import's.
  if (!internal) url.search = `?mtime=${(await stat(file)).mtimeMs}`;
  const module = await import(url.href);
  const definition = module.default as AddonDefinition | undefined;
  if (!definition?.name || !definition.version) {
    throw new Error(`${directory} does not export an addon definition (export default defineAddon({...}))`);
  }
  // Built against an sdk before service references: it would set up with none of the services it expects.
  if ('dependsOn' in definition)
    throw new Error(
      `${definition.name} ${definition.version} declares dependsOn, which this server no longer reads: ` +
        'name the service references it uses in deps (rebuild it with the current @pipewright/sdk)',
    );
  return { definition, directory, internal };
}

/** An AYON addon package as an addon with nothing to set up: its files are served, its Python is not run. */
async function ayonPackageDefinition(directory: string): Promise<AddonDefinition> {
  const info = readAyonPackagePy(await readFile(join(directory, AYON_PACKAGE_FILE), 'utf8'));
  if (!info.name || !info.version)
    throw new Error(`${directory}: ${AYON_PACKAGE_FILE} names no name or version`);
  return {
    name: info.name,
    version: info.version,
    title: info.title ?? info.name,
    description:
      'AYON addon package: its client files are served; its Python server code does not run (ayon-host is off)',
  };
}

/**
 * Every internal addon under plugins/. A package that fails to import does not stop the server: it is reported
 * as broken (named after its folder), so one bad addon costs its own area, not the whole studio.
 */
export async function discoverInternalAddons(root = INTERNAL_ADDONS_DIR): Promise<DiscoveredAddon[]> {
  const entries = await readdir(root, { withFileTypes: true });
  return Promise.all(
    entries.filter((entry) => entry.isDirectory()).map((entry) => importInternal(root, entry.name)),
  );
}

/**
 * The internal addons the named ones need: those named and, transitively, what they depend on (an internal
 * addon's folder is named after it). A core booted for a few addons, as a test's is, imports only these: importing
 * all thirty took most of its start-up.
 */
export async function discoverInternalAddonsFor(
  names: string[],
  root = INTERNAL_ADDONS_DIR,
): Promise<DiscoveredAddon[]> {
  const found = new Map<string, Promise<DiscoveredAddon | null>>();
  const visit = (name: string): Promise<unknown> => {
    if (found.has(name)) return found.get(name)!;
    const addon = existsSync(join(root, name, 'package.json'))
      ? importInternal(root, name)
      : Promise.resolve(null);
    found.set(name, addon);
    return addon.then((loaded) => Promise.all((loaded ? dependenciesOf(loaded.definition) : []).map(visit)));
  };
  await Promise.all(names.map(visit));
  const addons = await Promise.all(found.values());
  return addons.filter((addon): addon is DiscoveredAddon => addon !== null);
}

function importInternal(root: string, folderName: string): Promise<DiscoveredAddon> {
  const folder = join(root, folderName);
  return importAddon(folder, true).catch((error: Error) => ({
    definition: { name: folderName, version: '0.0.0', title: folderName },
    directory: folder,
    internal: true,
    loadError: error.message,
  }));
}
