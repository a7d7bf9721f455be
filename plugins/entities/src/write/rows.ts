import { sql } from 'kysely';
import { isId } from '@pipewright/sdk';
import { SPECS, entityNotFound, type EntityType, type EntityTypeSpec } from '../entity-types.js';
import type { Batch, Row } from './batch.js';
import { settle } from './buffered-rows.js';
import type { Change } from './input.js';
import { givenFields } from './input.js';
import { CREATE_KIND, scope } from './rules.js';

/** The table of a type in the batch's project. */
export const table = (batch: Batch, spec: EntityTypeSpec) => sql.table(`${batch.schema}.${spec.table}`);

/** An entity's row (locked for the rest of the transaction when asked), or the entity's 404. */
export async function row(batch: Batch, type: EntityType, id: string, lock = false): Promise<Row> {
  const spec = SPECS[type];
  const key = `${type}:${id}`;
  const known = lock ? batch.locked.get(key) : batch.created.get(key);
  if (known) {
    if (lock) batch.locked.delete(key);
    return known;
  }
  await settle(batch);
  const found = (
    await sql<Row>`SELECT * FROM ${table(batch, spec)} WHERE id = ${id} ${lock ? sql`FOR UPDATE` : sql``}`.execute(
      batch.db,
    )
  ).rows[0];
  if (!found) throw entityNotFound(type, id, batch.project.name);
  return found;
}

/** The path and id of the folder an entity lives in (a folder's own). */
export async function folderOf(
  batch: Batch,
  type: EntityType,
  entity: Row,
): Promise<{ path: string; id: string }> {
  switch (type) {
    case 'folder':
      return { path: entity.path, id: entity.id };
    case 'task':
    case 'product':
      return folderOf(batch, 'folder', await row(batch, 'folder', entity.folder_id));
    case 'version':
      return folderOf(batch, 'product', await row(batch, 'product', entity.product_id));
    case 'representation':
      return folderOf(batch, 'version', await row(batch, 'version', entity.version_id));
    case 'workfile':
      return folderOf(batch, 'task', await row(batch, 'task', entity.task_id));
  }
}

/**
 * Read every parent the batch's creates name (and that the batch does not create itself) with one query per type,
 * instead of one query per operation: a batch of a thousand tasks then costs one SELECT of their folders.
 */
export async function prefetchParents(batch: Batch, operations: readonly Change[]): Promise<void> {
  const creating = new Map<string, number>();
  for (const [index, o] of operations.entries()) {
    const id = o.type === 'create' ? (o.entityId ?? (o.data && givenFields(o.data).id)) : undefined;
    if (typeof id === 'string') creating.set(id, index);
  }
  batch.createdBy = creating;
  // Only new folders, and entities the caller may create in some folders only, read their parents (see create).
  const readsParent = new Map<EntityType, boolean>([['folder', true]]);
  for (const operation of operations) {
    const type = operation.entityType;
    if (operation.type === 'create' && !readsParent.has(type))
      readsParent.set(type, (await scope(batch, CREATE_KIND[type])) !== null);
  }
  const wanted = new Map<EntityType, Set<string>>();
  for (const operation of operations) {
    if (operation.type !== 'create' || !operation.data) continue;
    const spec = SPECS[operation.entityType];
    const parent = readsParent.get(spec.type) ? spec.parent : undefined;
    if (!parent && spec.type !== 'version') continue;
    const data = givenFields(operation.data);
    const references: [EntityType, unknown][] = parent ? [[parent.type, data[parent.field]]] : [];
    if (spec.type === 'version') references.push(['task', data.taskId]);
    for (const [type, id] of references) {
      if (typeof id !== 'string' || !isId(id) || creating.has(id)) continue;
      if (!wanted.has(type)) wanted.set(type, new Set());
      wanted.get(type)!.add(id);
    }
  }
  for (const [type, ids] of wanted) {
    // What creates read of a parent: a folder's path and what it passes down, else the link to its own parent.
    const spec = SPECS[type];
    const columns =
      type === 'folder'
        ? ['id', 'name', 'path', 'inherited', 'attrib', 'parent_id']
        : ['id', spec.columns[spec.parent!.field]];
    const rows =
      await sql<Row>`SELECT ${sql.join(columns.map((c) => sql.ref(c)))} FROM ${table(batch, spec)} WHERE id = ANY(${[...ids]}::uuid[])`.execute(
        batch.db,
      );
    for (const found of rows.rows) batch.created.set(`${type}:${found.id}`, found);
  }
}

/**
 * Read and lock, with one query per type, the rows the batch's updates change, rather than one query per operation:
 * changing the status of ten thousand folders then reads them once. In id order, as concurrent batches lock them.
 */
export async function lockUpdated(batch: Batch, operations: readonly Change[]): Promise<void> {
  const wanted = new Map<EntityType, Set<string>>();
  for (const operation of operations) {
    const id = operation.entityId;
    if (operation.type !== 'update' || !id || !isId(id)) continue;
    if (!wanted.has(operation.entityType)) wanted.set(operation.entityType, new Set());
    wanted.get(operation.entityType)!.add(id);
  }
  for (const [type, ids] of wanted) {
    const rows =
      await sql<Row>`SELECT * FROM ${table(batch, SPECS[type])} WHERE id = ANY(${[...ids]}::uuid[]) ORDER BY id FOR UPDATE`.execute(
        batch.db,
      );
    for (const found of rows.rows) batch.locked.set(`${type}:${found.id}`, found);
  }
}
