import type { AddonDefinition } from '@pipewright/sdk';

/** Something with a name and the names it depends on. */
export interface Dependent {
  name: string;
  dependsOn?: string[];
}

/**
 * Order addons so each comes after what it depends on. A missing dependency or a cycle is an error that names
 * the addons involved, because a server that starts half-wired is worse than one that refuses to start.
 */
export function orderByDependencies<T extends Dependent>(addons: T[]): T[] {
  const byName = new Map(addons.map((addon) => [addon.name, addon]));
  for (const addon of addons) {
    for (const dependency of addon.dependsOn ?? []) {
      if (!byName.has(dependency)) {
        throw new Error(
          `Addon "${addon.name}" depends on "${dependency}", which is not available or not enabled`,
        );
      }
    }
  }
  const ordered: T[] = [];
  const state = new Map<string, 'visiting' | 'done'>();
  const visit = (addon: T, path: string[]) => {
    const seen = state.get(addon.name);
    if (seen === 'done') return;
    if (seen === 'visiting') {
      const cycle = [...path.slice(path.indexOf(addon.name)), addon.name];
      throw new Error(`Addon dependency cycle: ${cycle.join(' -> ')}`);
    }
    state.set(addon.name, 'visiting');
    for (const dependency of [...(addon.dependsOn ?? [])].sort())
      visit(byName.get(dependency)!, [...path, addon.name]);
    state.set(addon.name, 'done');
    ordered.push(addon);
  };
  for (const addon of [...addons].sort((a, b) => a.name.localeCompare(b.name))) visit(addon, []);
  return ordered;
}

/** The named addons and everything they need, transitively. */
export function withDependencies<T extends Dependent>(addons: T[], names: string[]): T[] {
  const byName = new Map(addons.map((addon) => [addon.name, addon]));
  const wanted = new Set<string>();
  const add = (name: string) => {
    if (wanted.has(name)) return;
    const addon = byName.get(name);
    if (!addon) throw new Error(`Unknown addon "${name}"`);
    wanted.add(name);
    for (const dependency of addon.dependsOn ?? []) add(dependency);
  };
  names.forEach(add);
  return addons.filter((addon) => wanted.has(addon.name));
}

/** The addons an addon depends on: those that provide the services its deps name. */
export function dependenciesOf(definition: Pick<AddonDefinition, 'deps'>): string[] {
  return [...new Set(Object.values(definition.deps ?? {}).map((ref) => ref.addon))].sort();
}
