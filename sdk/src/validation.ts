import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { Problem } from './errors.js';

// Report every problem at once, fill in defaults, and drop keys a closed object does not know: AYON's pydantic
// models ignore unknown fields, and clients send fields newer servers have.
const OPTIONS: Options = { allErrors: true, removeAdditional: true, useDefaults: true, strict: false, coerceTypes: false };

/** An Ajv instance with the options every Pipewright validator uses; coerce for text inputs (query, path, headers). */
export function createAjv(coerce = false): Ajv {
  const ajv = new Ajv({ ...OPTIONS, coerceTypes: coerce ? 'array' : false });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

/** Ajv findings as FastAPI-style problems located under loc: ["body", "attrib", "fps"]. */
export function toProblems(loc: (string | number)[], errors: Pick<ErrorObject, 'instancePath' | 'keyword' | 'message' | 'params'>[]): Problem[] {
  return errors.map((error) => {
    const at: (string | number)[] = [...loc];
    for (const part of error.instancePath.split('/').filter(Boolean)) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      at.push(/^\d+$/.test(key) ? Number(key) : key);
    }
    const params = error.params as Record<string, unknown>;
    const extra = params.missingProperty ?? params.additionalProperty;
    if (typeof extra === 'string') at.push(extra);
    const msg = error.keyword === 'additionalProperties' ? `unknown field '${String(extra)}'` : (error.message ?? 'invalid value');
    return { loc: at, msg, type: error.keyword };
  });
}

const shared = createAjv();
const compiled = new WeakMap<TSchema, ValidateFunction>();

/** Check a value against a TypeBox schema outside a route (operation payloads, documents); [] when valid. */
export function check(schema: TSchema, value: unknown, loc: (string | number)[]): Problem[] {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = shared.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) ? [] : toProblems(loc, validate.errors ?? []);
}
