import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import AdmZip from 'adm-zip';
import { CliError, type AddonFolder } from './addon-folder.js';

// `pipewright addon package`: the zip POST /api/addons/install takes. manifest.json and package.json at its root,
// the built server side (dist/), the built screens (frontend/dist/) and the files the addon serves (public/,
// private/). Sources, tests and node_modules stay home.

const OPTIONAL_FOLDERS = ['frontend/dist', 'public', 'private'];

/** Write the package zip of a built addon; answers its path and size in bytes. */
export async function packageAddon(addon: AddonFolder): Promise<{ file: string; bytes: number }> {
  if (!existsSync(addon.serverOutput))
    throw new CliError('The addon is not built yet: run "pipewright addon build" first');
  const zip = new AdmZip();
  zip.addLocalFile(join(addon.root, 'manifest.json'));
  zip.addLocalFile(join(addon.root, 'package.json'));
  zip.addLocalFolder(dirname(addon.serverOutput), 'dist');
  for (const folder of OPTIONAL_FOLDERS) {
    const path = join(addon.root, folder);
    if (existsSync(path)) zip.addLocalFolder(path, folder);
  }
  await mkdir(dirname(addon.packageFile), { recursive: true });
  const bytes = zip.toBuffer();
  await zip.writeZipPromise(addon.packageFile);
  return { file: addon.packageFile, bytes: bytes.length };
}
