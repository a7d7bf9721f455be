import { readFileSync } from 'node:fs';

const SCOPE = '@pipewright/plugin-';

/**
 * An internal addon's name, version, title and description, read from the package.json beside its src/ folder, so
 * they are written once: the name is the package's after "@pipewright/plugin-", the title its `pipewright.title`.
 * Give it the module's import.meta.url.
 */
export function addonPackage(moduleUrl: string): {
  name: string;
  version: string;
  title: string;
  description: string;
} {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', moduleUrl), 'utf8'));
  if (typeof pkg.name !== 'string' || !pkg.name.startsWith(SCOPE))
    throw new Error(`${moduleUrl}: package.json names no ${SCOPE}<name> package`);
  const name = pkg.name.slice(SCOPE.length);
  return {
    name,
    version: pkg.version,
    title: pkg.pipewright?.title ?? name,
    description: pkg.description ?? '',
  };
}
