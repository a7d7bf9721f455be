import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  addonRef,
  AYON_PACKAGE_FILE,
  readAyonPackagePy,
  type AddonDefinition,
  type PackageReader,
  type TObject,
} from '@pipewright/sdk';
import {
  readExtraction,
  saveExtraction,
  type PackageDescription,
  type SavedExtraction,
} from './description.js';
import { TIMEOUTS, type AyonHost } from './host.js';
import { SERVER } from './origin.js';
import { pythonSettingsModel, pythonSiteSettingsModel } from './python-settings.js';
import { pythonActions } from './python-actions.js';
import { packageEndpoints } from './routes.js';

// AYON packages (package.py and a server/ folder of Python) become addons here. With the sidecar running, the
// package's own code answers for its settings, actions and endpoints; its description, schemas and defaults are
// saved next to it, so a server whose Python cannot run still lists the package and serves its settings.

const NO_CONTEXT = { projectName: null, variant: 'production', userName: null, siteId: null };

/** A schema carrying the whole defaults at its top: the schema-based model then starts from exactly these. */
function withDefaults(schema: Record<string, unknown> | null, defaults: Record<string, unknown> | null) {
  return schema ? ({ ...schema, default: defaults ?? {} } as unknown as TObject) : undefined;
}

function describedAddon(description: PackageDescription, note: string): AddonDefinition {
  return {
    name: description.name,
    version: description.version,
    title: description.title,
    description: note,
    deps: { host: addonRef('ayon-host') },
    services: description.services,
    addonType: description.addonType,
    projectCanOverrideAddonVersion: description.projectCanOverrideAddonVersion,
  };
}

/** The name and version package.py gives (read as text, never run in the server). */
async function packageName(directory: string) {
  const { name, version, title } = readAyonPackagePy(
    await readFile(join(directory, AYON_PACKAGE_FILE), 'utf8'),
  );
  if (!name || !version) throw new Error(`${AYON_PACKAGE_FILE} names no name or version`);
  return { name, version, title: title ?? name };
}

/** Run the package's code once to save what a server without Python needs of it. */
async function extract(host: AyonHost, description: PackageDescription): Promise<SavedExtraction> {
  const { name, version } = description;
  const ask = (method: string, params: Record<string, unknown>) =>
    host.call<Record<string, unknown> | null>(name, version, method, params, SERVER, TIMEOUTS.load);
  return {
    description,
    schema: description.hasSettings ? await ask('schema', { context: NO_CONTEXT, site: false }) : null,
    defaults: description.hasSettings ? await ask('defaults', { site: false }) : null,
    siteSchema: description.hasSiteSettings ? await ask('schema', { context: NO_CONTEXT, site: true }) : null,
    siteDefaults: description.hasSiteSettings ? await ask('defaults', { site: true }) : null,
  };
}

/** Reads AYON packages with the sidecar, or, when it cannot run, from what was saved while it could. */
export function ayonPackageReader(host: AyonHost | { unavailable: string }): PackageReader {
  return async (directory) => {
    if (!existsSync(join(directory, AYON_PACKAGE_FILE))) return null;
    if (!('load' in host)) return offlineDefinition(directory, host.unavailable);
    const description = await host.load({ directory, ...(await packageName(directory)) });
    const saved = await readExtraction(directory);
    const extraction =
      saved && JSON.stringify(saved.description) === JSON.stringify(description)
        ? saved
        : await extract(host, description);
    if (extraction !== saved) await saveExtraction(directory, extraction);
    const { name, version } = description;
    const unsupported = description.unsupported.length
      ? ` It uses what Pipewright does not offer: ${description.unsupported.join(', ')}.`
      : '';
    return {
      ...describedAddon(
        description,
        `AYON addon package: its server code runs in Pipewright's AYON addon host.${unsupported}`,
      ),
      settings: {
        studio: withDefaults(extraction.schema, extraction.defaults),
        site: withDefaults(extraction.siteSchema, extraction.siteDefaults),
        ...(description.hasSettings ? { model: pythonSettingsModel(host, name, version) } : {}),
        ...(description.hasSiteSettings ? { siteModel: pythonSiteSettingsModel(host, name, version) } : {}),
      },
      actions: pythonActions(host, description),
      async setup(ctx) {
        await ctx.app.register(packageEndpoints(host, description, directory));
        ctx.onClose(() => host.unload(name, version));
      },
    };
  };
}

/** Without Python: the saved schemas and defaults (merged by the schema-based model), no actions, no endpoints. */
async function offlineDefinition(directory: string, reason: string): Promise<AddonDefinition> {
  const why = `its actions and endpoints are off: ${reason}`;
  const saved = await readExtraction(directory);
  if (!saved) {
    const { name, version, title } = await packageName(directory);
    return {
      name,
      version,
      title,
      description: `AYON addon package: its files are served; its settings, ${why}`,
      deps: { host: addonRef('ayon-host') },
    };
  }
  return {
    ...describedAddon(
      saved.description,
      `AYON addon package: its settings are served as saved at install; ${why}`,
    ),
    settings: {
      studio: withDefaults(saved.schema, saved.defaults),
      site: withDefaults(saved.siteSchema, saved.siteDefaults),
    },
  };
}
