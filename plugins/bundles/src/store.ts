import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { BundleRecord } from './api.js';

// Bundles live in the core's public.bundles table (the core reads the production bundle from it to decide which
// addons answer). Flags are columns, so the database keeps one production and one staging bundle; the rest is
// data: {addons, installerVersion, dependencyPackages, addonDevelopment, isProject}.

const TABLE = 'public.bundles';

interface Row {
  name: string;
  is_production: boolean;
  is_staging: boolean;
  is_dev: boolean;
  is_archived: boolean;
  active_user: string | null;
  data: Partial<
    Pick<
      BundleRecord,
      'addons' | 'installerVersion' | 'dependencyPackages' | 'addonDevelopment' | 'isProject'
    >
  >;
  created_at: Date | string;
}

function toRecord(row: Row): BundleRecord {
  const data = row.data ?? {};
  return {
    name: row.name,
    createdAt: new Date(row.created_at),
    addons: data.addons ?? {},
    installerVersion: data.installerVersion ?? null,
    dependencyPackages: data.dependencyPackages ?? {},
    addonDevelopment: data.addonDevelopment ?? {},
    isProduction: row.is_production,
    isStaging: row.is_staging,
    isArchived: row.is_archived,
    isDev: row.is_dev,
    isProject: data.isProject ?? false,
    activeUser: row.active_user,
  };
}

function toColumns(bundle: BundleRecord) {
  return {
    is_production: bundle.isProduction,
    is_staging: bundle.isStaging,
    is_dev: bundle.isDev,
    is_archived: bundle.isArchived,
    active_user: bundle.activeUser,
    data: JSON.stringify({
      addons: bundle.addons,
      installerVersion: bundle.installerVersion,
      dependencyPackages: bundle.dependencyPackages,
      addonDevelopment: bundle.addonDevelopment,
      isProject: bundle.isProject,
    }),
  };
}

/** True for a PostgreSQL unique violation (two writers racing for the same name or role). */
export function isUniqueViolation(error: unknown): boolean {
  return (error as { code?: string }).code === '23505';
}

/** Reads and writes of the bundles table; inside a unit of work they join its transaction. */
export class BundleStore {
  constructor(private readonly db: Database) {}

  async list(options: { archived: boolean }): Promise<BundleRecord[]> {
    let query = this.db.selectFrom(TABLE).selectAll();
    if (!options.archived) query = query.where('is_archived', '=', false);
    const rows = await query.orderBy('created_at', 'desc').orderBy('name').execute();
    return rows.map((row) => toRecord(row as Row));
  }

  async get(name: string, options: { lock?: boolean } = {}): Promise<BundleRecord | null> {
    let query = this.db.selectFrom(TABLE).selectAll().where('name', '=', name);
    if (options.lock) query = query.forUpdate();
    const row = await query.executeTakeFirst();
    return row ? toRecord(row as Row) : null;
  }

  async withRole(role: 'production' | 'staging'): Promise<BundleRecord | null> {
    const row = await this.db
      .selectFrom(TABLE)
      .selectAll()
      .where(role === 'production' ? 'is_production' : 'is_staging', '=', true)
      .executeTakeFirst();
    return row ? toRecord(row as Row) : null;
  }

  /** The dev bundle a user works with, other than the one named (if any). */
  async devBundleOf(user: string, except: string | null): Promise<string | null> {
    let query = this.db.selectFrom(TABLE).select('name').where('active_user', '=', user);
    if (except) query = query.where('name', '!=', except);
    const row = await query.executeTakeFirst();
    return (row?.name as string | undefined) ?? null;
  }

  /** Take a role away from whichever bundle has it, so another can take it in the same transaction. */
  async clearRole(role: 'production' | 'staging', except: string): Promise<void> {
    const column = role === 'production' ? 'is_production' : 'is_staging';
    await this.db
      .updateTable(TABLE)
      .set({ [column]: false, updated_at: sql`now()` })
      .where(column, '=', true)
      .where('name', '!=', except)
      .execute();
  }

  async insert(bundle: BundleRecord): Promise<void> {
    await this.db
      .insertInto(TABLE)
      .values({ name: bundle.name, created_at: bundle.createdAt, ...toColumns(bundle) })
      .execute();
  }

  async update(bundle: BundleRecord): Promise<void> {
    await this.db
      .updateTable(TABLE)
      .set({ ...toColumns(bundle), updated_at: sql`now()` })
      .where('name', '=', bundle.name)
      .execute();
  }

  async remove(name: string): Promise<void> {
    await this.db.deleteFrom(TABLE).where('name', '=', name).execute();
  }
}
