import { ValidationFailed } from '@pipewright/sdk';

// A webhook's conditions: clauses on the event, all of which must hold for it to be sent. A clause names a dot path
// into what a full message's data holds (payload.newValue, summary.entityType, user, project; an array's items by
// index: payload.newValue.tags.0) and compares what is there with its value.

export const OPERATORS = [
  'eq',
  'ne',
  'in',
  'notIn',
  'contains',
  'gt',
  'gte',
  'lt',
  'lte',
  'exists',
  'missing',
] as const;
export type Operator = (typeof OPERATORS)[number];

export interface Condition {
  path: string;
  op: Operator;
  value?: unknown;
}

const ORDERED: Operator[] = ['gt', 'gte', 'lt', 'lte'];

function valueAt(data: unknown, path: string): unknown {
  let here = data;
  for (const key of path.split('.')) {
    if (here === null || typeof here !== 'object' || !Object.hasOwn(here, key)) return undefined;
    here = (here as Record<string, unknown>)[key];
  }
  return here;
}

/** Equal as JSON: objects key by key, in any order. */
function same(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keys = Object.keys(a);
  return (
    keys.length === Object.keys(b).length &&
    keys.every((key) => Object.hasOwn(b, key) && same((a as any)[key], (b as any)[key]))
  );
}

function compare(found: unknown, value: unknown): number | null {
  if (typeof found === 'number' && typeof value === 'number') return found - value;
  if (typeof found === 'string' && typeof value === 'string')
    return found < value ? -1 : found > value ? 1 : 0;
  return null;
}

function holds({ path, op, value }: Condition, data: unknown): boolean {
  const found = valueAt(data, path);
  switch (op) {
    case 'exists':
      return found !== undefined && found !== null;
    case 'missing':
      return found === undefined || found === null;
    case 'eq':
      return same(found, value);
    case 'ne':
      return !same(found, value);
    case 'in':
      return (value as unknown[]).some((item) => same(found, item));
    case 'notIn':
      return !(value as unknown[]).some((item) => same(found, item));
    case 'contains':
      if (typeof found === 'string') return typeof value === 'string' && found.includes(value);
      return Array.isArray(found) && found.some((item) => same(item, value));
    default: {
      const order = compare(found, value);
      if (order === null) return false;
      return op === 'gt' ? order > 0 : op === 'gte' ? order >= 0 : op === 'lt' ? order < 0 : order <= 0;
    }
  }
}

/** Whether every condition holds of a message's data (no conditions: always). */
export const allHold = (conditions: readonly Condition[], data: unknown) =>
  conditions.every((condition) => holds(condition, data));

/** Refuse conditions whose value cannot be compared as their operator says, naming the one at fault. */
export function checkConditions(conditions: readonly Condition[]): void {
  conditions.forEach(({ path, op, value }, index) => {
    const fail = (msg: string) => {
      throw new ValidationFailed(
        [{ loc: ['body', 'conditions', index], msg, type: 'value_error' }],
        `Condition ${index + 1}: ${msg}`,
      );
    };
    if (path.split('.').some((key) => key === '')) fail(`"${path}" is not a path: keys joined by dots`);
    if ((op === 'in' || op === 'notIn') && !Array.isArray(value))
      fail(`${op} compares with a list of values`);
    if (ORDERED.includes(op) && typeof value !== 'number' && typeof value !== 'string')
      fail(`${op} compares with a number or a text`);
    if ((op === 'exists' || op === 'missing') && value !== undefined) fail(`${op} takes no value`);
    if (!['exists', 'missing'].includes(op) && value === undefined) fail(`${op} needs a value`);
  });
}
