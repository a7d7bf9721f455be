import { sql, type RawBuilder } from 'kysely';
import { camelize } from './camelize.js';
import type { Problem } from './errors.js';
import {
  ARRAY_FIELD_OPERATORS,
  GroupShape,
  LIST_VALUE_OPERATORS,
  OPERATORS,
  QueryConditionSchema,
  normaliseOperator,
  type FieldMap,
  type Operator,
} from './query-filter-schema.js';
import {
  comparison,
  jsonCondition,
  listParam,
  param,
  textArrayCondition,
  typeMessage,
  type Value,
} from './query-filter-sql.js';
import { check } from './validation.js';

// Walks a filter's groups and conditions: checks each at its location, looks its key up in the caller's
// whitelist, and hands the SQL of the operator to query-filter-sql.ts. Every problem found is collected.

type Loc = (string | number)[];

const ORDERING_OPERATORS = new Set<Operator>(['lt', 'gt', 'lte', 'gte']);

// Deep enough for any filter a UI builds, shallow enough that a hostile body cannot blow the stack.
const MAX_DEPTH = 16;
// Each condition binds at most a few parameters, and PostgreSQL takes 65,535 in one statement: a filter of more
// conditions (counted over all its groups) is refused with its place rather than failing in the database.
const MAX_CONDITIONS = 10_000;

const JSON_PATH_ELEMENT = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** One filter's compilation over the fields a caller offers; problems collects what is wrong with it. */
export class FilterCompiler {
  readonly problems: Problem[] = [];
  private conditions = 0;

  constructor(private readonly fields: FieldMap) {}

  /** A group of conditions as one SQL condition, or null when it restricts nothing (or is wrong). */
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

  /** One {key, value, operator} condition as SQL, or null when it restricts nothing (or is wrong). */
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
    const field = this.fields[head] ?? this.fields[camelize(head)];
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

    if (field.kind === 'json') return jsonCondition(expr, operator, value, fail);
    if (field.kind === 'textArray') return textArrayCondition(expr, operator, value, fail);

    // Scalar columns from here on.
    if (isList) {
      const list = value as (string | number | boolean)[];
      // AYON: an empty "in" matches nothing and an empty "notin" everything.
      if (list.length === 0) return operator === 'in' ? sql<boolean>`FALSE` : sql<boolean>`TRUE`;
      const values = listParam(field.kind, list);
      if (!values) return fail(typeMessage(field.kind, head));
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
    const bound = param(field.kind, value as string | number | boolean);
    if (!bound) return fail(typeMessage(field.kind, head));
    return (
      comparison(expr, operator, () => bound) ??
      fail(`operator ${operator} does not apply to '${head}'`, 'operator')
    );
  }
}
