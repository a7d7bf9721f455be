import { readFileSync } from 'node:fs';

const SCOPE = '@pipewright/plugin-';

/**
 * An internal addon's name, version and description, read from the package.json beside its src/ folder, so they
 * are written once: the name is the package's after "@pipewright/plugin-". Give it the module's import.meta.url.
 */
export function addonPackage(moduleUrl: string): { name: string; version: string; description: string } {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', moduleUrl), 'utf8'));
  if (typeof pkg.name !== 'string' || !pkg.name.startsWith(SCOPE))
    throw new Error(`${moduleUrl}: package.json names no ${SCOPE}<name> package`);
  return { name: pkg.name.slice(SCOPE.length), version: pkg.version, description: pkg.description ?? '' };
}
