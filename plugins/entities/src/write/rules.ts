import { sql } from 'kysely';
import {
  Forbidden,
  pathInScope,
  ValidationFailed,
  type FolderAccessKind,
  type FolderScope,
} from '@pipewright/sdk';
import type { EntityType, EntityTypeSpec } from '../entity-types.js';
import type { Batch, Json } from './batch.js';
import { flush } from './buffered-rows.js';

// What the caller may write (folder whitelists, attribute and field lists) and what the project allows (statuses,
// folder and task types). Schema checks of the fields themselves are in input.ts.

// Which whitelist guards changing an entity: folders and tasks are updated, published entities are published.
export const WRITE_KIND: Record<EntityType, FolderAccessKind> = {
  folder: 'update',
  task: 'update',
  product: 'publish',
  version: 'publish',
  representation: 'publish',
  workfile: 'publish',
};

// ... and creating one: folders and tasks are created, the rest published.
export const CREATE_KIND: Record<EntityType, FolderAccessKind> = {
  ...WRITE_KIND,
  folder: 'create',
  task: 'create',
};

/** The folders the caller may write this way, or null when nothing restricts them; asked once per batch. */
export async function scope(batch: Batch, kind: FolderAccessKind): Promise<FolderScope | null> {
  if (!batch.scopes.has(kind))
    batch.scopes.set(kind, await batch.access.scope(batch.caller, batch.project.name, kind));
  return batch.scopes.get(kind)!;
}

/** Refuse a write outside the caller's whitelist for it; the message names nothing the caller cannot see. */
export async function allow(
  batch: Batch,
  kind: FolderAccessKind,
  folder: () => Promise<{ path: string; id: string | null }>,
): Promise<void> {
  const whitelist = await scope(batch, kind);
  if (!whitelist) return;
  const { path, id } = await folder();
  if (pathInScope(whitelist, path)) return;
  if (whitelist.assigned && id) {
    await flush(batch); // tasks created earlier in this batch count
    const tasks = sql.table(`${batch.schema}.tasks`);
    const assigned =
      await sql`SELECT 1 FROM ${tasks} WHERE folder_id = ${id} AND ${batch.caller.name} = ANY(assignees) LIMIT 1`.execute(
        batch.db,
      );
    if (assigned.rows.length) return;
  }
  throw new Forbidden(`You have no ${kind} access here`);
}

/** Refuse changes to attributes and fields the caller's groups do not let them write (thumbnails always). */
export async function allowFields(batch: Batch, data: Json): Promise<void> {
  if (batch.fieldAccess === undefined)
    batch.fieldAccess = await batch.access.attributes(batch.caller, batch.project.name);
  const write = batch.fieldAccess?.write;
  if (!write) return;
  // Groups name fields as AYON stores them (parent_id) or as the wire spells them (parentId).
  const listed = (field: string) =>
    write.fields.includes(field) ||
    write.fields.includes(field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`));
  const refused = [
    ...Object.keys(data).filter((field) => field !== 'attrib' && field !== 'thumbnailId' && !listed(field)),
    ...Object.keys((data.attrib ?? {}) as Json)
      .filter((key) => !write.attributes.includes(key))
      .map((key) => `attrib.${key}`),
  ];
  if (refused.length) throw new Forbidden(`You may not change ${refused.join(', ')}`);
}

/** A status must be one of the project's; new entities get the first whose scope covers their type. */
export function status(batch: Batch, type: EntityType, wanted: unknown): string {
  const statuses = batch.project.statuses;
  if (wanted !== undefined) {
    if (!statuses.some((s) => s.name === wanted)) {
      throw new ValidationFailed([
        {
          loc: ['data', 'status'],
          msg: `project ${batch.project.name} has no status "${String(wanted)}"`,
          type: 'unknown_status',
        },
      ]);
    }
    return String(wanted);
  }
  const first = statuses.find((s) => !s.scope || s.scope.includes(type)) ?? statuses[0];
  if (!first)
    throw new ValidationFailed([
      {
        loc: ['data', 'status'],
        msg: `project ${batch.project.name} defines no statuses`,
        type: 'unknown_status',
      },
    ]);
  return first.name;
}

/** folderType and taskType must be defined by the project; new entities default to the first one. */
export function kind(batch: Batch, spec: EntityTypeSpec, wanted: unknown): string | undefined {
  const field = spec.typeField;
  if (!field?.list) return wanted as string | undefined;
  const list = batch.project[field.list];
  if (wanted === undefined) {
    if (!list[0])
      throw new ValidationFailed([
        {
          loc: ['data', field.field],
          msg: `project ${batch.project.name} defines no ${field.list}`,
          type: 'unknown_type',
        },
      ]);
    return list[0].name;
  }
  if (!list.some((t) => t.name === wanted)) {
    throw new ValidationFailed([
      {
        loc: ['data', field.field],
        msg: `project ${batch.project.name} has no ${field.field} "${String(wanted)}"`,
        type: 'unknown_type',
      },
    ]);
  }
  return String(wanted);
}
