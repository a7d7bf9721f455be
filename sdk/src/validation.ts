import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema } from '@sinclair/typebox';
import type { Problem } from './errors.js';

// Report every problem at once and fill in defaults.
const OPTIONS: Options = { allErrors: true, useDefaults: true, strict: false, coerceTypes: false };

/**
 * An Ajv instance with the options every Pipewright validator uses; coerce for text inputs (query, path, headers).
 * Keys a closed object (additionalProperties: false) does not know are dropped, as AYON's pydantic models ignore
 * unknown fields and clients send fields newer servers have, unless unknownFields is 'refuse'.
 */
export function createAjv(coerce = false, unknownFields: UnknownFields = 'ignore'): Ajv {
  const ajv = new Ajv({
    ...OPTIONS,
    coerceTypes: coerce ? 'array' : false,
    removeAdditional: unknownFields === 'ignore',
  });
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return ajv;
}

/** Ajv findings as FastAPI-style problems located under loc: ["body", "attrib", "fps"]. */
export function toProblems(
  loc: (string | number)[],
  errors: Pick<ErrorObject, 'instancePath' | 'keyword' | 'message' | 'params'>[],
): Problem[] {
  return errors.map((error) => {
    const at: (string | number)[] = [...loc];
    for (const part of error.instancePath.split('/').filter(Boolean)) {
      const key = part.replaceAll('~1', '/').replaceAll('~0', '~');
      at.push(/^\d+$/.test(key) ? Number(key) : key);
    }
    const params = error.params as Record<string, unknown>;
    const extra = params.missingProperty ?? params.additionalProperty;
    if (typeof extra === 'string') at.push(extra);
    const msg =
      error.keyword === 'additionalProperties'
        ? `unknown field '${String(extra)}'`
        : (error.message ?? 'invalid value');
    return { loc: at, msg, type: error.keyword };
  });
}

/** Whether fields a closed object does not know are dropped (input from clients, as AYON does) or reported. */
export type UnknownFields = 'ignore' | 'refuse';

const validators = {
  ignore: { ajv: createAjv(), compiled: new WeakMap<TSchema, ValidateFunction>() },
  // For files an operator writes (a catalogue, a configuration): a misspelt key should be pointed out, not lost.
  refuse: { ajv: createAjv(false, 'refuse'), compiled: new WeakMap<TSchema, ValidateFunction>() },
};

/**
 * Check a value against a TypeBox schema outside a route (operation payloads, documents); [] when valid. Unknown
 * fields are dropped from the value unless `unknownFields` is 'refuse'.
 */
export function check(
  schema: TSchema,
  value: unknown,
  loc: (string | number)[],
  unknownFields: UnknownFields = 'ignore',
): Problem[] {
  const { ajv, compiled } = validators[unknownFields];
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate(value) ? [] : toProblems(loc, validate.errors ?? []);
}
