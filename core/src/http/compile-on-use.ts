import type { FastifySchemaCompiler, FastifySerializerCompiler, FastifySchemaValidationError } from 'fastify';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';

// A route's validators and serializers are built the first time the route needs them, not at boot: a server mounts
// about a thousand schemas, most for routes a given process never answers, and building them all took half a
// second of every boot (a test core's included) and the memory of their generated code.

type Validator = ReturnType<FastifySchemaCompiler<any>> & {
  errors?: FastifySchemaValidationError[] | null;
  schemaEnv?: unknown;
};

/** Validators from `compile`, each built on its first call. */
export function validatorsOnFirstUse(compile: FastifySchemaCompiler<any>): FastifySchemaCompiler<any> {
  return (route) => {
    let built: Validator | undefined;
    const validate: Validator = (data: unknown, context?: unknown) => {
      built ??= compile(route) as Validator;
      // Ajv's validators take the parent as a second argument (the type Fastify declares leaves it out).
      const result = built.schemaEnv ? (built as (...args: unknown[]) => any)(data, context) : built(data);
      validate.errors = built.errors;
      return result;
    };
    validate.errors = null;
    // Fastify passes the parent (so that coercion can replace a root value) only to a validator that says it is Ajv's.
    validate.schemaEnv = true;
    return validate;
  };
}

/** Fastify's own response serializers (fast-json-stringify), each built on its first call. */
export function serializersOnFirstUse(): FastifySerializerCompiler<unknown> {
  const compile = SerializerSelector()({}, {});
  return ({ schema, method, url, httpStatus = 'default' }) => {
    let built: ((data: unknown) => string) | undefined;
    return (data: unknown) => (built ??= compile({ schema, method, url, httpStatus }))(data);
  };
}
