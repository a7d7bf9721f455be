import type { FastifySchemaCompiler } from 'fastify';
import type { ValidateFunction } from 'ajv';
import { camelize, createAjv } from '@pipewright/sdk';

type Schema = Record<string, any>;

/**
 * Every route's input is read as AYON's pydantic models read it, here and nowhere else:
 * - JSON bodies are taken as sent ({"name": 1} is not a string); fields a closed object does not know are dropped
 *   (the shared Ajv options), and snake_case names are accepted for camelCase fields (folder_type for folderType).
 * - Query strings, path parameters and headers arrive as text and are coerced to the schema's types, booleans as
 *   FastAPI reads them (1/0, true/false, yes/no, on/off).
 * An empty body with a JSON content type is no body (see the JSON parser in server.ts).
 */
export function createValidatorCompiler(): FastifySchemaCompiler<any> {
  const bodyAjv = createAjv(false);
  const textAjv = createAjv(true);
  return ({ schema, httpPart }) => {
    if (httpPart === 'body') {
      const validate = bodyAjv.compile(schema as object);
      return withErrors(validate, (data) => acceptSnakeCase(schema as Schema, data));
    }
    const validate = textAjv.compile(schema as object);
    const flags = booleanProperties(schema as Schema);
    return flags.length ? withErrors(validate, (data) => readBooleans(flags, data)) : validate;
  };
}

/** A validator that prepares the input first and reports the inner validator's errors as its own. */
function withErrors(validate: ValidateFunction, prepare: (data: unknown) => void) {
  const prepared = (data: unknown, context?: Parameters<ValidateFunction>[1]) => {
    prepare(data);
    const valid = validate(data, context);
    prepared.errors = validate.errors;
    return valid;
  };
  prepared.errors = null as ValidateFunction['errors'];
  // Fastify hands Ajv validators the request as the root's parent, so coercion can replace a root value.
  prepared.schemaEnv = validate.schemaEnv;
  return prepared;
}

/** The schemas an object value may match: its own, or the object branches of a union or intersection. */
function objectShapes(schema: Schema | undefined): Schema[] {
  if (!schema || typeof schema !== 'object') return [];
  const branches = [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])] as Schema[];
  return [...(schema.properties ? [schema] : []), ...branches.flatMap(objectShapes)];
}

/** Rename snake_case keys to the camelCase fields the schema declares, at every depth the schema describes. */
function acceptSnakeCase(schema: Schema, value: unknown): void {
  if (Array.isArray(value)) {
    if (schema?.items && typeof schema.items === 'object')
      for (const item of value) acceptSnakeCase(schema.items, item);
    return;
  }
  if (!value || typeof value !== 'object') return;
  const record = value as Record<string, unknown>;
  for (const shape of objectShapes(schema)) {
    const properties = shape.properties as Record<string, Schema>;
    for (const key of Object.keys(record)) {
      if (!key.includes('_')) continue;
      const camel = camelize(key);
      if (camel !== key && camel in properties && !(camel in record)) {
        record[camel] = record[key];
        delete record[key];
      }
    }
    for (const [key, inner] of Object.entries(properties)) {
      if (record[key] !== null && typeof record[key] === 'object') acceptSnakeCase(inner, record[key]);
    }
  }
}

/** Top-level properties that are booleans (possibly nullable), read from text. */
function booleanProperties(schema: Schema): string[] {
  const properties = (schema?.properties ?? {}) as Record<string, Schema>;
  const isBoolean = (s: Schema): boolean =>
    s.type === 'boolean' ||
    (Array.isArray(s.type) && s.type.includes('boolean')) ||
    [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(isBoolean);
  return Object.keys(properties).filter((key) => isBoolean(properties[key]));
}

const TRUE = new Set(['1', 'true', 'yes', 'on', 't', 'y']);
const FALSE = new Set(['0', 'false', 'no', 'off', 'f', 'n']);

function readBooleans(keys: string[], data: unknown): void {
  if (!data || typeof data !== 'object') return;
  const record = data as Record<string, unknown>;
  for (const key of keys) {
    const raw = record[key];
    if (typeof raw !== 'string') continue;
    const text = raw.toLowerCase();
    if (TRUE.has(text)) record[key] = true;
    else if (FALSE.has(text)) record[key] = false;
  }
}
