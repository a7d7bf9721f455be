import { Conflict, ValidationFailed } from '@pipewright/sdk';
import { SPECS, entityNotFound, type EntityType } from '../entity-types.js';

const SPECS_BY_TABLE = Object.fromEntries(
  Object.values(SPECS).map((spec) => [spec.table, spec.type]),
) as Record<string, EntityType>;

/** Database refusals as the errors users understand. */
export function translate(error: unknown, type: EntityType, project: string): unknown {
  const e = error as { code?: string; detail?: string; column?: string };
  if (e.code === '23505')
    return new Conflict(
      `A ${type} with this name (or number, or path) already exists here`,
      'unique-violation',
    );
  if (e.code === '23503') {
    // A new row naming a parent that does not exist: the same answer as looking the parent up would give.
    const missing = /^Key \(\w+\)=\(([0-9a-f-]+)\) is not present in table "(\w+)"/.exec(e.detail ?? '');
    const parent = missing && SPECS_BY_TABLE[missing[2]];
    if (parent) return entityNotFound(parent, missing[1].replaceAll('-', ''), project);
    return new Conflict(`The ${type} is still referenced by other entities`, 'foreign-key-violation');
  }
  if (e.code === '23502')
    return new ValidationFailed([
      // PostgreSQL's message names the table; the column alone tells the caller what to send.
      { loc: ['data', ...(e.column ? [e.column] : [])], msg: 'a required value is missing', type: 'missing' },
    ]);
  return error;
}
