import { BadRequest, NotFound, type Database } from '@pipewright/sdk';
import type { BundleDirectory, BundleRecord } from '@pipewright/plugin-bundles/api';
import type { FastifyBaseLogger } from 'fastify';
import { deepEqual, type Json } from './overrides.js';
import { overrideKeys, type OverrideStore } from './store.js';
import type { Actor, SettingsService } from './service.js';

/** Overrides of one version made fit for another (the target version's model converts them). */
export type Conversion = (overrides: Json, project: string | null) => Promise<Json>;
const keep: Conversion = async (overrides) => overrides;

/** The conversion of overrides from one version of an addon to another, by the target version's model. */
export function conversion(settings: SettingsService, addon: string, from: string, to: string): Conversion {
  const target = settings.find(addon, to);
  if (!target || from === to) return keep;
  return (overrides, project) => settings.convert(target, from, overrides, project);
}

/** One addon version's settings in one variant. */
export interface VariantRef {
  version: string;
  variant: string;
}

/**
 * Make the target's studio overrides (and, with projects, every project's) equal to the source's: copied where the
 * source has some, removed where it has none. Project site overrides carry no variant; they are copied only to
 * another addon version. Answers the projects whose overrides changed ('' for the studio).
 */
export async function copyOverrides(
  store: OverrideStore,
  addon: string,
  from: VariantRef,
  to: VariantRef,
  withProjects: boolean,
  convert: Conversion = keep,
): Promise<string[]> {
  if (from.version === to.version && from.variant === to.variant) return [];
  const source = await store.variantRows(addon, from.version, from.variant, withProjects);
  const target = await store.variantRows(addon, to.version, to.variant, withProjects);
  const changed: string[] = [];
  for (const project of new Set([...source.keys(), ...target.keys()])) {
    const data = await convert(source.get(project) ?? {}, project || null);
    const existing = target.get(project);
    if (deepEqual(data, existing ?? {})) continue;
    const key = project
      ? overrideKeys.project(addon, to.version, to.variant, project)
      : overrideKeys.studio(addon, to.version, to.variant);
    await store.write(key, data);
    changed.push(project);
  }
  if (withProjects && from.version !== to.version) {
    for (const row of await store.projectSiteRows(addon, from.version)) {
      await store.write(
        overrideKeys.projectSite(addon, to.version, row.project, row.site, row.user),
        await convert(row.data, row.project),
      );
    }
  }
  return changed;
}

/** A production bundle moved an addon to another version (the bundles addon's versionChanges). */
export interface VersionChange {
  addonName: string;
  fromVersion: string;
  toVersion: string;
}

/**
 * The production bundle now runs another version of an addon: its production overrides (studio and projects) are
 * carried to that version where it has none yet, so the studio keeps its choices. Overrides already prepared for the
 * new version (migrated to staging and promoted, say) are left as they are.
 */
export async function carryProductionForward(
  db: Database,
  store: OverrideStore,
  settings: SettingsService,
  changes: VersionChange[],
  actor: Actor,
): Promise<void> {
  const written: { addon: string; version: string; projects: string[] }[] = [];
  await db.transaction().execute(async () => {
    for (const { addonName: addon, fromVersion, toVersion } of changes) {
      if (fromVersion === toVersion || !settings.find(addon, toVersion)) continue;
      const source = await store.variantRows(addon, fromVersion, 'production', true);
      const target = await store.variantRows(addon, toVersion, 'production', true);
      const projects: string[] = [];
      const convert = conversion(settings, addon, fromVersion, toVersion);
      for (const [project, data] of source) {
        if (target.has(project)) continue;
        const key = project
          ? overrideKeys.project(addon, toVersion, 'production', project)
          : overrideKeys.studio(addon, toVersion, 'production');
        await store.write(key, await convert(data, project || null));
        projects.push(project);
      }
      if (projects.length) written.push({ addon, version: toVersion, projects });
    }
    // The events go in the same unit of work as the overrides they announce.
    for (const { addon, version, projects } of written) {
      const info = settings.find(addon, version)!;
      for (const project of projects) {
        await settings.changed(
          info,
          'production',
          project ? { kind: 'project', project } : { kind: 'studio' },
          actor,
          'overrides carried over from the version the production bundle ran before',
        );
      }
    }
  });
}

/** The body of POST /api/migrateSettingsByBundle. */
export interface BundleMigration {
  sourceBundle: string;
  targetBundle: string;
  sourceVariant: string;
  targetVariant: string;
  withProjects: boolean;
  /** Only these addons (POST /api/addons copies one addon's settings between variants). */
  only?: string[];
}

const isStandardVariant = (variant: string) => variant === 'production' || variant === 'staging';

function addonsOf(bundle: BundleRecord): Record<string, string> {
  return Object.fromEntries(
    Object.entries(bundle.addons).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  );
}

/**
 * Copy the settings of every addon present in both bundles from the source bundle's version and variant to the
 * target bundle's, in one transaction; settings.changed is announced for each level that changed.
 */
export async function migrateSettingsByBundle(
  db: Database,
  store: OverrideStore,
  settings: SettingsService,
  bundles: BundleDirectory,
  request: BundleMigration,
  actor: Actor,
  log: FastifyBaseLogger,
): Promise<void> {
  // A dev variant is the dev bundle's own settings: they travel only with that bundle.
  for (const side of ['source', 'target'] as const) {
    const variant = request[`${side}Variant`];
    if (!isStandardVariant(variant) && request[`${side}Bundle`] !== variant) {
      throw new BadRequest(
        `When ${side}Variant is not production or staging, ${side}Bundle must be the same as ${side}Variant`,
      );
    }
  }
  const source = await bundles.get(request.sourceBundle);
  if (!source) throw new NotFound(`Source bundle ${request.sourceBundle} not found`);
  const target = await bundles.get(request.targetBundle);
  if (!target) throw new NotFound(`Target bundle ${request.targetBundle} not found`);
  const sourceAddons = addonsOf(source);
  const targetAddons = addonsOf(target);
  if (Object.keys(sourceAddons).length === 0)
    throw new NotFound(`Source bundle ${source.name} has no addons`);
  if (Object.keys(targetAddons).length === 0)
    throw new NotFound(`Target bundle ${target.name} has no addons`);

  const changes: { addon: string; version: string; projects: string[] }[] = [];
  await db.transaction().execute(async () => {
    for (const [addon, sourceVersion] of Object.entries(sourceAddons)) {
      const targetVersion = targetAddons[addon];
      if (!targetVersion || (request.only && !request.only.includes(addon))) continue;
      if (!settings.find(addon, sourceVersion) || !settings.find(addon, targetVersion)) {
        log.warn(`Settings of ${addon} not migrated: ${sourceVersion} or ${targetVersion} is not installed`);
        continue;
      }
      const projects = await copyOverrides(
        store,
        addon,
        { version: sourceVersion, variant: request.sourceVariant },
        { version: targetVersion, variant: request.targetVariant },
        request.withProjects,
        conversion(settings, addon, sourceVersion, targetVersion),
      );
      if (projects.length) changes.push({ addon, version: targetVersion, projects });
    }
    for (const change of changes) {
      const info = settings.find(change.addon, change.version);
      if (!info) continue;
      for (const project of change.projects) {
        await settings.changed(
          info,
          request.targetVariant,
          project ? { kind: 'project', project } : { kind: 'studio' },
          actor,
          `overrides migrated from ${request.sourceBundle} (${request.sourceVariant})`,
        );
      }
    }
  });
}

/**
 * Promotion makes the staging bundle production: the staging settings of its addon versions become the production
 * ones, studio-wide and for every project, inside the promote transaction.
 */
export function copyStagingToProduction(store: OverrideStore) {
  return async (bundle: BundleRecord): Promise<void> => {
    for (const [addon, version] of Object.entries(addonsOf(bundle))) {
      await copyOverrides(
        store,
        addon,
        { version, variant: 'staging' },
        { version, variant: 'production' },
        true,
      );
    }
  };
}
