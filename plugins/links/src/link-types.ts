import { BadRequest, PROJECT_ENTITY_TYPES, type ProjectEntityType } from '@pipewright/sdk';

type Json = Record<string, unknown>;

/** A project's link type as stored with the project (snake_case, as in AYON's database). */
export type LinkTypeRecord = {
  name: string;
  link_type: string;
  input_type: string;
  output_type: string;
  data: Json;
};

// What the anatomy gives a link type that does not say how it is drawn; kept the same so a type saved here and
// one deployed from an anatomy look alike.
export const DEFAULT_COLOR = '#9e9e9e';
export const DEFAULT_STYLE = 'solid';

/**
 * The three parts of "type|input|output", by AYON's rule for a link type named in a path or a body: exactly three
 * parts, both ends entity types, the type's own name free. Anything else is a 400 with AYON's words.
 */
export function splitLinkType(name: string): {
  type: string;
  input: ProjectEntityType;
  output: ProjectEntityType;
} {
  const parts = name.split('|');
  // A slash cannot be part of a name AYON routes; here the wildcard segment would take it.
  if (parts.length !== 3 || name.includes('/'))
    throw new BadRequest("Link type must be in the format 'name|input_type|output_type'", 'bad-link-type');
  const [type, input, output] = parts;
  const ends = PROJECT_ENTITY_TYPES as readonly string[];
  if (!ends.includes(input) || !ends.includes(output))
    throw new BadRequest(
      `Link type input and output types must be one of ${ends.join(', ')}`,
      'bad-link-type',
    );
  return { type, input: input as ProjectEntityType, output: output as ProjectEntityType };
}

/** A project's link type item, whole: rows written by hand may carry only the name or only the three parts. */
export function normalise(item: Json): LinkTypeRecord {
  const fromName = typeof item.name === 'string' ? item.name.split('|') : [];
  // AYON's model takes its fields by name or by alias: link_type or linkType.
  const part = (field: string, alias: string, index: number) => {
    const value = item[field] ?? item[alias];
    return typeof value === 'string' ? value : (fromName[index] ?? '');
  };
  const linkType = part('link_type', 'linkType', 0);
  const inputType = part('input_type', 'inputType', 1);
  const outputType = part('output_type', 'outputType', 2);
  const name =
    typeof item.name === 'string' && item.name ? item.name : `${linkType}|${inputType}|${outputType}`;
  const data =
    item.data && typeof item.data === 'object' && !Array.isArray(item.data) ? (item.data as Json) : {};
  return { name, link_type: linkType, input_type: inputType, output_type: outputType, data };
}
