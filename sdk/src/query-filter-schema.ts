import type { RawBuilder } from 'kysely';
import { Type } from '@sinclair/typebox';

// The shape of an AYON QueryFilter: the operators, the fields a caller offers, and the schemas of a condition and
// of a group of them. query-filter.ts compiles it to SQL.

/** How a column behaves under the operators. */
export type FieldKind =
  'text' | 'uuid' | 'timestamp' | 'integer' | 'number' | 'boolean' | 'textArray' | 'json';

export interface FieldSpec {
  /** The SQL expression of the field, e.g. sql.ref('e.topic'). */
  expr: RawBuilder<unknown>;
  kind: FieldKind;
}

/** Wire key (camelCase) to field; extra aliases may point at the same spec. */
export type FieldMap = Record<string, FieldSpec>;

// The operators comparing a list field with a list value, for every or any of its values.
const SET_OPERATORS = ['includesall', 'excludesall', 'includesany', 'excludesany'] as const;

export const OPERATORS = [
  'eq',
  'like',
  'lt',
  'gt',
  'lte',
  'gte',
  'ne',
  'isnull',
  'notnull',
  'in',
  'notin',
  'includes',
  'excludes',
  ...SET_OPERATORS,
] as const;
export type Operator = (typeof OPERATORS)[number];

/** Operators whose value is a list. */
export const LIST_VALUE_OPERATORS = new Set<Operator>(['in', 'notin', ...SET_OPERATORS]);
/** Operators that apply to list fields only. */
export const ARRAY_FIELD_OPERATORS = new Set<Operator>(['includes', 'excludes', ...SET_OPERATORS]);

/** "not_in", "NotIn" and "notin" all mean notin, as AYON accepts. */
export function normaliseOperator(operator: string | undefined): Operator | null {
  const name = (operator ?? 'eq').toLowerCase().replace(/[-_]/g, '');
  return (OPERATORS as readonly string[]).includes(name) ? (name as Operator) : null;
}

const Scalar = Type.Union([Type.String(), Type.Number(), Type.Boolean()]);

/** One {key, value, operator} condition (operator defaults to eq; "EQ", "not_in" and the like are normalised). */
export const QueryConditionSchema = Type.Object(
  {
    key: Type.String({
      minLength: 1,
      maxLength: 255,
      description: 'Field name; a JSON field may be followed by a path: summary/entityId',
    }),
    value: Type.Optional(Type.Union([Scalar, Type.Array(Scalar), Type.Null()])),
    operator: Type.Optional(Type.String({ maxLength: 32, description: OPERATORS.join(', ') })),
  },
  { additionalProperties: false },
);

// One enum rather than a union of literals, so a wrong value is one problem, not five.
const GroupOperator = Type.Unsafe<'and' | 'or' | 'AND' | 'OR'>({
  type: 'string',
  enum: ['and', 'or', 'AND', 'OR'],
  default: 'and',
});

/**
 * The outer shape of a group, all that is declared to the route schema: the nesting is checked by the compiler,
 * where each problem can be reported at its exact location instead of as a tangle of anyOf failures.
 */
export const GroupShape = Type.Object(
  {
    conditions: Type.Optional(Type.Array(Type.Object({}, { additionalProperties: true }))),
    operator: Type.Optional(GroupOperator),
  },
  { additionalProperties: false },
);

/** The filter as a route body field: conditions may be conditions or nested filters of the same shape. */
export const QueryFilterSchema = Type.Object(
  {
    conditions: Type.Optional(
      Type.Array(
        Type.Object(
          {},
          {
            additionalProperties: true,
            description: 'A condition {key, value, operator} or a nested filter {conditions, operator}',
          },
        ),
      ),
    ),
    operator: Type.Optional(GroupOperator),
  },
  {
    additionalProperties: false,
    description: 'AYON QueryFilter: {conditions: [{key, value, operator} | QueryFilter], operator: and | or}',
  },
);
