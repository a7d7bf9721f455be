import {
  BadRequest,
  NotFound,
  ValidationFailed,
  type AddonInfo,
  type Database,
  type EventBus,
  type RequestUser,
  type SettingsContext,
  type SettingsModel,
  type SiteSettingsModel,
} from '@pipewright/sdk';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import { removePath, type Json, type OverrideEntry, type SchemaNode } from './overrides.js';
import { schemaSettingsModel, schemaSiteSettingsModel } from './schema-model.js';
import { dataOf, last, layersAt, overrideKeyOf, scopeOf, STUDIO, type Level } from './levels.js';
import { overrideKeys, pairKey, type LayerScope, type Layers, type OverrideStore } from './store.js';

/** Who changed settings, for the settings.changed event. */
export interface Actor {
  user: string;
}

/** The effective settings of one addon version for a studio, project or project site request. */
export interface EffectiveSettings {
  values: Json;
  layers: Layers;
}

/** The model of settings that follow from a schema alone, built once per loaded addon version. */
function fromSchema<M>(
  cache: WeakMap<AddonInfo, M>,
  info: AddonInfo,
  schema: unknown,
  build: (schema: SchemaNode, title: string) => M,
): M | null {
  if (!schema) return null;
  let model = cache.get(info);
  if (!model) cache.set(info, (model = build(schema as SchemaNode, info.title)));
  return model;
}

export class SettingsService {
  /** The models of addons that compute settings from their schema, built once per loaded addon version. */
  private readonly schemaModels = new WeakMap<AddonInfo, SettingsModel>();
  private readonly siteSchemaModels = new WeakMap<AddonInfo, SiteSettingsModel>();

  constructor(
    private readonly db: Database,
    private readonly store: OverrideStore,
    private readonly events: EventBus,
    private readonly addons: () => AddonInfo[],
    private readonly projects: ProjectDirectory,
  ) {}

  /** An addon version the server runs or knows (switched off included), or 404. Broken ones cannot be set up. */
  addon(name: string, version: string): AddonInfo {
    const info = this.find(name, version);
    if (!info) throw new NotFound(`Addon ${name} ${version} not found`);
    return info;
  }

  find(name: string, version: string): AddonInfo | undefined {
    return this.addons().find((a) => a.name === name && a.version === version && !a.isBroken);
  }

  /**
   * The project's name as stored, or 404. With a caller, one without access to the project is refused with 403
   * first, as every other project route does (so names are not probed). Checked before a transaction opens
   * (PGlite has one connection).
   */
  async project(name: string, caller?: RequestUser): Promise<string> {
    if (caller) return (await this.projects.require(caller, name)).name;
    const project = await this.projects.find(name);
    if (!project) throw new NotFound(`Project ${name} not found`);
    return project.name;
  }

  /** How the addon version's settings are computed; null for an addon without settings. */
  model(info: AddonInfo): SettingsModel | null {
    return (
      info.settingsModel ?? fromSchema(this.schemaModels, info, info.settingsSchema, schemaSettingsModel)
    );
  }

  siteModel(info: AddonInfo): SiteSettingsModel | null {
    return (
      info.siteSettingsModel ??
      fromSchema(this.siteSchemaModels, info, info.siteSettingsSchema, schemaSiteSettingsModel)
    );
  }

  /** The settings schema for a request's context, titled after the addon ({} for an addon without settings). */
  async schemaDocument(info: AddonInfo, context: SettingsContext): Promise<Json> {
    return (await this.model(info)?.schema(context)) ?? {};
  }

  async siteSchemaDocument(info: AddonInfo): Promise<Json> {
    return (await this.siteModel(info)?.schema()) ?? {};
  }

  /**
   * Overrides stored for another version of the addon, converted for this one by its model (an AYON package's
   * convert_settings_overrides); as they are when the model has no conversion or the versions are the same.
   */
  async convert(
    info: AddonInfo,
    fromVersion: string,
    overrides: Json,
    project: string | null,
  ): Promise<Json> {
    const model = this.model(info);
    if (fromVersion === info.version || !model?.convert || Object.keys(overrides).length === 0)
      return overrides;
    return model.convert(fromVersion, overrides, project);
  }

  /**
   * The effective settings at a level, or null for an addon without settings. With asVersion, the overrides stored
   * for that version of the addon are read, converted for this one (how a settings editor previews a copy).
   */
  async values(info: AddonInfo, variant: string, level: Level, asVersion?: string): Promise<Json | null> {
    const model = this.model(info);
    if (!model) return null;
    const layers = await this.layers(info, variant, level, asVersion);
    return last(await model.stack(dataOf(layers)));
  }

  /** The stored layers that reach a level, read for asVersion (converted) or this version. */
  private async layers(info: AddonInfo, variant: string, level: Level, asVersion = info.version) {
    const stored = layersAt(await this.store.layers(info.name, asVersion, scopeOf(variant, level)), level);
    if (asVersion === info.version) return stored;
    const project = level.kind === 'studio' ? null : level.project;
    return Promise.all(
      stored.map(async (layer) => ({
        ...layer,
        data: await this.convert(info, asVersion, layer.data, project),
      })),
    );
  }

  /** Effective settings of many addon versions at once (GET /api/settings), keyed by name and version. */
  async valuesOf(infos: AddonInfo[], scope: LayerScope): Promise<Map<string, EffectiveSettings>> {
    const withSettings = infos.filter((info) => this.model(info));
    const pairs = withSettings.map((info): [string, string] => [info.name, info.version]);
    const all = await this.store.layersOf(pairs, scope);
    const level: Level = !scope.project
      ? STUDIO
      : scope.site && scope.user
        ? { kind: 'projectSite', project: scope.project, site: scope.site, user: scope.user }
        : { kind: 'project', project: scope.project };
    // Each addon's model answers on its own (an AYON package's in the sidecar): asked all at once.
    const computed = await Promise.all(
      withSettings.map(async (info): Promise<[string, EffectiveSettings]> => {
        const key = pairKey(info.name, info.version);
        const layers = all.get(key)!;
        const values = last(await this.model(info)!.stack(dataOf(layersAt(layers, level))));
        return [key, { values, layers }];
      }),
    );
    return new Map(computed);
  }

  /**
   * The override map of a level in AYON's shape. A project level lists the studio overrides too, then its own
   * over them; a project site level adds the site's own.
   */
  async overrideMap(
    info: AddonInfo,
    variant: string,
    level: Level,
    asVersion?: string,
  ): Promise<Record<string, OverrideEntry>> {
    const model = this.model(info);
    if (!model) return {};
    return (await model.overrides(await this.layers(info, variant, level, asVersion))) as Record<
      string,
      OverrideEntry
    >;
  }

  /**
   * Save new settings at a level. The body is the new settings (keys it leaves out keep their current value); what
   * is stored is the difference from the level below, plus the keys already overridden there or pinned now.
   */
  async save(
    info: AddonInfo,
    variant: string,
    level: Level,
    body: Json,
    marks: { pins?: string[][]; unpins?: string[][] },
    actor: Actor,
  ): Promise<void> {
    const model = this.requireModel(info);
    await this.db.transaction().execute(async () => {
      const state = await this.stateOf(info, variant, level);
      await this.store.write(
        overrideKeyOf(info, variant, level),
        await model.extract(state.below, state.own, body, marks),
      );
      await this.changed(info, variant, level, actor, 'overrides changed');
    });
  }

  /** Pin the current value at path as an override of the level, or remove the override at path (back to inherited). */
  async modify(
    info: AddonInfo,
    variant: string,
    level: Level,
    action: 'pin' | 'delete',
    path: string[],
    actor: Actor,
  ): Promise<void> {
    const model = this.requireModel(info);
    await this.db.transaction().execute(async () => {
      const state = await this.stateOf(info, variant, level);
      let overrides: Json;
      if (action === 'pin') {
        const pinned = await model.pin(state.below, state.own, path);
        if (!pinned) {
          throw new ValidationFailed(
            [
              {
                loc: ['body', 'path'],
                msg: `${path.join('.')} is not a setting of this addon`,
                type: 'value_error',
              },
            ],
            `Invalid path: ${path.join('.')} is not a setting of ${info.name} ${info.version}`,
          );
        }
        overrides = pinned;
      } else {
        overrides = structuredClone(state.own);
        // Nothing overridden there: nothing to do, as AYON answers.
        if (!removePath(overrides, path)) return;
      }
      await this.store.write(overrideKeyOf(info, variant, level), overrides);
      const what = action === 'pin' ? 'override pinned' : 'override removed';
      await this.changed(info, variant, level, actor, what);
    });
  }

  /** Remove every override of the level. */
  async clear(info: AddonInfo, variant: string, level: Level, actor: Actor): Promise<void> {
    await this.db.transaction().execute(async () => {
      await this.store.remove(overrideKeyOf(info, variant, level));
      await this.changed(info, variant, level, actor, 'overrides removed');
    });
  }

  /** The stored overrides of the level, as they are. */
  rawOverrides(info: AddonInfo, variant: string, level: Level): Promise<Json> {
    return this.store.read(overrideKeyOf(info, variant, level));
  }

  /** Replace the stored overrides of the level as they are, without validation (admins repairing data). */
  async setRawOverrides(
    info: AddonInfo,
    variant: string,
    level: Level,
    data: Json,
    actor: Actor,
  ): Promise<void> {
    await this.db.transaction().execute(async () => {
      await this.store.write(overrideKeyOf(info, variant, level), data);
      await this.changed(info, variant, level, actor, 'overrides changed using the low-level API');
    });
  }

  /** Site settings of one site and user: the site schema's defaults with what they saved ({} without a schema). */
  async siteSettings(info: AddonInfo, site: string | null, user: string): Promise<Json> {
    const model = this.siteModel(info);
    if (!model) return {};
    const stored = site ? await this.store.read(overrideKeys.site(info.name, info.version, site, user)) : {};
    return model.values(stored);
  }

  /** Site settings of many addons for one site and user, keyed by name and version. */
  async siteSettingsOf(infos: AddonInfo[], site: string | null, user: string): Promise<Map<string, Json>> {
    const withModel = infos.filter((info) => this.siteModel(info));
    const pairs = withModel.map((info): [string, string] => [info.name, info.version]);
    const stored = site ? await this.store.siteSettingsOf(pairs, site, user) : new Map<string, Json>();
    return new Map(
      await Promise.all(
        withModel.map(async (info): Promise<[string, Json]> => {
          const key = pairKey(info.name, info.version);
          return [key, await this.siteModel(info)!.values(stored.get(key) ?? {})];
        }),
      ),
    );
  }

  /** Save the site settings of one site and user: the body is the whole value, keys left out take the defaults. */
  async setSiteSettings(
    info: AddonInfo,
    site: string,
    user: string,
    body: Json,
    actor: Actor,
  ): Promise<void> {
    const model = this.siteModel(info);
    if (!model) throw new BadRequest(`Addon ${info.name} ${info.version} has no site settings`);
    const saved = await model.save(body);
    await this.db.transaction().execute(async () => {
      await this.store.write(overrideKeys.site(info.name, info.version, site, user), saved);
      await this.events.emit({
        topic: 'settings.changed',
        user: actor.user,
        description: `${info.name} ${info.version} site settings of ${site} changed`,
        summary: {
          addonName: info.name,
          addonVersion: info.version,
          variant: null,
          projectName: null,
          siteId: site,
        },
        recipients: [actor.user],
      });
    });
  }

  /** settings.changed for one level, in the change's unit of work; a site's own are told to its user only. */
  async changed(
    info: AddonInfo,
    variant: string | null,
    level: Level,
    actor: Actor,
    what: string,
  ): Promise<void> {
    const project = level.kind === 'studio' ? null : level.project;
    const site = level.kind === 'projectSite' ? level.site : null;
    const where = site ? `project ${project} site ${site}` : project ? `project ${project}` : 'studio';
    await this.events.emit({
      topic: 'settings.changed',
      project,
      user: actor.user,
      description: `${info.name} ${info.version} ${site ? '' : `${variant} `}${where} ${what}`,
      summary: {
        addonName: info.name,
        addonVersion: info.version,
        variant: site ? null : variant,
        projectName: project,
        ...(site ? { siteId: site } : {}),
      },
      ...(site ? { recipients: [actor.user] } : {}),
    });
  }

  private requireModel(info: AddonInfo): SettingsModel {
    const model = this.model(info);
    if (!model) throw new BadRequest(`Addon ${info.name} ${info.version} has no settings`);
    return model;
  }

  /** The level's state, read under the addon version's lock (held until the transaction ends). */
  private async stateOf(
    info: AddonInfo,
    variant: string,
    level: Level,
  ): Promise<{ below: Json[]; own: Json }> {
    await this.store.lock(info.name, info.version);
    const layers = await this.store.layers(info.name, info.version, scopeOf(variant, level));
    const reached = dataOf(layersAt(layers, level));
    return { below: reached.slice(0, -1), own: reached[reached.length - 1]! };
  }
}
