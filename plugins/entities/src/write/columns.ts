import { SPECS, type EntityType, type EntityTypeSpec } from '../entity-types.js';
import type { Json } from './batch.js';

/** Columns stored as jsonb: the driver would send arrays as PostgreSQL arrays, so their values go as JSON text. */
export const JSON_COLUMNS = new Set(['attrib', 'data', 'files', 'traits']);

// Each type's writable fields and the columns they are stored in.
const FIELD_COLUMNS = Object.fromEntries(
  Object.values(SPECS).map((spec) => [
    spec.type,
    new Map(
      Object.entries({
        ...spec.columns,
        status: 'status',
        tags: 'tags',
        attrib: 'attrib',
        data: 'data',
        active: 'active',
      }),
    ),
  ]),
) as Record<EntityType, Map<string, string>>;

/** The table columns of the fields given, values as JSON (objects for jsonb, arrays for text[]), added to into. */
export function columns(spec: EntityTypeSpec, data: Json, into: Json = {}): Json {
  const byField = FIELD_COLUMNS[spec.type];
  // The fields sent are few; the fields a type has are many.
  for (const field in data) {
    const column = byField.get(field);
    if (column !== undefined && data[field] !== undefined) into[column] = data[field];
  }
  return into;
}

/** Compare stored and sent values alike (dates, nulls and undefined as null). */
export function normalise(value: unknown): unknown {
  return value === undefined ? null : value;
}

/**
 * A stored value of a field as the API writes it: ids (parentId, thumbnailId, ...) come out of uuid columns with
 * dashes and go in without.
 */
export function storedValue(field: string, value: unknown): unknown {
  if (typeof value === 'string' && /^[a-z]+Id$/.test(field)) return value.replaceAll('-', '');
  return normalise(value);
}
