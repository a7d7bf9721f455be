import { sql, type RawBuilder } from 'kysely';
import { Type } from '@sinclair/typebox';
import { ValidationFailed, type Problem } from './errors.js';
import { check } from './validation.js';

/**
 * The AYON filter language (QueryFilter), compiled to one SQL boolean expression.
 *
 * A filter is {conditions: [...], operator: 'and' | 'or'}; each condition is either {key, value, operator} or
 * another filter, so groups nest. Keys never reach SQL as text: each one is looked up in a whitelist that the
 * caller supplies (wire name -> SQL expression and kind), and every value travels as a bound parameter.
 * Problems become one 422 with AYON locations (["body", "filter", "conditions", 0, "key"]).
 */

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
  'includesall',
  'excludesall',
  'includesany',
  'excludesany',
] as const;
export type Operator = (typeof OPERATORS)[number];

const LIST_VALUE_OPERATORS = new Set<Operator>([
  'in',
  'notin',
  'includesall',
  'excludesall',
  'includesany',
  'excludesany',
]);
const ARRAY_FIELD_OPERATORS = new Set<Operator>([
  'includes',
  'excludes',
  'includesall',
  'excludesall',
  'includesany',
  'excludesany',
]);
const ORDERING_OPERATORS = new Set<Operator>(['lt', 'gt', 'lte', 'gte']);

// Deep enough for any filter a UI builds, shallow enough that a hostile body cannot blow the stack.
const MAX_DEPTH = 16;
// Each condition binds at most a few parameters, and PostgreSQL takes 65,535 in one statement: a filter of more
// conditions (counted over all its groups) is refused with its place rather than failing in the database.
const MAX_CONDITIONS = 10_000;

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

// Only the outer shape is declared to the route schema: the nesting is checked here, where each problem can be
// reported at its exact location instead of as a tangle of anyOf failures.
const GroupShape = Type.Object(
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

type Loc = (string | number)[];
type Value = string | number | boolean | null | (string | number | boolean)[];

const camel = (key: string) => key.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const JSON_PATH_ELEMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
const UUID = /^[0-9a-f]{32}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "not_in", "NotIn" and "notin" all mean notin, as AYON accepts. */
export function normaliseOperator(operator: string | undefined): Operator | null {
  const name = (operator ?? 'eq').toLowerCase().replace(/[-_]/g, '');
  return (OPERATORS as readonly string[]).includes(name) ? (name as Operator) : null;
}

class Compiler {
  readonly problems: Problem[] = [];
  private conditions = 0;

  constructor(private readonly fields: FieldMap) {}

  group(filter: unknown, loc: Loc, depth: number): RawBuilder<boolean> | null {
    if (depth > MAX_DEPTH) {
      this.problems.push({ loc, msg: `filters nest at most ${MAX_DEPTH} levels deep`, type: 'too_deep' });
      return null;
    }
    const shape = check(GroupShape, filter, loc);
    if (shape.length) {
      this.problems.push(...shape);
      return null;
    }
    const { conditions = [], operator = 'and' } = filter as {
      conditions?: Record<string, unknown>[];
      operator?: string;
    };
    const parts: RawBuilder<boolean>[] = [];
    conditions.forEach((item, i) => {
      const at = [...loc, 'conditions', i];
      // A nested group is told apart from a condition by its conditions list, as AYON's union does.
      const part =
        'conditions' in item || !('key' in item) ? this.group(item, at, depth + 1) : this.condition(item, at);
      if (part) parts.push(part);
    });
    // An empty group restricts nothing (AYON drops it), so its parent just sees one part fewer.
    if (parts.length === 0) return null;
    return sql<boolean>`(${sql.join(parts, operator.toLowerCase() === 'or' ? sql` OR ` : sql` AND `)})`;
  }

  condition(item: Record<string, unknown>, loc: Loc): RawBuilder<boolean> | null {
    if (++this.conditions > MAX_CONDITIONS) {
      if (this.conditions === MAX_CONDITIONS + 1)
        this.problems.push({
          loc,
          msg: `a filter holds at most ${MAX_CONDITIONS} conditions`,
          type: 'too_long',
        });
      return null;
    }
    const shape = check(QueryConditionSchema, item, loc);
    if (shape.length) {
      this.problems.push(...shape);
      return null;
    }
    const operator = normaliseOperator(item.operator as string | undefined);
    if (!operator) {
      this.problems.push({
        loc: [...loc, 'operator'],
        msg: `unknown operator '${String(item.operator)}'; use one of ${OPERATORS.join(', ')}`,
        type: 'enum',
      });
      return null;
    }
    const key = String(item.key);
    const value = (item.value ?? null) as Value;
    const fail = (msg: string, at: string = 'value', type = 'value_error') => {
      this.problems.push({ loc: [...loc, at], msg, type });
      return null;
    };

    // "summary/entityId" or "summary.entityId": a JSON field followed by a path inside it.
    const [head, ...path] = key
      .replace(/\//g, '.')
      .split('.')
      .map((p) => p.trim());
    const field = this.fields[head] ?? this.fields[camel(head)];
    if (!field)
      return fail(`unknown key '${head}'; filterable keys: ${Object.keys(this.fields).join(', ')}`, 'key');
    if (path.length && field.kind !== 'json')
      return fail(`'${head}' is not a JSON field and has no inner keys`, 'key');
    if (path.some((p) => !JSON_PATH_ELEMENT.test(p))) return fail(`invalid path in key '${key}'`, 'key');
    const expr = path.length ? sql`(${field.expr} #> ${path}::text[])` : field.expr;

    if (operator === 'isnull' || operator === 'notnull') {
      // A JSON null counts as missing, so {"x": null} and {} answer alike.
      const isNull =
        field.kind === 'json'
          ? sql<boolean>`(${expr} IS NULL OR ${expr} = 'null'::jsonb)`
          : sql<boolean>`${expr} IS NULL`;
      return operator === 'isnull' ? isNull : sql<boolean>`NOT ${isNull}`;
    }
    if (value === null) return fail(`operator ${operator} needs a value`);

    const isList = Array.isArray(value);
    if (LIST_VALUE_OPERATORS.has(operator) && !isList) return fail(`operator ${operator} needs a list value`);
    if (
      !LIST_VALUE_OPERATORS.has(operator) &&
      isList &&
      !((operator === 'eq' || operator === 'ne') && (field.kind === 'textArray' || field.kind === 'json'))
    ) {
      return fail(`operator ${operator} needs a single value, not a list`);
    }
    const isArrayField = field.kind === 'textArray' || field.kind === 'json';
    if (ARRAY_FIELD_OPERATORS.has(operator) && !isArrayField)
      return fail(`operator ${operator} applies to list fields only; '${head}' is not a list`, 'operator');

    if (field.kind === 'json') return this.json(expr, operator, value, fail);
    if (field.kind === 'textArray') return this.textArray(expr, operator, value, fail);

    // Scalar columns from here on.
    if (isList) {
      const list = value as (string | number | boolean)[];
      // AYON: an empty "in" matches nothing and an empty "notin" everything.
      if (list.length === 0) return operator === 'in' ? sql<boolean>`FALSE` : sql<boolean>`TRUE`;
      const values = this.listParam(field.kind, list);
      if (!values) return fail(this.typeMessage(field.kind, head));
      const any = sql<boolean>`${expr} = ANY(${values})`;
      // NULL is not in any list, so notin keeps rows whose field is unset.
      return operator === 'in' ? any : sql<boolean>`NOT coalesce(${any}, FALSE)`;
    }
    if (operator === 'like') {
      if (typeof value !== 'string') return fail('operator like needs a string value');
      return sql<boolean>`(${expr})::text ILIKE ${value}`;
    }
    if (ORDERING_OPERATORS.has(operator) && field.kind === 'boolean')
      return fail(`operator ${operator} does not apply to the true/false field '${head}'`, 'operator');
    const param = this.param(field.kind, value as string | number | boolean);
    if (!param) return fail(this.typeMessage(field.kind, head));
    switch (operator) {
      case 'eq':
        return sql<boolean>`${expr} = ${param}`;
      case 'ne':
        // An unset field differs from every value.
        return sql<boolean>`${expr} IS DISTINCT FROM ${param}`;
      case 'lt':
        return sql<boolean>`${expr} < ${param}`;
      case 'gt':
        return sql<boolean>`${expr} > ${param}`;
      case 'lte':
        return sql<boolean>`${expr} <= ${param}`;
      case 'gte':
        return sql<boolean>`${expr} >= ${param}`;
      default:
        return fail(`operator ${operator} does not apply to '${head}'`, 'operator');
    }
  }

  /** text[] columns (tags, assignees): membership operators, plus equality with a whole list. */
  private textArray(
    expr: RawBuilder<unknown>,
    operator: Operator,
    value: Value,
    fail: (msg: string, at?: string) => null,
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
  private json(
    expr: RawBuilder<unknown>,
    operator: Operator,
    value: Value,
    fail: (msg: string, at?: string) => null,
  ): RawBuilder<boolean> | null {
    const doc = (v: unknown) => sql`${JSON.stringify(v)}::jsonb`;
    // Array operators only look at JSON arrays; anything else counts as an empty list.
    const asArray = sql`(CASE WHEN jsonb_typeof(${expr}) = 'array' THEN ${expr} ELSE '[]'::jsonb END)`;
    const list = Array.isArray(value) ? value : [value];
    const overlap = sql<boolean>`EXISTS (SELECT 1 FROM jsonb_array_elements(${asArray}) AS a(item) WHERE a.item IN (SELECT jsonb_array_elements(${doc(list)})))`;
    switch (operator) {
      case 'eq':
        return sql<boolean>`${expr} = ${doc(value)}`;
      case 'ne':
        return sql<boolean>`${expr} IS DISTINCT FROM ${doc(value)}`;
      case 'lt':
        return sql<boolean>`${expr} < ${doc(value)}`;
      case 'gt':
        return sql<boolean>`${expr} > ${doc(value)}`;
      case 'lte':
        return sql<boolean>`${expr} <= ${doc(value)}`;
      case 'gte':
        return sql<boolean>`${expr} >= ${doc(value)}`;
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

  /** A bound parameter cast to the column's type; null when the value cannot be of that type. */
  private param(kind: FieldKind, value: string | number | boolean): RawBuilder<unknown> | null {
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
  private listParam(kind: FieldKind, list: (string | number | boolean)[]): RawBuilder<unknown> | null {
    if (list.some((v) => this.param(kind, v) === null)) return null;
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

  private typeMessage(kind: FieldKind, key: string): string {
    const expected: Record<FieldKind, string> = {
      text: 'a string',
      uuid: 'an id of 32 hex characters',
      timestamp: 'an ISO 8601 date-time string',
      integer: 'an integer',
      number: 'a number',
      boolean: 'true or false',
      textArray: 'a list of strings',
      json: 'a JSON value',
    };
    return `'${key}' needs ${expected[kind]}`;
  }
}

/**
 * The filter as one SQL condition over the given fields, or TRUE when it restricts nothing.
 * Throws ValidationFailed (422) listing every problem found, located under loc.
 */
export function compileFilter(
  filter: unknown,
  fields: FieldMap,
  loc: Loc = ['body', 'filter'],
): RawBuilder<boolean> {
  if (filter === undefined || filter === null) return sql<boolean>`TRUE`;
  const compiler = new Compiler(fields);
  const expression = compiler.group(filter, loc, 1);
  if (compiler.problems.length)
    throw new ValidationFailed(
      compiler.problems,
      `Invalid filter: ${compiler.problems[0].loc.join('.')}: ${compiler.problems[0].msg}`,
    );
  return expression ?? sql<boolean>`TRUE`;
}
