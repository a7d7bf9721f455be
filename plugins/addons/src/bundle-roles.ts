import type { Database } from '@pipewright/sdk';

export interface RoleBundle {
  role: 'production' | 'staging';
  name: string;
  /** Addon name to the version the bundle names (null: switched off). */
  addons: Record<string, string | null>;
}

/**
 * The production and staging bundles, read from the core's bundles table: which versions they name decides the
 * stagingVersion listed and which installed versions may not be deleted. A promoted bundle holds both roles.
 */
export async function roleBundles(db: Database): Promise<RoleBundle[]> {
  const rows = await db
    .selectFrom('public.bundles')
    .select(['name', 'is_production', 'is_staging', 'data'])
    .where((eb) => eb.or([eb('is_production', '=', true), eb('is_staging', '=', true)]))
    .execute();
  return rows.flatMap((row) => {
    const addons = (row.data as { addons?: Record<string, string | null> }).addons ?? {};
    const roles: RoleBundle['role'][] = [];
    if (row.is_production) roles.push('production');
    if (row.is_staging) roles.push('staging');
    return roles.map((role) => ({ role, name: row.name, addons }));
  });
}
