import { dependenciesOf } from './order.js';
import type { Database } from '@pipewright/sdk';
import type { DiscoveredAddon } from './discover.js';

/** What the production bundle says about addons: name -> version, or null when switched off. */
export async function productionBundleAddons(db: Database): Promise<Record<string, string | null> | null> {
  const bundle = await db
    .selectFrom('public.bundles')
    .select('data')
    .where('is_production', '=', true)
    .executeTakeFirst();
  if (!bundle) return null;
  return ((bundle.data as { addons?: Record<string, string | null> }).addons ?? {}) as Record<
    string,
    string | null
  >;
}

/**
 * The addons that can be set up: imported without error and with every dependency among them. The others are
 * reported with the reason, not silently dropped (dependencies of dependencies included).
 */
export function settleDependencies(available: DiscoveredAddon[]): {
  ready: DiscoveredAddon[];
  refused: { addon: DiscoveredAddon; reason: string }[];
} {
  const refused = available
    .filter((addon) => addon.loadError)
    .map((addon) => ({ addon, reason: `could not be loaded: ${addon.loadError}` }));
  let ready = available.filter((addon) => !addon.loadError);
  for (;;) {
    const names = new Set(ready.map((addon) => addon.definition.name));
    const blocked = ready.filter((addon) => dependenciesOf(addon.definition).some((d) => !names.has(d)));
    if (blocked.length === 0) break;
    for (const addon of blocked) {
      const missing = dependenciesOf(addon.definition).filter((d) => !names.has(d));
      refused.push({ addon, reason: `needs ${missing.join(', ')}, which is not available` });
    }
    ready = ready.filter((addon) => !blocked.includes(addon));
  }
  return { ready, refused };
}
