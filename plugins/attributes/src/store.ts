import { sql } from 'kysely';
import type { Database } from '@pipewright/sdk';
import type { AttributeData, AttributeDefinition, AttributeScope } from './api.js';
import { DATA_FIELDS } from './schemas.js';

// The attributes table: one row a definition, its data stored with the known fields only. Queries go through the
// handle given: inside a unit of work, its transaction.

/** A definition as a client sends it; builtin is decided by the server. */
export interface AttributeInput {
  name: string;
  position: number;
  scope: AttributeScope[];
  data: Record<string, unknown>;
}

// AYON answers every data field, null where unset: clients read data.default and friends without checking.
const UNSET_DATA = Object.fromEntries(DATA_FIELDS.map((key) => [key, null]));

function toDefinition(row: Record<string, any>): AttributeDefinition {
  const data = { ...UNSET_DATA, ...row.data };
  return { name: row.name, position: row.position, scope: row.scope, builtin: row.builtin, data };
}

/** Keep the known data fields, drop unset ones, and make inherit explicit (true unless said otherwise). */
export function normaliseData(data: Record<string, unknown>): AttributeData {
  const kept = Object.fromEntries(
    DATA_FIELDS.filter((key) => data[key] !== undefined && data[key] !== null).map((key) => [key, data[key]]),
  );
  return { ...kept, inherit: data.inherit !== false } as AttributeData;
}

const scopeArray = (scope: AttributeScope[]) => sql<string[]>`ARRAY[${sql.join(scope)}]::text[]`;

/** Every definition, in position order. */
export async function readDefinitions(db: Database): Promise<AttributeDefinition[]> {
  const rows = await db.selectFrom('attributes').selectAll().orderBy('position').orderBy('name').execute();
  return rows.map(toDefinition);
}

/** One definition by name, or null. */
export async function readDefinition(db: Database, name: string): Promise<AttributeDefinition | null> {
  const row = await db.selectFrom('attributes').selectAll().where('name', '=', name).executeTakeFirst();
  return row ? toDefinition(row) : null;
}

/** Whether a definition is built in, and its stored data, locked until the unit of work ends; undefined when none. */
export function lockDefinition(
  db: Database,
  name: string,
): Promise<{ name: string; builtin: boolean; data: AttributeData } | undefined> {
  return db
    .selectFrom('attributes')
    .select(['name', 'builtin', 'data'])
    .where('name', '=', name)
    .forUpdate()
    .executeTakeFirst();
}

/** Create or replace a studio definition (a built-in one keeps its builtin flag). */
export async function upsertDefinition(
  db: Database,
  input: AttributeInput,
  data: AttributeData,
): Promise<void> {
  const values = { position: input.position, scope: scopeArray(input.scope), data: JSON.stringify(data) };
  await db
    .insertInto('attributes')
    .values({ name: input.name, builtin: false, ...values })
    .onConflict((oc) => oc.column('name').doUpdateSet(values))
    .execute();
}

/** Delete the studio-made definitions not named in keep; answers the names deleted. */
export async function deleteStudioDefinitionsExcept(db: Database, keep: string[]): Promise<string[]> {
  let query = db.deleteFrom('attributes').where('builtin', '=', false);
  if (keep.length) query = query.where('name', 'not in', keep);
  return (await query.returning('name').execute()).map((row) => row.name);
}

/** Delete one definition. */
export async function deleteDefinition(db: Database, name: string): Promise<void> {
  await db.deleteFrom('attributes').where('name', '=', name).execute();
}
