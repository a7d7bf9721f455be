import { Forbidden, newId } from '@pipewright/sdk';
import { entityNotFound, type EntityTypeSpec } from '../entity-types.js';
import type { Batch, Json } from './batch.js';
import { insert } from './buffered-rows.js';
import { columns } from './columns.js';
import { entityEvent } from './events.js';
import { createdEntity } from './field-changes.js';
import { fieldsToWrite, type Change } from './input.js';
import { folderOf, row } from './rows.js';
import { allow, CREATE_KIND, kind, scope, status } from './rules.js';

/** A new entity: checked, allowed, its row written (or buffered), its created event queued. Answers its id. */
export async function create(batch: Batch, spec: EntityTypeSpec, operation: Change): Promise<string> {
  const data = await fieldsToWrite(batch, spec, operation.data, 'create');
  const id = (data.id as string | undefined) ?? operation.entityId ?? newId();
  data.status = status(batch, spec.type, data.status);
  if (spec.typeField) data[spec.typeField.field] = kind(batch, spec, data[spec.typeField.field]);
  const values = columns(spec, data, {
    id,
    created_by: batch.caller.name,
    updated_by: batch.caller.name,
  });
  let parentId: string | null = null;

  if (spec.type === 'folder') {
    parentId = (data.parentId as string | null | undefined) ?? null;
    const parent = parentId ? await row(batch, 'folder', parentId) : null;
    values.path = parent ? `${parent.path}/${data.name}` : String(data.name);
    await allow(batch, 'create', async () => ({ path: values.path as string, id: parentId }));
    const inherited = parent ? { ...parent.inherited, ...pick(parent.attrib, batch.inheritable) } : {};
    values.inherited = inherited;
  } else {
    parentId = data[spec.parent!.field] as string;
    // Buffered rows are written table by table, so the database would take a parent this batch creates only in
    // a later operation; operations apply in order, and then the parent does not exist yet.
    if ((batch.createdBy?.get(parentId) ?? -1) > batch.current)
      throw entityNotFound(spec.parent!.type, parentId, batch.project.name);
    const writeKind = CREATE_KIND[spec.type];
    // A caller free to write anywhere needs nothing of the parent: its foreign key refuses a missing one (404).
    if (await scope(batch, writeKind)) {
      const parent = await row(batch, spec.parent!.type, parentId);
      await allow(batch, writeKind, () => folderOf(batch, spec.parent!.type, parent));
    }
    if (spec.type === 'version') {
      if (data.taskId) await row(batch, 'task', data.taskId as string);
      if (data.author === undefined) values.author = batch.caller.name;
      else if (data.author !== batch.caller.name && !batch.caller.isAdmin && !batch.caller.isService) {
        throw new Forbidden('Only administrators may publish a version on behalf of another author');
      }
    }
  }
  await insert(batch, spec.table, values);
  // What children created later in this batch need of their parent (tasks only need it to exist).
  batch.created.set(`${spec.type}:${id}`, {
    id,
    name: data.name,
    path: values.path,
    inherited: values.inherited ?? {},
    attrib: data.attrib ?? {},
    ...(spec.type !== 'folder' ? { [spec.columns[spec.parent!.field]]: parentId } : {}),
  });
  batch.changes.push({ type: spec.type, before: null, after: values });
  batch.fields.push(createdEntity(spec, id, values));
  batch.events.push(entityEvent(batch, spec.type, 'created', values, { entityId: id, parentId }));
  return id;
}

function pick(values: Json, keys: string[]): Json {
  const picked: Json = {};
  for (const key in values) if (keys.includes(key)) picked[key] = values[key];
  return picked;
}
