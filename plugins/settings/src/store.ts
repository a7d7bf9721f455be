import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import { isObject, type Json } from './overrides.js';

/** Which stored row: an addon version and one level (see the migration for how the columns tell levels apart). */
export interface OverrideKey {
  addon: string;
  version: string;
  variant: string;
  project: string;
  site: string;
  user: string;
}

export const overrideKeys = {
  studio: (addon: string, version: string, variant: string): OverrideKey => ({
    addon,
    version,
    variant,
    project: '',
    site: '',
    user: '',
  }),
  project: (addon: string, version: string, variant: string, project: string): OverrideKey => ({
    addon,
    version,
    variant,
    project,
    site: '',
    user: '',
  }),
  projectSite: (
    addon: string,
    version: string,
    project: string,
    site: string,
    user: string,
  ): OverrideKey => ({
    addon,
    version,
    variant: '',
    project,
    site,
    user,
  }),
  site: (addon: string, version: string, site: string, user: string): OverrideKey => ({
    addon,
    version,
    variant: '',
    project: '',
    site,
    user,
  }),
};

/** The stored overrides of the levels that make up one settings value (absent levels are {}). */
export interface Layers {
  studio: Json;
  project: Json;
  projectSite: Json;
}

/** Which levels to read: the studio always, the project and the site of a user when given. */
export interface LayerScope {
  variant: string;
  project?: string | null;
  site?: string | null;
  user?: string | null;
}

interface Row {
  addon_name: string;
  addon_version: string;
  variant: string;
  project_name: string;
  site_id: string;
  user_name: string;
  data: unknown;
}

const TABLE = 'settings_overrides';
const asJson = (data: unknown): Json =>
  isObject(data) ? data : typeof data === 'string' ? JSON.parse(data) : {};
const pairKey = (addon: string, version: string) => `${addon}\u0000${version}`;

export class OverrideStore {
  constructor(private readonly db: Database) {}

  /**
   * Serialise changes of one addon version's overrides until the transaction ends: a save reads the levels, then
   * writes a difference computed from them, and two saves interleaving would lose one of the changes.
   */
  async lock(addon: string, version: string): Promise<void> {
    await sql`SELECT pg_advisory_xact_lock(hashtext(${`settings:${addon}@${version}`}))`.execute(this.db);
  }

  /** The stored overrides of one level, {} when nothing is stored. */
  async read(key: OverrideKey): Promise<Json> {
    const row = await this.where(this.db.selectFrom(TABLE).select('data'), key).executeTakeFirst();
    return row ? asJson(row.data) : {};
  }

  /** Replace the overrides of one level; an empty object removes the row (nothing is overridden). */
  async write(key: OverrideKey, data: Json): Promise<void> {
    if (Object.keys(data).length === 0) {
      await this.remove(key);
      return;
    }
    await this.db
      .insertInto(TABLE)
      .values({
        addon_name: key.addon,
        addon_version: key.version,
        variant: key.variant,
        project_name: key.project,
        site_id: key.site,
        user_name: key.user,
        data: JSON.stringify(data),
      })
      .onConflict((oc) =>
        oc
          .columns(['addon_name', 'addon_version', 'variant', 'project_name', 'site_id', 'user_name'])
          .doUpdateSet({ data: JSON.stringify(data), updated_at: sql`now()` }),
      )
      .execute();
  }

  /** Remove the overrides of one level; answers whether anything was stored. */
  async remove(key: OverrideKey): Promise<boolean> {
    const result = await this.where(this.db.deleteFrom(TABLE), key).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The studio, project and project site overrides of one addon version. */
  async layers(addon: string, version: string, scope: LayerScope): Promise<Layers> {
    return (await this.layersOf([[addon, version]], scope)).get(pairKey(addon, version))!;
  }

  /** The layers of many addon versions in one query (GET /api/settings reads every addon of a bundle). */
  async layersOf(pairs: [string, string][], scope: LayerScope): Promise<Map<string, Layers>> {
    const found = new Map<string, Layers>(
      pairs.map(([a, v]) => [pairKey(a, v), { studio: {}, project: {}, projectSite: {} }]),
    );
    if (pairs.length === 0) return found;
    const rows = (await this.db
      .selectFrom(TABLE)
      .selectAll()
      .where(({ eb, or, and }) => {
        const levels = [
          and([eb('variant', '=', scope.variant), eb('project_name', '=', ''), eb('site_id', '=', '')]),
        ];
        if (scope.project) {
          levels.push(
            and([
              eb('variant', '=', scope.variant),
              eb('project_name', '=', scope.project),
              eb('site_id', '=', ''),
            ]),
          );
          if (scope.site && scope.user) {
            levels.push(
              and([
                eb('variant', '=', ''),
                eb('project_name', '=', scope.project),
                eb('site_id', '=', scope.site),
                eb('user_name', '=', scope.user),
              ]),
            );
          }
        }
        return and([
          or(pairs.map(([a, v]) => and([eb('addon_name', '=', a), eb('addon_version', '=', v)]))),
          or(levels),
        ]);
      })
      .execute()) as Row[];
    for (const row of rows) {
      const layers = found.get(pairKey(row.addon_name, row.addon_version));
      if (!layers) continue;
      const data = asJson(row.data);
      if (row.site_id) layers.projectSite = data;
      else if (row.project_name) layers.project = data;
      else layers.studio = data;
    }
    return found;
  }

  /** Stored site settings of one site and user for many addon versions. */
  async siteSettingsOf(pairs: [string, string][], site: string, user: string): Promise<Map<string, Json>> {
    const found = new Map<string, Json>();
    if (pairs.length === 0) return found;
    const rows = (await this.db
      .selectFrom(TABLE)
      .selectAll()
      .where(({ eb, or, and }) =>
        and([
          or(pairs.map(([a, v]) => and([eb('addon_name', '=', a), eb('addon_version', '=', v)]))),
          eb('variant', '=', ''),
          eb('project_name', '=', ''),
          eb('site_id', '=', site),
          eb('user_name', '=', user),
        ]),
      )
      .execute()) as Row[];
    for (const row of rows) found.set(pairKey(row.addon_name, row.addon_version), asJson(row.data));
    return found;
  }

  /** Studio and project rows of one addon version and variant (project '' is the studio row). */
  async variantRows(
    addon: string,
    version: string,
    variant: string,
    withProjects: boolean,
  ): Promise<Map<string, Json>> {
    let query = this.db
      .selectFrom(TABLE)
      .select(['project_name', 'data'])
      .where('addon_name', '=', addon)
      .where('addon_version', '=', version)
      .where('variant', '=', variant)
      .where('site_id', '=', '');
    if (!withProjects) query = query.where('project_name', '=', '');
    const rows: Pick<Row, 'project_name' | 'data'>[] = await query.execute();
    return new Map(rows.map((row) => [row.project_name, asJson(row.data)]));
  }

  /** Project site rows of one addon version. */
  async projectSiteRows(
    addon: string,
    version: string,
  ): Promise<{ project: string; site: string; user: string; data: Json }[]> {
    const rows = (await this.db
      .selectFrom(TABLE)
      .selectAll()
      .where('addon_name', '=', addon)
      .where('addon_version', '=', version)
      .where('variant', '=', '')
      .where('project_name', '<>', '')
      .where('site_id', '<>', '')
      .execute()) as Row[];
    return rows.map((row) => ({
      project: row.project_name,
      site: row.site_id,
      user: row.user_name,
      data: asJson(row.data),
    }));
  }

  /** A project was deleted: its overrides go with it. */
  async forgetProject(project: string): Promise<void> {
    await this.db.deleteFrom(TABLE).where('project_name', '=', project).execute();
  }

  /** A user was renamed: their site settings follow them. */
  async renameUser(oldName: string, newName: string): Promise<void> {
    await this.db.updateTable(TABLE).set({ user_name: newName }).where('user_name', '=', oldName).execute();
  }

  /** A user was deleted: their site settings go with them. */
  async forgetUser(name: string): Promise<void> {
    await this.db.deleteFrom(TABLE).where('user_name', '=', name).execute();
  }

  private where<Q extends { where: (...args: any[]) => Q }>(query: Q, key: OverrideKey): Q {
    return query
      .where('addon_name', '=', key.addon)
      .where('addon_version', '=', key.version)
      .where('variant', '=', key.variant)
      .where('project_name', '=', key.project)
      .where('site_id', '=', key.site)
      .where('user_name', '=', key.user);
  }
}

export { pairKey };
