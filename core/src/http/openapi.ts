import type { FastifySchema } from 'fastify';

// How routes appear in /openapi.json. The server fills in defaults (Ajv useDefaults), so a request field or query
// parameter that has a default may be left out, although TypeBox lists it as required: the document says so, as
// AYON's does, and clients generated from it (the sdk's among them) do not have to send `canFail: false`. Answers
// are left alone: they always carry those fields. The validation schemas themselves are never changed.

type Schema = Record<string, unknown>;
const isSchema = (value: unknown): value is Schema => typeof value === 'object' && value !== null;

/** A copy of a request schema in which properties with a default are not required, at every depth. */
export function withOptionalDefaults(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withOptionalDefaults);
  if (!isSchema(schema)) return schema;
  const copy: Schema = { ...schema };
  const properties = isSchema(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    const required = schema.required.filter(
      (key) => !(isSchema(properties[key]) && 'default' in properties[key]),
    );
    if (required.length > 0) copy.required = required;
    else delete copy.required;
  }
  for (const key of ['properties', 'patternProperties']) {
    if (isSchema(schema[key]))
      copy[key] = Object.fromEntries(
        Object.entries(schema[key]).map(([name, value]) => [name, withOptionalDefaults(value)]),
      );
  }
  for (const key of ['items', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'not']) {
    if (key in schema) copy[key] = withOptionalDefaults(schema[key]);
  }
  return copy;
}

/** The swagger plugin's transform: request bodies and query strings documented with their defaults optional. */
export function documentRoute({ schema, url }: { schema: FastifySchema; url: string }) {
  if (!schema) return { schema, url };
  return {
    url,
    schema: {
      ...schema,
      ...(schema.body ? { body: withOptionalDefaults(schema.body) } : {}),
      ...(schema.querystring ? { querystring: withOptionalDefaults(schema.querystring) } : {}),
    },
  };
}
