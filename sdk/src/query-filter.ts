import { sql, type RawBuilder } from 'kysely';
import { ValidationFailed } from './errors.js';
import { FilterCompiler } from './query-filter-compiler.js';
import type { FieldMap } from './query-filter-schema.js';

/**
 * The AYON filter language (QueryFilter), compiled to one SQL boolean expression.
 *
 * A filter is {conditions: [...], operator: 'and' | 'or'}; each condition is either {key, value, operator} or
 * another filter, so groups nest. Keys never reach SQL as text: each one is looked up in a whitelist that the
 * caller supplies (wire name -> SQL expression and kind), and every value travels as a bound parameter.
 * Problems become one 422 with AYON locations (["body", "filter", "conditions", 0, "key"]).
 *
 * The language's shape is in query-filter-schema.ts, the walk over a filter in query-filter-compiler.ts and the
 * SQL of each operator in query-filter-sql.ts; what addons use is exported from here.
 */

export {
  OPERATORS,
  QueryConditionSchema,
  QueryFilterSchema,
  normaliseOperator,
  type FieldKind,
  type FieldMap,
  type FieldSpec,
  type Operator,
} from './query-filter-schema.js';

/**
 * The filter as one SQL condition over the given fields, or TRUE when it restricts nothing.
 * Throws ValidationFailed (422) listing every problem found, located under loc.
 */
export function compileFilter(
  filter: unknown,
  fields: FieldMap,
  loc: (string | number)[] = ['body', 'filter'],
): RawBuilder<boolean> {
  if (filter === undefined || filter === null) return sql<boolean>`TRUE`;
  const compiler = new FilterCompiler(fields);
  const expression = compiler.group(filter, loc, 1);
  if (compiler.problems.length)
    throw new ValidationFailed(
      compiler.problems,
      `Invalid filter: ${compiler.problems[0].loc.join('.')}: ${compiler.problems[0].msg}`,
    );
  return expression ?? sql<boolean>`TRUE`;
}
