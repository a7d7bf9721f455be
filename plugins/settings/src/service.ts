import {
  BadRequest,
  NotFound,
  ValidationFailed,
  check,
  type AddonInfo,
  type Database,
  type EventBus,
  type ProjectDirectory,
  type RequestUser,
  type Sender,
  type TSchema,
} from '@pipewright/sdk';
import {
  applyOverrides,
  extractOverrides,
  listOverrides,
  markedKeys,
  pinPath,
  removePath,
  settingsDefaults,
  type Json,
  type OverrideEntry,
  type SchemaNode,
} from './overrides.js';
import {
  overrideKeys,
  pairKey,
  type LayerScope,
  type Layers,
  type OverrideKey,
  type OverrideStore,
} from './store.js';

/** The level a request reads or writes: the studio, a project, or one user's site inside a project. */
export type Level =
  | { kind: 'studio' }
  | { kind: 'project'; project: string }
  | { kind: 'projectSite'; project: string; site: string; user: string };

export const STUDIO: Level = { kind: 'studio' };

/** Who changed settings, for the settings.changed event. */
export interface Actor {
  user: string;
  sender: Sender;
}

/** The settings of an addon at one level: what it inherits, what it is, and what the level itself stores. */
interface LevelState {
  inherited: Json;
  current: Json;
  own: Json;
}

/** The effective settings of one addon version for a studio, project or project site request. */
export interface EffectiveSettings {
  values: Json;
  layers: Layers;
}

const schemaOf = (info: AddonInfo) => info.settingsSchema as SchemaNode | null;

/** Stack the stored layers over the schema defaults, up to the level asked for. */
function stateAt(schema: SchemaNode, layers: Layers, level: Level): LevelState {
  const defaults = settingsDefaults(schema);
  const studio = applyOverrides(schema, defaults, layers.studio);
  if (level.kind === 'studio') return { inherited: defaults, current: studio, own: layers.studio };
  const project = applyOverrides(schema, studio, layers.project);
  if (level.kind === 'project') return { inherited: studio, current: project, own: layers.project };
  return {
    inherited: project,
    current: applyOverrides(schema, project, layers.projectSite),
    own: layers.projectSite,
  };
}

/** 422 with AYON's problem list when the value does not fit the schema (loc: the path inside the settings). */
function requireValid(schema: SchemaNode, value: Json): void {
  let problems;
  try {
    // The shared validator fills in defaults as it goes: give it a copy.
    problems = check(schema as TSchema, structuredClone(value), []);
  } catch (error) {
    // The addon's schema itself is unusable (an unknown format, a broken $ref): say so rather than fail with a 500.
    throw new BadRequest(`The settings schema cannot be used to check values: ${(error as Error).message}`);
  }
  if (problems.length === 0) return;
  const first = problems[0]!;
  throw new ValidationFailed(
    problems,
    `Invalid settings: ${first.loc.join('.') || 'settings'}: ${first.msg}`,
  );
}

export class SettingsService {
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

  /** The settings schema as JSON Schema, titled after the addon ({} for an addon without settings). */
  schemaDocument(info: AddonInfo, site = false): Json {
    const schema = site ? info.siteSettingsSchema : info.settingsSchema;
    if (!schema) return {};
    return { ...(JSON.parse(JSON.stringify(schema)) as Json), title: info.title };
  }

  /** The effective settings at a level, or null for an addon without settings. */
  async values(info: AddonInfo, variant: string, level: Level): Promise<Json | null> {
    const schema = schemaOf(info);
    if (!schema) return null;
    const layers = await this.store.layers(info.name, info.version, scopeOf(variant, level));
    return stateAt(schema, layers, level).current;
  }

  /** Effective settings of many addon versions at once (GET /api/settings), keyed by name and version. */
  async valuesOf(infos: AddonInfo[], scope: LayerScope): Promise<Map<string, EffectiveSettings>> {
    const withSettings = infos.filter((info) => schemaOf(info));
    const pairs = withSettings.map((info): [string, string] => [info.name, info.version]);
    const all = await this.store.layersOf(pairs, scope);
    const level: Level = !scope.project
      ? STUDIO
      : scope.site && scope.user
        ? { kind: 'projectSite', project: scope.project, site: scope.site, user: scope.user }
        : { kind: 'project', project: scope.project };
    const result = new Map<string, EffectiveSettings>();
    for (const info of withSettings) {
      const key = pairKey(info.name, info.version);
      const layers = all.get(key)!;
      result.set(key, { values: stateAt(schemaOf(info)!, layers, level).current, layers });
    }
    return result;
  }

  /**
   * The override map of a level in AYON's shape. A project level lists the studio overrides too, then its own
   * over them; a project site level adds the site's own.
   */
  async overrideMap(info: AddonInfo, variant: string, level: Level): Promise<Record<string, OverrideEntry>> {
    const schema = schemaOf(info);
    if (!schema) return {};
    const layers = await this.store.layers(info.name, info.version, scopeOf(variant, level));
    const studio = stateAt(schema, layers, STUDIO);
    const map = listOverrides(schema, studio.current, studio.own, 'studio');
    if (level.kind === 'studio') return map;
    const project = stateAt(schema, layers, { kind: 'project', project: level.project });
    Object.assign(map, listOverrides(schema, project.current, project.own, 'project'));
    if (level.kind === 'project') return map;
    const site = stateAt(schema, layers, level);
    return Object.assign(map, listOverrides(schema, site.current, site.own, 'site'));
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
    const schema = this.requireSchema(info);
    await this.db.transaction().execute(async () => {
      const state = await this.stateOf(info, schema, variant, level);
      const next = applyOverrides(schema, state.current, body);
      requireValid(schema, next);
      const marked = markedKeys(state.own, marks.pins, marks.unpins);
      await this.store.write(
        this.keyOf(info, variant, level),
        extractOverrides(schema, state.inherited, next, marked),
      );
    });
    await this.changed(info, variant, level, actor, 'overrides changed');
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
    const schema = this.requireSchema(info);
    const changed = await this.db.transaction().execute(async () => {
      const state = await this.stateOf(info, schema, variant, level);
      let overrides: Json;
      if (action === 'pin') {
        const pinned = pinPath(schema, state.current, state.own, path);
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
        if (!removePath(overrides, path)) return false;
      }
      await this.store.write(this.keyOf(info, variant, level), overrides);
      return true;
    });
    if (changed)
      await this.changed(
        info,
        variant,
        level,
        actor,
        action === 'pin' ? 'override pinned' : 'override removed',
      );
  }

  /** Remove every override of the level. */
  async clear(info: AddonInfo, variant: string, level: Level, actor: Actor): Promise<void> {
    await this.store.remove(this.keyOf(info, variant, level));
    await this.changed(info, variant, level, actor, 'overrides removed');
  }

  /** The stored overrides of the level, as they are. */
  rawOverrides(info: AddonInfo, variant: string, level: Level): Promise<Json> {
    return this.store.read(this.keyOf(info, variant, level));
  }

  /** Replace the stored overrides of the level as they are, without validation (admins repairing data). */
  async setRawOverrides(
    info: AddonInfo,
    variant: string,
    level: Level,
    data: Json,
    actor: Actor,
  ): Promise<void> {
    await this.store.write(this.keyOf(info, variant, level), data);
    await this.changed(info, variant, level, actor, 'overrides changed using the low-level API');
  }

  /** Site settings of one site and user: the site schema's defaults with what they saved ({} without a schema). */
  async siteSettings(info: AddonInfo, site: string | null, user: string): Promise<Json> {
    const schema = info.siteSettingsSchema as SchemaNode | null;
    if (!schema) return {};
    const stored = site ? await this.store.read(overrideKeys.site(info.name, info.version, site, user)) : {};
    return applyOverrides(schema, settingsDefaults(schema), stored);
  }

  /** Site settings of many addons for one site and user, keyed by name and version. */
  async siteSettingsOf(infos: AddonInfo[], site: string | null, user: string): Promise<Map<string, Json>> {
    const withSchema = infos.filter((info) => info.siteSettingsSchema);
    const pairs = withSchema.map((info): [string, string] => [info.name, info.version]);
    const stored = site ? await this.store.siteSettingsOf(pairs, site, user) : new Map<string, Json>();
    return new Map(
      withSchema.map((info) => {
        const key = pairKey(info.name, info.version);
        const schema = info.siteSettingsSchema as SchemaNode;
        return [key, applyOverrides(schema, settingsDefaults(schema), stored.get(key) ?? {})];
      }),
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
    const schema = info.siteSettingsSchema as SchemaNode | null;
    if (!schema) throw new BadRequest(`Addon ${info.name} ${info.version} has no site settings`);
    const defaults = settingsDefaults(schema);
    const next = applyOverrides(schema, defaults, body);
    requireValid(schema, next);
    await this.store.write(
      overrideKeys.site(info.name, info.version, site, user),
      extractOverrides(schema, defaults, next, {}),
    );
    await this.events.emit({
      topic: 'settings.changed',
      user: actor.user,
      sender: actor.sender.sender,
      senderType: actor.sender.senderType,
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
  }

  /** settings.changed for one level; a site's own overrides are announced to its user only. */
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
      sender: actor.sender.sender,
      senderType: actor.sender.senderType,
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

  private requireSchema(info: AddonInfo): SchemaNode {
    const schema = schemaOf(info);
    if (!schema) throw new BadRequest(`Addon ${info.name} ${info.version} has no settings`);
    return schema;
  }

  /** The level's state, read under the addon version's lock (held until the transaction ends). */
  private async stateOf(
    info: AddonInfo,
    schema: SchemaNode,
    variant: string,
    level: Level,
  ): Promise<LevelState> {
    await this.store.lock(info.name, info.version);
    const layers = await this.store.layers(info.name, info.version, scopeOf(variant, level));
    return stateAt(schema, layers, level);
  }

  private keyOf(info: AddonInfo, variant: string, level: Level): OverrideKey {
    if (level.kind === 'studio') return overrideKeys.studio(info.name, info.version, variant);
    if (level.kind === 'project')
      return overrideKeys.project(info.name, info.version, variant, level.project);
    return overrideKeys.projectSite(info.name, info.version, level.project, level.site, level.user);
  }
}

function scopeOf(variant: string, level: Level): LayerScope {
  if (level.kind === 'studio') return { variant };
  if (level.kind === 'project') return { variant, project: level.project };
  return { variant, project: level.project, site: level.site, user: level.user };
}
