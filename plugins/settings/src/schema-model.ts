import {
  BadRequest,
  ValidationFailed,
  check,
  type SettingsDocument,
  type SettingsModel,
  type SiteSettingsModel,
  type TSchema,
} from '@pipewright/sdk';
import {
  applyOverrides,
  extractOverrides,
  listOverrides,
  markedKeys,
  pinPath,
  settingsDefaults,
  type Json,
  type SchemaNode,
} from './overrides.js';

// The settings model of an addon that declares a TypeBox schema (Pipewright's own addons, and AYON packages while
// their Python cannot run, from the schema and defaults saved at install): everything follows from the schema.

/** 422 with AYON's problem list when the value does not fit the schema (loc: the path inside the settings). */
function requireValid(schema: SchemaNode, value: Json): void {
  let problems;
  try {
    // The shared validator fills in defaults as it goes: give it a copy.
    problems = check(schema as TSchema, structuredClone(value), []);
  } catch (error) {
    // The addon's schema itself is unusable (an unknown format, a broken $ref): say so rather than fail with a 500.
    throw new BadRequest(`The settings schema cannot be used to check values: ${(error as Error).message}`);
  }
  if (problems.length === 0) return;
  const first = problems[0]!;
  throw new ValidationFailed(
    problems,
    `Invalid settings: ${first.loc.join('.') || 'settings'}: ${first.msg}`,
  );
}

function stackOf(schema: SchemaNode, layers: Json[]): Json[] {
  const stages = [settingsDefaults(schema)];
  for (const layer of layers) stages.push(applyOverrides(schema, stages[stages.length - 1]!, layer));
  return stages;
}

const last = (stages: Json[]) => stages[stages.length - 1]!;

export function schemaSettingsModel(schema: SchemaNode, title: string): SettingsModel {
  return {
    async schema() {
      return { ...(structuredClone(schema) as SettingsDocument), title };
    },
    async stack(layers) {
      return stackOf(schema, layers);
    },
    async extract(layers, own, payload, marks) {
      const inherited = last(stackOf(schema, layers));
      const next = applyOverrides(schema, applyOverrides(schema, inherited, own), payload);
      requireValid(schema, next);
      return extractOverrides(schema, inherited, next, markedKeys(own, marks.pins, marks.unpins));
    },
    async overrides(layers) {
      const map = {};
      let below = settingsDefaults(schema);
      for (const { level, data } of layers) {
        const current = applyOverrides(schema, below, data);
        Object.assign(map, listOverrides(schema, current, data, level));
        below = current;
      }
      return map;
    },
    async pin(layers, own, path) {
      const current = applyOverrides(schema, last(stackOf(schema, layers)), own);
      return pinPath(schema, current, own, path);
    },
  };
}

export function schemaSiteSettingsModel(schema: SchemaNode, title: string): SiteSettingsModel {
  return {
    async schema() {
      return { ...(structuredClone(schema) as SettingsDocument), title };
    },
    async values(stored) {
      return applyOverrides(schema, settingsDefaults(schema), stored);
    },
    async save(payload) {
      const defaults = settingsDefaults(schema);
      const values = applyOverrides(schema, defaults, payload);
      requireValid(schema, values);
      // Only what differs from the defaults: a new default in a new version reaches sites that kept the old one.
      return extractOverrides(schema, defaults, values, {});
    },
  };
}
