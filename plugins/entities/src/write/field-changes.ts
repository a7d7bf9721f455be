import type { FieldChange } from '../api.js';
import type { EntityTypeSpec } from '../entity-types.js';
import type { Json, Row } from './batch.js';
import { normalise, storedValue } from './columns.js';
import { entityName } from './events.js';

// What a write changed, field by field, for the write hooks: attributes (and data) one per key, so that history can
// say who last changed fps without comparing whole attribute sets.

const same = (a: unknown, b: unknown) => JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));

/** The fields an update changed: before is the stored row, data the fields written (attrib and data merged). */
export function updatedFields(
  spec: EntityTypeSpec,
  id: string,
  before: Row,
  data: Json,
  changed: string[],
): FieldChange[] {
  const change = (field: string, oldValue: unknown, newValue: unknown): FieldChange => ({
    entityType: spec.type,
    entityId: id,
    field,
    oldValue: storedValue(field, oldValue),
    newValue: normalise(newValue),
  });
  return changed.flatMap((field) => {
    const oldValue = before[field in spec.columns ? spec.columns[field] : field];
    if (field !== 'attrib' && field !== 'data') return [change(field, oldValue, data[field])];
    const was = (oldValue ?? {}) as Json;
    const is = data[field] as Json;
    return [...new Set([...Object.keys(was), ...Object.keys(is)])]
      .filter((key) => !same(was[key], is[key]))
      .map((key) => change(`${field}.${key}`, was[key], is[key]));
  });
}

/** A new entity, as one change: "created", its name the new value. */
export function createdEntity(spec: EntityTypeSpec, id: string, row: Row): FieldChange {
  return {
    entityType: spec.type,
    entityId: id,
    field: 'created',
    oldValue: null,
    newValue: entityName(spec.type, row),
  };
}

/** A deleted entity, as one change: "deleted", its name the old value. */
export function deletedEntity(spec: EntityTypeSpec, row: Row): FieldChange {
  return {
    entityType: spec.type,
    entityId: row.id,
    field: 'deleted',
    oldValue: entityName(spec.type, row),
    newValue: null,
  };
}
