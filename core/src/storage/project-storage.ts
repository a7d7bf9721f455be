import { sql } from 'kysely';
import type { Database, Migration, ProjectStorage } from '@pipewright/sdk';
import { applyMigrations, listProjectSchemas } from './migrations.js';

/** Project migrations of the active addons, in setup order. */
export type ProjectMigrationSet = { addon: string; migrations: Migration[] }[];

/** The schema that holds a project's data; PostgreSQL folds names to lower case, so we do too. */
export function projectSchemaName(projectName: string): string {
  return `project_${projectName.toLowerCase()}`;
}

/** Project schemas created and dropped in the caller's unit of work (or a transaction of their own). */
export function createProjectStorage(db: Database, migrationSets: () => ProjectMigrationSet): ProjectStorage {
  return {
    schemaName: projectSchemaName,
    async create(projectName: string) {
      const schema = projectSchemaName(projectName);
      await db.transaction().execute(async (trx) => {
        await sql`CREATE SCHEMA ${sql.id(schema)}`.execute(trx);
        for (const set of migrationSets())
          await applyMigrations(trx, { addon: set.addon, schema, migrations: set.migrations });
      });
    },
    async drop(projectName: string) {
      const schema = projectSchemaName(projectName);
      await db.transaction().execute(async (trx) => {
        await sql`DROP SCHEMA IF EXISTS ${sql.id(schema)} CASCADE`.execute(trx);
        await trx.deleteFrom('public.addon_migrations').where('schema_name', '=', schema).execute();
      });
    },
  };
}

/** Bring every existing project schema up to date with the active addons' project migrations. */
export async function migrateProjectSchemas(db: Database, migrationSets: ProjectMigrationSet): Promise<void> {
  const withProjectMigrations = migrationSets.filter((set) => set.migrations.length > 0);
  if (withProjectMigrations.length === 0) return;
  for (const schema of await listProjectSchemas(db)) {
    await db.transaction().execute(async (trx) => {
      for (const set of withProjectMigrations)
        await applyMigrations(trx, { addon: set.addon, schema, migrations: set.migrations });
    });
  }
}
