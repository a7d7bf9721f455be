import { sql } from 'kysely';
import { BadRequest, Conflict, Forbidden, isManagerOrAbove, mergePatch } from '@pipewright/sdk';
import type { EntityTypeSpec } from '../entity-types.js';
import { refreshInherited } from '../inheritance.js';
import { inSubtree } from '../subtree.js';
import type { Batch, Json } from './batch.js';
import { columns, JSON_COLUMNS, normalise, storedValue } from './columns.js';
import { changeEvents } from './events.js';
import { updatedFields } from './field-changes.js';
import { fieldsToWrite, type Change } from './input.js';
import { folderOf, row, table } from './rows.js';
import { allow, allowFields, kind, status, WRITE_KIND } from './rules.js';

const subtree = (alias: string, path: unknown) => inSubtree(sql.ref(`${alias}.path`), path);

/**
 * Change an entity: its row locked, the caller allowed, the fields checked; attrib and data merge (null removes a
 * key). A folder renamed or moved carries its subtree's paths along. One event per kind of change.
 */
export async function update(batch: Batch, spec: EntityTypeSpec, operation: Change): Promise<void> {
  const id = operation.entityId!;
  // A rename or move changes the paths of cached descendants too: forget them all.
  batch.created.clear();
  const current = await row(batch, spec.type, id, true);
  await allow(batch, WRITE_KIND[spec.type], () => folderOf(batch, spec.type, current));
  const data = await fieldsToWrite(batch, spec, operation.data, 'update');
  await allowFields(batch, data);
  if (data.status !== undefined) data.status = status(batch, spec.type, data.status);
  if (spec.typeField && data[spec.typeField.field] !== undefined)
    data[spec.typeField.field] = kind(batch, spec, data[spec.typeField.field]);
  if (data.attrib !== undefined) data.attrib = mergePatch(current.attrib, data.attrib as Json);
  if (data.data !== undefined) data.data = mergePatch(current.data, data.data as Json);
  if (
    spec.type === 'version' &&
    data.author !== undefined &&
    data.author !== current.author &&
    !batch.caller.isAdmin &&
    !batch.caller.isService
  ) {
    throw new Forbidden('Only administrators may change the author of a version');
  }
  const changed = Object.keys(data).filter((field) => {
    const column = field in spec.columns ? spec.columns[field] : field;
    return JSON.stringify(storedValue(field, current[column])) !== JSON.stringify(normalise(data[field]));
  });
  if (changed.length === 0) return;

  let newPath: string | null = null;
  if (spec.type === 'folder' && changed.some((f) => ['name', 'folderType', 'parentId'].includes(f))) {
    if (!operation.force && (await folderHasVersions(batch, current.path))) {
      throw new Conflict(
        `Folder ${current.name} holds published versions: it cannot be renamed, retyped or moved (unless forced)`,
        'folder-locked',
      );
    }
    if (operation.force && !isManagerOrAbove(batch.caller))
      throw new Forbidden('Only managers may force changes to a folder with versions');
    if (changed.includes('name') || changed.includes('parentId')) {
      const parentId = data.parentId !== undefined ? (data.parentId as string | null) : current.parent_id;
      const parent = parentId ? await row(batch, 'folder', parentId) : null;
      if (parent && (parent.id === id || parent.path.startsWith(`${current.path}/`))) {
        throw new BadRequest(
          `Folder ${current.name} cannot move into itself or one of its subfolders`,
          'folder-cycle',
        );
      }
      const name = (data.name as string | undefined) ?? current.name;
      newPath = parent ? `${parent.path}/${name}` : name;
      await allow(batch, 'update', async () => ({ path: newPath!, id: parent?.id ?? null }));
    }
  }
  if (spec.type === 'version' && data.taskId) await row(batch, 'task', data.taskId as string);
  if (spec.parent && spec.type !== 'folder' && data[spec.parent.field] !== undefined)
    await row(batch, spec.parent.type, data[spec.parent.field] as string);

  const values = columns(spec, Object.fromEntries(changed.map((f) => [f, data[f]])));
  // The driver would send arrays as PostgreSQL arrays: jsonb values go as JSON text.
  for (const column of Object.keys(values))
    if (JSON_COLUMNS.has(column) && values[column] !== null) values[column] = JSON.stringify(values[column]);
  await batch.db
    .withSchema(batch.schema)
    .updateTable(spec.table)
    .set({ ...values, updated_by: batch.caller.name, updated_at: sql`now()` })
    .where('id', '=', id)
    .execute();
  if (newPath !== null) {
    await sql`UPDATE ${table(batch, spec)} f SET path = ${newPath} || substr(f.path, ${current.path.length + 1}) WHERE ${subtree('f', current.path)}`.execute(
      batch.db,
    );
    batch.locked.clear();
  }
  if (spec.type === 'folder' && (changed.includes('attrib') || changed.includes('parentId'))) {
    // Folders below that inherit anew may be locked for later updates (a shot's own change rewrites none).
    if (await refreshInherited(batch.db, batch.schema, batch.inheritable, id)) batch.locked.clear();
  }
  const parentField = spec.parent?.field;
  const parentId = parentField
    ? ((data[parentField] as string | undefined) ?? current[spec.columns[parentField]])
    : null;
  const after = { ...current, ...values };
  batch.changes.push({ type: spec.type, before: current, after });
  batch.fields.push(...updatedFields(spec, id, current, data, changed));
  batch.events.push(...changeEvents(batch, spec, { id, parentId, before: current, after, data, changed }));
}

async function folderHasVersions(batch: Batch, path: string): Promise<boolean> {
  const t = (name: string) => sql.table(`${batch.schema}.${name}`);
  const found = await sql`
    SELECT 1 FROM ${t('versions')} v JOIN ${t('products')} p ON p.id = v.product_id JOIN ${t('folders')} f ON f.id = p.folder_id
    WHERE ${subtree('f', path)} LIMIT 1`.execute(batch.db);
  return found.rows.length > 0;
}
