import type { FastifySchemaCompiler } from 'fastify';
import { createAjv } from '@pipewright/sdk';

/**
 * JSON bodies are taken as sent ({"name": 1} is not a string); query strings, path parameters and headers
 * arrive as text and are coerced to the schema's types, as FastAPI does.
 */
export function createValidatorCompiler(): FastifySchemaCompiler<any> {
  const bodyAjv = createAjv(false);
  const textAjv = createAjv(true);
  return ({ schema, httpPart }) => (httpPart === 'body' ? bodyAjv : textAjv).compile(schema as object) as any;
}
