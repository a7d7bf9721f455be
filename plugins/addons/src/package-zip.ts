import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, normalize, sep } from 'node:path';
import AdmZip from 'adm-zip';
import semver from 'semver';
import { API_VERSION, AYON_PACKAGE_FILE, ValidationFailed, readAyonPackagePy } from '@pipewright/sdk';

// An addon package is a zip holding manifest.json ({name, version, title?, serverVersion?}) next to the addon's
// package.json (whose "exports" names the built server entry), with optional frontend/, public/ and private/
// folders. Zipping the folder itself (one top folder holding everything) is accepted too. An AYON addon package
// (package.py instead of manifest.json, see the sdk's ayon-package.ts) installs with its files served and its
// Python server code kept, not run.

export interface AddonManifest {
  name: string;
  version: string;
  title?: string;
  /** The server versions (AYON API versions) the addon works with, as a semver range. */
  serverVersion?: string;
}

export interface AddonPackage {
  manifest: AddonManifest;
  /** Files to unpack, by path relative to the addon folder. */
  files: { path: string; data: () => Buffer }[];
}

const NAME = /^[a-z0-9][a-z0-9_-]*$/;
const VERSION = /^\d+\.\d+\.\d+([-+][0-9A-Za-z.-]+)?$/;

function refuse(msg: string, type = 'value_error'): never {
  throw new ValidationFailed([{ loc: ['body'], msg, type }], `Not an addon package: ${msg}`);
}

/** Read and check an addon zip without writing anything: a package that cannot be installed is refused whole. */
export function readAddonZip(zip: Buffer): AddonPackage {
  let entries: AdmZip.IZipEntry[];
  try {
    entries = new AdmZip(zip).getEntries();
  } catch (error) {
    refuse(`the body is not a zip file (${(error as Error).message})`, 'zip_error');
  }
  const names = entries.map((entry) => entry.entryName.replace(/\\/g, '/'));
  const topmost = (file: string) =>
    names
      .filter((name) => name === file || (name.endsWith(`/${file}`) && name.split('/').length === 2))
      .sort((a, b) => a.length - b.length)[0];
  const manifestPath = topmost('manifest.json');
  const ayonPath = manifestPath ? undefined : topmost(AYON_PACKAGE_FILE);
  if (!manifestPath && !ayonPath)
    refuse(
      `manifest.json is missing at the top of the zip (an AYON package has ${AYON_PACKAGE_FILE} there)`,
      'missing',
    );
  const text = (path: string) => entries[names.indexOf(path)]!.getData().toString('utf8');
  let manifest: AddonManifest;
  let root: string;
  if (manifestPath) {
    root = manifestPath.slice(0, -'manifest.json'.length);
    try {
      manifest = JSON.parse(text(manifestPath));
    } catch (error) {
      refuse(`manifest.json is not valid JSON (${(error as Error).message})`, 'json_invalid');
    }
    checkManifest(manifest);
    if (!names.includes(`${root}package.json`))
      refuse('package.json is missing next to manifest.json', 'missing');
  } else {
    root = ayonPath!.slice(0, -AYON_PACKAGE_FILE.length);
    manifest = readAyonPackagePy(text(ayonPath!)) as AddonManifest;
    checkManifest(manifest, AYON_PACKAGE_FILE);
  }

  const files: AddonPackage['files'] = [];
  entries.forEach((entry, index) => {
    const name = names[index]!;
    if (entry.isDirectory || !name.startsWith(root)) return;
    const path = normalize(name.slice(root.length));
    // Zip entries are names chosen by whoever made the file: none may leave the addon folder.
    if (path.startsWith('..') || path.startsWith(sep) || path.includes(`${sep}..${sep}`)) {
      refuse(`the zip entry "${name}" points outside the addon folder`, 'path_traversal');
    }
    files.push({ path, data: () => entry.getData() });
  });
  return { manifest, files };
}

function checkManifest(manifest: AddonManifest, file = 'manifest.json'): void {
  if (typeof manifest !== 'object' || manifest === null) refuse(`${file} must hold an object`);
  if (typeof manifest.name !== 'string' || !NAME.test(manifest.name)) {
    refuse(`${file}: name must be lowercase letters, digits, underscore or hyphen`);
  }
  if (typeof manifest.version !== 'string' || !VERSION.test(manifest.version)) {
    refuse(`${file}: version must be a semantic version such as 1.2.0`);
  }
  if (manifest.serverVersion !== undefined) {
    if (typeof manifest.serverVersion !== 'string' || !semver.validRange(manifest.serverVersion)) {
      refuse('manifest.json: serverVersion must be a semver range such as ">=1.11.0"');
    }
    if (!semver.satisfies(API_VERSION, manifest.serverVersion, { includePrerelease: true })) {
      refuse(
        `${manifest.name} ${manifest.version} needs server version ${manifest.serverVersion}; this server is ${API_VERSION}`,
        'incompatible',
      );
    }
  }
}

/** Write the package's files under folder (which must not exist yet). */
export async function unpackAddon(pkg: AddonPackage, folder: string): Promise<void> {
  for (const file of pkg.files) {
    const target = join(folder, file.path);
    await mkdir(dirname(target), { recursive: true });
    await writeFile(target, file.data());
  }
}
