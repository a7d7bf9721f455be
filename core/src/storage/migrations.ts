import { sql } from 'kysely';
import type { Database, DatabaseTransaction, Migration } from '@pipewright/sdk';

// All migration runs of all processes take this one lock, so two servers starting together on one
// PostgreSQL never run the same migration twice.
const MIGRATION_LOCK = 7_140_001;

/** The history table: which migration of which addon ran in which schema. */
export async function ensureMigrationHistory(db: Database): Promise<void> {
  await sql`
    CREATE TABLE IF NOT EXISTS public.addon_migrations (
      addon text NOT NULL,
      schema_name text NOT NULL,
      name text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (addon, schema_name, name)
    )`.execute(db);
}

/**
 * Run, inside the given transaction, the migrations of one addon that have not run yet in one schema.
 * search_path points at the schema while they run, so project migrations use plain table names.
 */
export async function applyMigrations(
  trx: DatabaseTransaction,
  target: { addon: string; schema: string; migrations: Migration[] },
): Promise<string[]> {
  await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
  const done = await trx
    .selectFrom('public.addon_migrations')
    .select('name')
    .where('addon', '=', target.addon)
    .where('schema_name', '=', target.schema)
    .execute();
  const applied = new Set(done.map((row) => row.name as string));
  const pending = target.migrations.filter((m) => !applied.has(m.name));
  if (pending.length === 0) return [];
  // A migration rewriting a large table may take longer than STATEMENT_TIMEOUT allows a request's statement.
  await sql`SET LOCAL statement_timeout = 0`.execute(trx);
  await sql`SET LOCAL search_path TO ${sql.id(target.schema)}, public`.execute(trx);
  for (const migration of pending) {
    try {
      await migration.up(trx);
    } catch (error) {
      throw new Error(
        `Migration ${migration.name} of addon ${target.addon} failed in schema ${target.schema}: ${(error as Error).message}`,
        { cause: error },
      );
    }
    await trx
      .insertInto('public.addon_migrations')
      .values({ addon: target.addon, schema_name: target.schema, name: migration.name })
      .execute();
  }
  await sql`SET LOCAL search_path TO public`.execute(trx);
  return pending.map((m) => m.name);
}

/** Run pending migrations in their own transaction. */
export function migrate(db: Database, target: { addon: string; schema: string; migrations: Migration[] }) {
  return db.transaction().execute((trx) => applyMigrations(trx, target));
}

/** Names of the schemas that hold a project's data. */
export async function listProjectSchemas(db: Database): Promise<string[]> {
  const rows = await db
    .selectFrom('information_schema.schemata')
    .select('schema_name')
    .where('schema_name', 'like', 'project\\_%')
    .orderBy('schema_name')
    .execute();
  return rows.map((row) => row.schema_name as string);
}
