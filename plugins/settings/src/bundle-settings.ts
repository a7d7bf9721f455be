import { NotFound, type AddonInfo, type RequestUser } from '@pipewright/sdk';
import type { BundleDirectory, BundleRecord } from '@pipewright/plugin-bundles/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import { settingsScopes, type Json, type SchemaNode } from './overrides.js';
import { pairKey } from './store.js';
import type { SettingsService } from './service.js';

/** What GET /api/settings is asked (query parameters, site_id and site already folded into one). */
export interface AllSettingsQuery {
  bundleName?: string;
  projectName?: string;
  projectBundleName?: string;
  variant: string;
  summary: boolean;
  site: string | null;
}

/** One addon of AllSettingsResponseModel. */
export interface AddonSettingsItem {
  name: string;
  version: string;
  title: string;
  hasSettings: boolean;
  hasProjectSettings: boolean;
  hasProjectSiteSettings: boolean;
  hasSiteSettings: boolean;
  hasStudioOverrides?: boolean;
  hasProjectOverrides?: boolean;
  hasProjectSiteOverrides?: boolean;
  settings: Json;
  siteSettings?: Json;
  isBroken: boolean;
  reason?: Record<string, string>;
}

const isStandardVariant = (variant: string) => variant === 'production' || variant === 'staging';
/** Project bundle placeholders: keep the studio bundle's version, or switch the addon off for the project. */
const INHERIT = '__inherit__';
const DISABLE = '__disable__';
const hasKeys = (value: Json) => Object.keys(value).length > 0;

function versionsOf(bundle: BundleRecord): [string, string][] {
  return Object.entries(bundle.addons).filter(
    (entry): entry is [string, string] => typeof entry[1] === 'string',
  );
}

/** Settings of every addon of a bundle at once: what pipelines, launchers and farms read at start. */
export class BundleSettings {
  constructor(
    private readonly projects: ProjectDirectory,
    private readonly settings: SettingsService,
    private readonly bundles: BundleDirectory,
    private readonly addons: () => AddonInfo[],
  ) {}

  /** The settings a caller asks for; naming a project they cannot reach is refused with 403. */
  async all(caller: RequestUser, query: AllSettingsQuery) {
    const user = caller.name;
    // The project first: a caller who may not open it learns nothing, not even which bundles exist.
    const project = query.projectName ? await this.settings.project(query.projectName, caller) : null;
    // A dev variant names its dev bundle; otherwise an explicit bundle, else the one the variant points at.
    const bundle = !isStandardVariant(query.variant)
      ? await this.bundles.forVariant(query.variant)
      : query.bundleName
        ? await this.bundles.get(query.bundleName)
        : await this.bundles.forVariant(query.variant);
    if (!bundle) throw new NotFound('Bundle not found');

    const versions = new Map(versionsOf(bundle));
    let bundleName = bundle.name;
    let inherited: string[] = [];
    // A project may run its own bundle for the variant (chosen in the project, or named by a farm job).
    const projectBundleName =
      query.projectBundleName ??
      (project && isStandardVariant(query.variant)
        ? await this.projectBundleOf(project, query.variant)
        : null);
    if (projectBundleName) {
      const projectBundle = await this.bundles.get(projectBundleName);
      if (!projectBundle?.isProject) throw new NotFound(`Project bundle ${projectBundleName} not found`);
      const studioNames = new Set(versions.keys());
      for (const [name, version] of Object.entries(projectBundle.addons)) {
        if (version === INHERIT) continue;
        studioNames.delete(name);
        if (typeof version === 'string' && version !== DISABLE) versions.set(name, version);
        else versions.delete(name);
      }
      inherited = [...studioNames];
      bundleName = projectBundle.name;
    }

    const known = [...versions].map(([name, version]) => ({
      name,
      version,
      info: this.settings.find(name, version),
    }));
    const infos = known.flatMap((k) => (k.info ? [k.info] : []));
    const scope = { variant: query.variant, project, site: project ? query.site : null, user };
    const effective = await this.settings.valuesOf(infos, scope);
    const siteSettings = query.site ? await this.settings.siteSettingsOf(infos, query.site, user) : null;

    const items = known.map(({ name, version, info }): AddonSettingsItem => {
      if (!info) return this.missing(name, version);
      const key = pairKey(name, version);
      const scopes = settingsScopes(info.settingsSchema as SchemaNode | null);
      const found = effective.get(key);
      const site = siteSettings?.get(key);
      return {
        name,
        version,
        title: info.title || name,
        hasSettings: scopes.studio,
        hasProjectSettings: scopes.project,
        hasProjectSiteSettings: scopes.site,
        hasSiteSettings: info.hasSiteSettings,
        ...(found
          ? {
              hasStudioOverrides: hasKeys(found.layers.studio),
              hasProjectOverrides: hasKeys(found.layers.project),
              hasProjectSiteOverrides: hasKeys(found.layers.projectSite),
            }
          : {}),
        settings: found && !query.summary ? found.values : {},
        ...(site ? { siteSettings: site } : {}),
        isBroken: false,
      };
    });
    items.sort((a, b) => a.title.toLowerCase().localeCompare(b.title.toLowerCase()));
    return {
      ...(project ? { projectName: project } : {}),
      bundleName,
      addons: items,
      inheritedAddons: inherited,
    };
  }

  /** GET /api/settings/addons (deprecated): the settings of every addon of the variant's bundle that has some. */
  async legacy(
    caller: RequestUser,
    variant: string,
    projectName: string | undefined,
    site: string | undefined,
  ) {
    const user = caller.name;
    const project = projectName ? await this.settings.project(projectName, caller) : null;
    const infos = await this.variantAddons(variant);
    const effective = await this.settings.valuesOf(infos, {
      variant,
      project,
      site: project ? site : null,
      user,
    });
    const settings: Record<string, Json> = {};
    const versions: Record<string, string> = {};
    for (const info of infos) {
      const found = effective.get(pairKey(info.name, info.version));
      if (!found) continue;
      settings[info.name] = found.values;
      versions[info.name] = info.version;
    }
    return { settings, versions };
  }

  /** GET /api/settings/addons/siteSettings (deprecated): site settings of the variant's addons that have some. */
  async legacySite(user: string, variant: string, site: string | undefined) {
    const infos = await this.variantAddons(variant);
    const found = await this.settings.siteSettingsOf(infos, site ?? null, user);
    const settings: Record<string, Json> = {};
    const versions: Record<string, string> = {};
    for (const info of infos) {
      const values = found.get(pairKey(info.name, info.version));
      if (!values) continue;
      settings[info.name] = values;
      versions[info.name] = info.version;
    }
    return { settings, versions };
  }

  /**
   * The project bundle a project chose for a variant (POST /api/projects/{name}/bundles keeps it in the project's
   * data.bundle).
   */
  private async projectBundleOf(project: string, variant: string): Promise<string | null> {
    const chosen = (await this.projects.find(project))?.data.bundle as Record<string, unknown> | undefined;
    const bundle = chosen?.[variant];
    return typeof bundle === 'string' ? bundle : null;
  }

  private async variantAddons(variant: string): Promise<AddonInfo[]> {
    const bundle = await this.bundles.forVariant(variant);
    if (!bundle) return [];
    return versionsOf(bundle).flatMap(([name, version]) => {
      const info = this.settings.find(name, version);
      return info ? [info] : [];
    });
  }

  /** An addon the bundle names but the server does not run: listed, without settings, broken if it failed. */
  private missing(name: string, version: string): AddonSettingsItem {
    const broken = this.addons().find((a) => a.name === name && a.version === version && a.isBroken);
    return {
      name,
      version,
      title: name,
      hasSettings: false,
      hasProjectSettings: false,
      hasProjectSiteSettings: false,
      hasSiteSettings: false,
      settings: {},
      isBroken: Boolean(broken),
      ...(broken ? { reason: { error: broken.reason ?? 'broken' } } : {}),
    };
  }
}
