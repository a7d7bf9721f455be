import { BadRequest, camelizeKeys, check, ValidationFailed } from '@pipewright/sdk';
import type { EntityType, EntityTypeSpec } from '../entity-types.js';
import type { Batch, Json } from './batch.js';

/** An operation as clients send it (/operations, background batches, other addons): its data as sent. */
export interface Operation {
  id?: string;
  type: 'create' | 'update' | 'delete';
  entityType: EntityType;
  entityId?: string | null;
  data?: Json | null;
  force?: boolean;
}

/**
 * An entity's fields on their way to the write stages, camelCase already, in one of two states. A route's body was
 * camelCased by the server's body validator and checked by the route's schema (the type's create or update
 * schema): `checked`. An operation's data was camelCased when its batch began (readOperation) and is checked by
 * the stage that applies it, so its problems are reported in the order of the operations: `sent`. Only
 * fieldsToWrite checks, and it checks `sent` fields alone: nothing is camelCased or checked twice.
 */
export type Fields = { readonly checked: Json } | { readonly sent: Json };

/** An operation the write stages apply. */
export interface Change extends Omit<Operation, 'data'> {
  data?: Fields | null;
}

/** An operation as sent, its data camelCased (AYON clients may send folder_id, parent_id, ...): once per operation. */
export function readOperation(operation: Operation): Change {
  const { data, ...rest } = operation;
  return data ? { ...rest, data: { sent: camelizeKeys(data) } } : (rest as Change);
}

/** The fields as given, unchecked: for looking ahead at the ids a batch names (prefetchParents). */
export const givenFields = (fields: Fields): Json => ('checked' in fields ? fields.checked : fields.sent);

/**
 * The fields a create or update writes, as a copy the stage may complete: sent fields checked against the type's
 * schema, and every attribute value against its definition. Problems are reported under data, as AYON does.
 */
export async function fieldsToWrite(
  batch: Batch,
  spec: EntityTypeSpec,
  fields: Fields | null | undefined,
  mode: 'create' | 'update',
): Promise<Json> {
  const data = { ...(fields ? givenFields(fields) : {}) };
  const problems =
    fields && 'sent' in fields ? check(mode === 'create' ? spec.create : spec.update, data, ['data']) : [];
  if (data.attrib && typeof data.attrib === 'object' && !Array.isArray(data.attrib)) {
    data.attrib = await batch.attributes.withoutUnknown(spec.type, data.attrib as Json);
    problems.push(...(await batch.attributes.validate(spec.type, data.attrib as Json, ['data', 'attrib'])));
  }
  if (problems.length) throw new ValidationFailed(problems, `Invalid ${spec.type} data`);
  return data;
}

/** Refuse a batch that cannot be run as a whole: updates or deletes without an id, one entity changed twice. */
export function checkBatch(operations: readonly (Operation | Change)[]): void {
  const touched = new Set<string>();
  operations.forEach((operation, index) => {
    if (operation.type !== 'create' && !operation.entityId)
      throw new BadRequest(`Operation ${index}: ${operation.type} needs an entityId`, 'missing-entity-id');
    if (operation.type !== 'delete' && !operation.data)
      throw new BadRequest(`Operation ${index}: ${operation.type} needs data`, 'missing-data');
    if (operation.type === 'create') return;
    const key = `${operation.entityType}:${operation.entityId}`;
    if (touched.has(key))
      throw new BadRequest(
        `Operation ${index}: ${operation.entityType} ${operation.entityId} is changed twice in one request`,
        'duplicate-entity',
      );
    touched.add(key);
  });
}
