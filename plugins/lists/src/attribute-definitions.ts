import { ValidationFailed, type Problem } from '@pipewright/sdk';
import type { ListAttributeDefinition } from './schemas.js';

type Json = Record<string, unknown>;

const DEFAULT_MATCHES: Record<string, (value: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  integer: (v) => Number.isInteger(v),
  float: (v) => typeof v === 'number',
  boolean: (v) => typeof v === 'boolean',
  datetime: (v) => typeof v === 'string' && !Number.isNaN(Date.parse(v)),
  list_of_strings: (v) => Array.isArray(v) && v.every((x) => typeof x === 'string'),
  list_of_integers: (v) => Array.isArray(v) && v.every((x) => Number.isInteger(x)),
  list_of_any: Array.isArray,
  list_of_submodels: Array.isArray,
  dict: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
};

/** The definition as stored: unset and null fields dropped (AYON stores exclude_unset, exclude_none), type filled. */
function normalise(definition: ListAttributeDefinition): ListAttributeDefinition {
  const data = Object.fromEntries(
    Object.entries(definition.data as Json).filter(([, value]) => value !== null && value !== undefined),
  );
  return { name: definition.name, data: { ...data, type: (data.type as string | undefined) ?? 'string' } };
}

/**
 * Check the custom attributes a list declares for its items: each name once, none shadowing a studio attribute
 * (a list item's attrib overrides the listed entity's attributes, so a clash would be ambiguous), a regex that
 * compiles, limits that leave room for a value, a default of the declared type. Answers them ready to store.
 */
export function checkDefinitions(
  definitions: ListAttributeDefinition[],
  studioNames: string[],
): ListAttributeDefinition[] {
  const problems: Problem[] = [];
  const studio = new Set(studioNames.map((name) => name.toLowerCase()));
  const seen = new Set<string>();
  const stored = definitions.map(normalise);
  stored.forEach((definition, i) => {
    const at = (...loc: string[]) => ['body', i, ...loc];
    const name = definition.name.toLowerCase();
    if (seen.has(name))
      problems.push({
        loc: at('name'),
        msg: `${definition.name} is defined more than once`,
        type: 'value_error.duplicate',
      });
    seen.add(name);
    if (studio.has(name))
      problems.push({
        loc: at('name'),
        msg: `Entity list attribute ${definition.name} cannot shadow an existing studio attribute`,
        type: 'value_error.shadowing',
      });
    const data = definition.data as Json;
    if (typeof data.regex === 'string') {
      try {
        new RegExp(data.regex);
      } catch {
        problems.push({
          loc: at('data', 'regex'),
          msg: 'not a valid regular expression',
          type: 'value_error.regex',
        });
      }
    }
    const pairs: [string, string][] = [
      ['minLength', 'maxLength'],
      ['minItems', 'maxItems'],
    ];
    for (const [low, high] of pairs) {
      if (
        typeof data[low] === 'number' &&
        typeof data[high] === 'number' &&
        (data[low] as number) > (data[high] as number)
      )
        problems.push({
          loc: at('data', low),
          msg: `${low} is greater than ${high}`,
          type: 'value_error.range',
        });
    }
    const lower = data.ge ?? data.gt;
    const upper = data.le ?? data.lt;
    if (typeof lower === 'number' && typeof upper === 'number' && lower > upper)
      problems.push({
        loc: at('data'),
        msg: 'the lower limit is above the upper limit',
        type: 'value_error.range',
      });
    if (data.default !== undefined && !DEFAULT_MATCHES[data.type as string]?.(data.default))
      problems.push({
        loc: at('data', 'default'),
        msg: `the default is not a ${String(data.type)} value`,
        type: 'value_error.default',
      });
  });
  if (problems.length)
    throw new ValidationFailed(
      problems,
      `Validation error: ${problems[0].loc.join('.')}: ${problems[0].msg}`,
    );
  return stored;
}

/** The definitions a list keeps in data.attributes, skipping entries that are not definitions (AYON does too). */
export function storedDefinitions(data: Json): ListAttributeDefinition[] {
  const raw = data.attributes;
  if (!Array.isArray(raw)) return [];
  return raw.filter(
    (entry): entry is ListAttributeDefinition =>
      typeof entry === 'object' &&
      entry !== null &&
      typeof (entry as Json).name === 'string' &&
      typeof (entry as Json).data === 'object' &&
      (entry as Json).data !== null,
  );
}
