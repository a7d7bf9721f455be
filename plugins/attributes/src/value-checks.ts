import type { Problem } from '@pipewright/sdk';
import type { AttributeData } from './api.js';

// Checks of attribute values against a definition's data (its type, limits, pattern and enum), and of a
// definition itself. No storage here: the library runs them with patterns it compiled once.

type Loc = (string | number)[];

const ISO_DATETIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?)?$/i;

// Date.parse alone would accept 2025-02-31 (it rolls over into March), so the calendar is checked by hand.
function isIsoDatetime(value: string): boolean {
  const match = ISO_DATETIME.exec(value);
  if (!match) return false;
  const [year, month, day, hour = 0, minute = 0, second = 0] = match
    .slice(1)
    .map((part) => (part === undefined ? undefined : Number(part)));
  if (month! < 1 || month! > 12 || hour! > 23 || minute! > 59 || second! > 59) return false;
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate();
  return day! >= 1 && day! <= daysInMonth && !Number.isNaN(Date.parse(value));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const ITEM_CHECKS: Partial<Record<AttributeData['type'], [test: (item: unknown) => boolean, msg: string]>> = {
  list_of_strings: [(item) => typeof item === 'string', 'must be a string'],
  list_of_integers: [(item) => Number.isInteger(item), 'must be an integer'],
  list_of_submodels: [isPlainObject, 'must be an object'],
};

function typeProblem(type: AttributeData['type'], value: unknown, loc: Loc): Problem[] {
  const wrong = (msg: string, kind = 'type'): Problem[] => [{ loc, msg, type: kind }];
  switch (type) {
    case 'string':
      return typeof value === 'string' ? [] : wrong('must be a string');
    case 'integer':
      return Number.isInteger(value) ? [] : wrong('must be an integer');
    case 'float':
      return typeof value === 'number' && Number.isFinite(value) ? [] : wrong('must be a number');
    case 'boolean':
      return typeof value === 'boolean' ? [] : wrong('must be true or false');
    case 'datetime':
      if (typeof value !== 'string') return wrong('must be an ISO 8601 date and time string');
      return isIsoDatetime(value) ? [] : wrong('must be an ISO 8601 date and time', 'format');
    case 'dict':
      return isPlainObject(value) ? [] : wrong('must be an object');
    default: {
      if (!Array.isArray(value)) return wrong('must be a list');
      const itemCheck = ITEM_CHECKS[type];
      if (!itemCheck) return [];
      const [test, msg] = itemCheck;
      return value.flatMap((item, index) =>
        test(item) ? [] : [{ loc: [...loc, index], msg, type: 'type' }],
      );
    }
  }
}

const sameValue = (a: unknown, b: unknown) => a === b || JSON.stringify(a) === JSON.stringify(b);

/** Compile a definition's regex; null when it has none. Throws SyntaxError for a pattern JavaScript cannot compile. */
export function compilePattern(regex: string | null | undefined): RegExp | null {
  return regex ? new RegExp(regex) : null;
}

/**
 * Problems of one value against a definition's data. The type is checked first: limits are meaningless on a
 * value of the wrong type. pattern may be passed precompiled (the library caches it).
 */
export function checkValue(
  data: AttributeData,
  value: unknown,
  loc: Loc,
  pattern: RegExp | null = safePattern(data.regex),
): Problem[] {
  const typeProblems = typeProblem(data.type, value, loc);
  if (typeProblems.length) return typeProblems;
  const problems: Problem[] = [];
  const add = (msg: string, type: string) => problems.push({ loc, msg, type });

  if (typeof value === 'number') {
    if (data.gt != null && !(value > data.gt)) add(`must be greater than ${data.gt}`, 'exclusiveMinimum');
    if (data.ge != null && !(value >= data.ge)) add(`must be greater than or equal to ${data.ge}`, 'minimum');
    if (data.lt != null && !(value < data.lt)) add(`must be less than ${data.lt}`, 'exclusiveMaximum');
    if (data.le != null && !(value <= data.le)) add(`must be less than or equal to ${data.le}`, 'maximum');
  }
  if (typeof value === 'string') {
    if (data.minLength != null && value.length < data.minLength)
      add(`must have at least ${data.minLength} characters`, 'minLength');
    if (data.maxLength != null && value.length > data.maxLength)
      add(`must have at most ${data.maxLength} characters`, 'maxLength');
    if (pattern && !pattern.test(value)) add(`must match ${data.regex}`, 'pattern');
  }
  if (Array.isArray(value)) {
    if (data.minItems != null && value.length < data.minItems)
      add(`must have at least ${data.minItems} items`, 'minItems');
    if (data.maxItems != null && value.length > data.maxItems)
      add(`must have at most ${data.maxItems} items`, 'maxItems');
  }
  if (data.enum?.length) {
    const allowed = data.enum.map((item) => item.value);
    const msg = `must be one of: ${allowed.map((v) => JSON.stringify(v)).join(', ')}`;
    // For lists the enum lists what each item may be (a multi-select).
    if (Array.isArray(value)) {
      value.forEach((item, index) => {
        if (!allowed.some((v) => sameValue(v, item)))
          problems.push({ loc: [...loc, index], msg, type: 'enum' });
      });
    } else if (!allowed.some((v) => sameValue(v, value))) {
      add(msg, 'enum');
    }
  }
  return problems;
}

/** A definition's regex compiled, or null when it has none or it does not compile. */
export function safePattern(regex: string | null | undefined): RegExp | null {
  try {
    return compilePattern(regex);
  } catch {
    return null;
  }
}

/** Problems of a definition that a schema cannot see: a regex that does not compile, a default breaking its own rules. */
export function checkDefinition(data: AttributeData, loc: Loc): Problem[] {
  let pattern: RegExp | null = null;
  try {
    pattern = compilePattern(data.regex);
  } catch (error) {
    return [
      {
        loc: [...loc, 'regex'],
        msg: `is not a valid regular expression: ${(error as Error).message}`,
        type: 'regex',
      },
    ];
  }
  if (data.default === undefined || data.default === null) return [];
  return checkValue(data, data.default, [...loc, 'default'], pattern);
}
