import type { Database } from '@pipewright/sdk';
import type { DiscoveredAddon } from './discover.js';

/** What the production bundle says about addons: name -> version, or null when switched off. */
export async function productionBundleAddons(db: Database): Promise<Record<string, string | null> | null> {
  const bundle = await db.selectFrom('public.bundles').select('data').where('is_production', '=', true).executeTakeFirst();
  if (!bundle) return null;
  return ((bundle.data as { addons?: Record<string, string | null> }).addons ?? {}) as Record<string, string | null>;
}

/**
 * Which addons run. An addon the production bundle names runs in the version it names; one set to null is off.
 * An addon the bundle does not mention (or every addon, without a production bundle) runs when it is on by
 * default: the internal areas and addons the caller passed explicitly.
 * An addon whose dependency is off cannot run either; it is reported, not silently dropped.
 */
export function selectActive(
  available: DiscoveredAddon[],
  bundle: Record<string, string | null> | null,
  onByDefault: (addon: DiscoveredAddon) => boolean,
): { active: DiscoveredAddon[]; skipped: { addon: DiscoveredAddon; reason: string }[] } {
  const enabled = (addon: DiscoveredAddon) => {
    const wanted = bundle?.[addon.definition.name];
    if (wanted === undefined) return onByDefault(addon);
    return wanted !== null && wanted === addon.definition.version;
  };
  const skipped: { addon: DiscoveredAddon; reason: string }[] = [];
  for (const addon of available.filter((a) => a.loadError && enabled(a))) {
    skipped.push({ addon, reason: `could not be loaded: ${addon.loadError}` });
  }
  let active = available.filter((addon) => enabled(addon) && !addon.loadError);
  // Drop addons whose dependencies are off until nothing changes (dependencies of dependencies).
  for (;;) {
    const names = new Set(active.map((addon) => addon.definition.name));
    const blocked = active.filter((addon) => (addon.definition.dependsOn ?? []).some((d) => !names.has(d)));
    if (blocked.length === 0) break;
    for (const addon of blocked) {
      const missing = (addon.definition.dependsOn ?? []).filter((d) => !names.has(d));
      skipped.push({ addon, reason: `needs ${missing.join(', ')}, which is not enabled` });
    }
    active = active.filter((addon) => !blocked.includes(addon));
  }
  return { active, skipped };
}
