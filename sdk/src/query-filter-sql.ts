import { sql, type RawBuilder } from 'kysely';
import type { FieldKind, Operator } from './query-filter-schema.js';

// The SQL of one condition once its key and operator are known good: values always travel as bound parameters,
// cast to the field's type. What cannot apply is reported through fail, which answers null.

/** A condition's value as the wire gives it. */
export type Value = string | number | boolean | null | (string | number | boolean)[];

/** Records a problem with the condition (at its value unless told) and answers null. */
export type Fail = (msg: string, at?: string) => null;

const UUID = /^[0-9a-f]{32}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const COMPARISONS: Partial<Record<Operator, string>> = {
  eq: '=',
  // An unset field differs from every value.
  ne: 'IS DISTINCT FROM',
  lt: '<',
  gt: '>',
  lte: '<=',
  gte: '>=',
};

/** expr compared with a value by eq, ne, lt, gt, lte or gte; null for any other operator. */
export function comparison(
  expr: RawBuilder<unknown>,
  operator: Operator,
  value: () => RawBuilder<unknown>,
): RawBuilder<boolean> | null {
  const op = COMPARISONS[operator];
  return op ? sql<boolean>`${expr} ${sql.raw(op)} ${value()}` : null;
}

/** A bound parameter cast to the column's type; null when the value cannot be of that type. */
export function param(kind: FieldKind, value: string | number | boolean): RawBuilder<unknown> | null {
  switch (kind) {
    case 'text':
      return typeof value === 'string' ? sql`${value}::text` : null;
    case 'uuid':
      return typeof value === 'string' && UUID.test(value) ? sql`${value}::uuid` : null;
    case 'timestamp': {
      if (typeof value !== 'string' || Number.isNaN(Date.parse(value))) return null;
      return sql`${new Date(value).toISOString()}::timestamptz`;
    }
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value) ? sql`${value}::bigint` : null;
    case 'number':
      return typeof value === 'number' ? sql`${value}::double precision` : null;
    case 'boolean':
      return typeof value === 'boolean' ? sql`${value}::boolean` : null;
    default:
      return null;
  }
}

/**
 * A list as one array parameter, however long (a parameter per value would stop at PostgreSQL's 65,535), or
 * null when a value is not of the field's kind.
 */
export function listParam(kind: FieldKind, list: (string | number | boolean)[]): RawBuilder<unknown> | null {
  if (list.some((v) => param(kind, v) === null)) return null;
  switch (kind) {
    case 'timestamp':
      return sql`${list.map((v) => new Date(v as string).toISOString())}::timestamptz[]`;
    case 'integer':
      return sql`${list}::bigint[]`;
    case 'number':
      return sql`${list}::double precision[]`;
    case 'boolean':
      return sql`${list}::boolean[]`;
    case 'uuid':
      return sql`${list}::uuid[]`;
    default:
      return sql`${list}::text[]`;
  }
}

const EXPECTED: Record<FieldKind, string> = {
  text: 'a string',
  uuid: 'an id of 32 hex characters',
  timestamp: 'an ISO 8601 date-time string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  textArray: 'a list of strings',
  json: 'a JSON value',
};

/** The problem of a value that is not of its field's kind. */
export function typeMessage(kind: FieldKind, key: string): string {
  return `'${key}' needs ${EXPECTED[kind]}`;
}

/** text[] columns (tags, assignees): membership operators, plus equality with a whole list. */
export function textArrayCondition(
  expr: RawBuilder<unknown>,
  operator: Operator,
  value: Value,
  fail: Fail,
): RawBuilder<boolean> | null {
  const list = Array.isArray(value) ? value : [value];
  if (list.some((v) => typeof v !== 'string')) return fail('list fields hold text: values must be strings');
  const items = list as string[];
  switch (operator) {
    case 'eq':
      return Array.isArray(value)
        ? sql<boolean>`${expr} = ${items}::text[]`
        : fail('compare a list field with a list, or use includes');
    case 'ne':
      return Array.isArray(value)
        ? sql<boolean>`${expr} IS DISTINCT FROM ${items}::text[]`
        : fail('compare a list field with a list, or use excludes');
    case 'includes':
      return sql<boolean>`${items[0]} = ANY(${expr})`;
    case 'excludes':
      return sql<boolean>`NOT coalesce(${items[0]} = ANY(${expr}), FALSE)`;
    case 'includesall':
      return items.length ? sql<boolean>`${expr} @> ${items}::text[]` : null;
    case 'excludesall':
      return items.length ? sql<boolean>`NOT coalesce(${expr} @> ${items}::text[], FALSE)` : null;
    case 'includesany':
      return items.length ? sql<boolean>`${expr} && ${items}::text[]` : null;
    case 'excludesany':
      return items.length ? sql<boolean>`NOT coalesce(${expr} && ${items}::text[], FALSE)` : null;
    default:
      return fail(`operator ${operator} does not apply to a list field`, 'operator');
  }
}

/** A value inside a JSON column: compared as JSON, so 25 and "25" differ as they do in the document. */
export function jsonCondition(
  expr: RawBuilder<unknown>,
  operator: Operator,
  value: Value,
  fail: Fail,
): RawBuilder<boolean> | null {
  const doc = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
  const compared = comparison(expr, operator, () => doc(value));
  if (compared) return compared;
  // Array operators only look at JSON arrays; anything else counts as an empty list.
  const asArray = sql`(CASE WHEN jsonb_typeof(${expr}) = 'array' THEN ${expr} ELSE '[]'::jsonb END)`;
  const list = Array.isArray(value) ? value : [value];
  const overlap = sql<boolean>`EXISTS (SELECT 1 FROM jsonb_array_elements(${asArray}) AS a(item) WHERE a.item IN (SELECT jsonb_array_elements(${doc(list)})))`;
  switch (operator) {
    case 'like':
      if (typeof value !== 'string') return fail('operator like needs a string value');
      // Text of a JSON string without its quotes; other JSON values in their JSON text.
      return sql<boolean>`(CASE WHEN jsonb_typeof(${expr}) = 'string' THEN ${expr} #>> '{}' ELSE ${expr}::text END) ILIKE ${value}`;
    case 'in':
      if (list.length === 0) return sql<boolean>`FALSE`;
      return sql<boolean>`${expr} IN (SELECT jsonb_array_elements(${doc(list)}))`;
    case 'notin':
      if (list.length === 0) return sql<boolean>`TRUE`;
      return sql<boolean>`NOT coalesce(${expr} IN (SELECT jsonb_array_elements(${doc(list)})), FALSE)`;
    case 'includes':
      return sql<boolean>`${asArray} @> ${doc([value])}`;
    case 'excludes':
      return sql<boolean>`NOT (${asArray} @> ${doc([value])})`;
    case 'includesall':
      return list.length ? sql<boolean>`${asArray} @> ${doc(list)}` : null;
    case 'excludesall':
      return list.length ? sql<boolean>`NOT (${asArray} @> ${doc(list)})` : null;
    case 'includesany':
      return list.length ? overlap : null;
    case 'excludesany':
      return list.length ? sql<boolean>`NOT ${overlap}` : null;
    default:
      return fail(`operator ${operator} does not apply here`, 'operator');
  }
}
