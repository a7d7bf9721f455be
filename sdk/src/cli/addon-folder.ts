import { readFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** The parts of manifest.json the server reads when it installs an addon. */
export interface Manifest {
  name: string;
  version: string;
  title: string;
  serverVersion?: string;
}

/** An addon's source folder as `pipewright addon init` lays it out. */
export interface AddonFolder {
  root: string;
  manifest: Manifest;
  /** The server side's entry (src/index.ts). */
  serverEntry: string;
  /** frontend/ when the addon has screens (a rsbuild.config.ts there), else null. */
  frontend: string | null;
  /** Where `addon build` writes the server bundle: dist/index.js, named by package.json "exports". */
  serverOutput: string;
  /** Where `addon package` writes the zip. */
  packageFile: string;
}

/** A command-line mistake: printed without a stack trace, exit code 1. */
export class CliError extends Error {}

/** Read and check the addon folder at `dir` (the current directory by default). */
export async function readAddonFolder(dir = '.'): Promise<AddonFolder> {
  const root = resolve(dir);
  const manifestPath = join(root, 'manifest.json');
  if (!existsSync(manifestPath))
    throw new CliError(
      `${root} is not an addon folder: it has no manifest.json (create one with "pipewright addon init")`,
    );
  let manifest: Manifest;
  try {
    manifest = JSON.parse(await readFile(manifestPath, 'utf8'));
  } catch (error) {
    throw new CliError(`manifest.json is not valid JSON: ${(error as Error).message}`);
  }
  for (const field of ['name', 'version', 'title'] as const) {
    if (typeof manifest[field] !== 'string' || !manifest[field])
      throw new CliError(`manifest.json needs a "${field}" (a non-empty string)`);
  }
  const serverEntry = join(root, 'src', 'index.ts');
  if (!existsSync(serverEntry)) throw new CliError(`The addon has no server entry at ${serverEntry}`);
  const frontend = join(root, 'frontend');
  return {
    root,
    manifest,
    serverEntry,
    frontend: existsSync(join(frontend, 'rsbuild.config.ts')) ? frontend : null,
    serverOutput: join(root, 'dist', 'index.js'),
    packageFile: join(root, 'package', `${manifest.name}-${manifest.version}.zip`),
  };
}
