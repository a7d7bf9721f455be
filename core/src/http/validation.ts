import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

// Report every problem at once, never drop unknown keys silently, fill in defaults.
const common: Options = { allErrors: true, removeAdditional: false, useDefaults: true, strict: false, coerceTypes: false };

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ ...common, ...options });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

/**
 * JSON bodies are taken as sent ({"name": 1} is not a string); query strings, path parameters and headers
 * arrive as text and are coerced to the schema's types, as FastAPI does.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<any> {
  const bodyAjv = makeAjv({});
  const textAjv = makeAjv({ coerceTypes: 'array' });
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? bodyAjv : textAjv;
    return ajv.compile(schema as object) as any;
  };
}
