import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What the sidecar says of a package once it imported it (README.md, method load). */
export interface PackageDescription {
  name: string;
  version: string;
  title: string;
  addonType: 'server' | 'pipeline';
  system: boolean;
  services: Record<string, Record<string, unknown>>;
  appHostNames: string[];
  projectCanOverrideAddonVersion: boolean;
  clientDir: string | null;
  ayonServerVersion: string | null;
  ayonLauncherVersion: string | null;
  requiredAddons: Record<string, string>;
  softRequiredAddons: Record<string, string>;
  compatibleAddons: Record<string, string>;
  frontendScopes: Record<string, Record<string, unknown>>;
  hasSettings: boolean;
  hasSiteSettings: boolean;
  hasSimpleActions: boolean;
  hasDynamicActions: boolean;
  endpoints: { path: string; method: string; name: string; description: string }[];
  subscriptions: string[];
  unsupported: string[];
}

/**
 * What is kept of a package next to it once its code ran: its description, and its settings schemas and defaults
 * as they stand without a project. A server whose Python cannot run still serves these, and lists the package.
 */
export interface SavedExtraction {
  description: PackageDescription;
  schema: Record<string, unknown> | null;
  defaults: Record<string, unknown> | null;
  siteSchema: Record<string, unknown> | null;
  siteDefaults: Record<string, unknown> | null;
}

const FILE = '.pipewright-extract.json';

export async function readExtraction(directory: string): Promise<SavedExtraction | null> {
  try {
    return JSON.parse(await readFile(join(directory, FILE), 'utf8')) as SavedExtraction;
  } catch {
    return null;
  }
}

/** Written whole or not at all, so a process reading it meanwhile never sees half of it. */
export async function saveExtraction(directory: string, extraction: SavedExtraction): Promise<void> {
  const target = join(directory, FILE);
  const partial = `${target}.${process.pid}.partial`;
  await writeFile(partial, JSON.stringify(extraction));
  await rename(partial, target);
}
