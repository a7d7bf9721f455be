import type { AddonInfo, SettingsLevel } from '@pipewright/sdk';
import type { Json } from './overrides.js';
import { overrideKeys, type LayerScope, type Layers, type OverrideKey } from './store.js';

/** The level a request reads or writes: the studio, a project, or one user's site inside a project. */
export type Level =
  | { kind: 'studio' }
  | { kind: 'project'; project: string }
  | { kind: 'projectSite'; project: string; site: string; user: string };

export const STUDIO: Level = { kind: 'studio' };

/** The stored layers that reach a level, studio first, each with the level it belongs to. */
export function layersAt(layers: Layers, level: Level): { level: SettingsLevel; data: Json }[] {
  const reached: { level: SettingsLevel; data: Json }[] = [{ level: 'studio', data: layers.studio }];
  if (level.kind !== 'studio') reached.push({ level: 'project', data: layers.project });
  if (level.kind === 'projectSite') reached.push({ level: 'site', data: layers.projectSite });
  return reached;
}

export const dataOf = (reached: { data: Json }[]) => reached.map((layer) => layer.data);
export const last = (stages: Json[]) => stages[stages.length - 1]!;

/** Where the overrides of an addon version at a level are stored. */
export function overrideKeyOf(info: AddonInfo, variant: string, level: Level): OverrideKey {
  if (level.kind === 'studio') return overrideKeys.studio(info.name, info.version, variant);
  if (level.kind === 'project') return overrideKeys.project(info.name, info.version, variant, level.project);
  return overrideKeys.projectSite(info.name, info.version, level.project, level.site, level.user);
}

/** The layers a level reads: its variant, and its project, site and user where it has them. */
export function scopeOf(variant: string, level: Level): LayerScope {
  if (level.kind === 'studio') return { variant };
  if (level.kind === 'project') return { variant, project: level.project };
  return { variant, project: level.project, site: level.site, user: level.user };
}
