import { sql } from 'kysely';
import { Conflict, Forbidden, isManagerOrAbove } from '@pipewright/sdk';
import type { EntityType, EntityTypeSpec } from '../entity-types.js';
import { inSubtree } from '../subtree.js';
import type { Batch } from './batch.js';
import { entityEvent } from './events.js';
import { deletedEntity } from './field-changes.js';
import type { Change } from './input.js';
import { folderOf, row, table } from './rows.js';
import { allow } from './rules.js';

const subtree = (alias: string, path: unknown) => inSubtree(sql.ref(`${alias}.path`), path);

/**
 * Delete an entity and what lies below it (the foreign keys cascade). Other addons' delete hooks run first, with
 * everything that goes; a folder holding products goes only when forced, by a manager.
 */
export async function remove(batch: Batch, spec: EntityTypeSpec, operation: Change): Promise<void> {
  const id = operation.entityId!;
  // A rename or move changes the paths of cached descendants too: forget them all.
  batch.created.clear();
  const current = await row(batch, spec.type, id, true);
  // What lies below goes too: rows locked for later updates may be gone.
  batch.locked.clear();
  await allow(batch, 'delete', () => folderOf(batch, spec.type, current));
  // Before anything is removed, so the hooks see everything the delete takes along; a refusal below rolls back.
  if (batch.deleteHooks.length) {
    const removed = await cascade(batch, spec.type, id);
    for (const hook of batch.deleteHooks) await hook(batch.project.name, removed);
  }
  if (spec.type === 'folder') {
    const folders = sql.table(`${batch.schema}.folders`);
    const products = sql.table(`${batch.schema}.products`);
    const held = await sql<{ n: number }>`
      SELECT count(*) AS n FROM ${products} p JOIN ${folders} f ON f.id = p.folder_id WHERE ${subtree('f', current.path)}`.execute(
      batch.db,
    );
    if (held.rows[0].n > 0) {
      if (!operation.force) {
        throw new Conflict(
          `Folder ${current.name} holds ${held.rows[0].n} product(s) below it; delete with force to remove them too`,
          'delete-folder-with-products',
        );
      }
      if (!isManagerOrAbove(batch.caller))
        throw new Forbidden('Only managers may force-delete a folder with products');
      await sql`DELETE FROM ${products} p USING ${folders} f WHERE f.id = p.folder_id AND ${subtree('f', current.path)}`.execute(
        batch.db,
      );
    }
  }
  await sql`DELETE FROM ${table(batch, spec)} WHERE id = ${id}`.execute(batch.db);
  batch.changes.push({ type: spec.type, before: current, after: null });
  batch.fields.push(deletedEntity(spec, current));
  const parentField = spec.parent?.field;
  batch.events.push(
    entityEvent(batch, spec.type, 'deleted', current, {
      entityId: id,
      parentId: parentField ? current[spec.columns[parentField]] : null,
    }),
  );
}

/** The entity and everything its delete takes with it, found before the rows are gone. */
async function cascade(
  batch: Batch,
  type: EntityType,
  id: string,
): Promise<{ type: EntityType; id: string }[]> {
  const t = (name: string) => sql.table(`${batch.schema}.${name}`);
  let folders: string[] = [];
  let tasks: string[] = [];
  let products: string[] = [];
  let versions: string[] = [];
  const ids = async (query: ReturnType<typeof sql>) =>
    ((await query.execute(batch.db)).rows as { id: string }[]).map((found) => found.id);
  if (type === 'folder') {
    const top = await row(batch, 'folder', id);
    folders = await ids(sql`SELECT f.id FROM ${t('folders')} f WHERE ${subtree('f', top.path)}`);
    tasks = await ids(sql`SELECT id FROM ${t('tasks')} WHERE folder_id = ANY(${folders}::uuid[])`);
    products = await ids(sql`SELECT id FROM ${t('products')} WHERE folder_id = ANY(${folders}::uuid[])`);
  }
  if (type === 'task') tasks = [id];
  if (type === 'product') products = [id];
  if (products.length)
    versions = await ids(sql`SELECT id FROM ${t('versions')} WHERE product_id = ANY(${products}::uuid[])`);
  if (type === 'version') versions = [id];
  const representations = versions.length
    ? await ids(sql`SELECT id FROM ${t('representations')} WHERE version_id = ANY(${versions}::uuid[])`)
    : type === 'representation'
      ? [id]
      : [];
  const workfiles = tasks.length
    ? await ids(sql`SELECT id FROM ${t('workfiles')} WHERE task_id = ANY(${tasks}::uuid[])`)
    : type === 'workfile'
      ? [id]
      : [];
  const tag = (kind: EntityType, list: string[]) => list.map((entityId) => ({ type: kind, id: entityId }));
  return [
    ...tag('folder', folders),
    ...tag('task', tasks),
    ...tag('product', products),
    ...tag('version', versions),
    ...tag('representation', representations),
    ...tag('workfile', workfiles),
  ];
}
