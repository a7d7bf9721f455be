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

/**
 * The schema values are checked against: an empty enum (a choice whose options come from data, none yet, as an AYON
 * package's schema saved at install may hold) restricts nothing rather than refusing every value.
 */
function checkable(schema: SchemaNode): SchemaNode {
  return JSON.parse(JSON.stringify(schema), (_key, value) => {
    if (!Array.isArray(value?.enum) || value.enum.length > 0) return value;
    const { enum: _none, ...unrestricted } = value;
    return unrestricted;
  });
}

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

/** The schema as the editor shows it: titled after the addon, unless it carries a title of its own. */
function titled(schema: SchemaNode, title: string): SettingsDocument {
  return { ...(structuredClone(schema) as SettingsDocument), title: schema.title ?? title };
}

export function schemaSettingsModel(schema: SchemaNode, title: string): SettingsModel {
  const rules = checkable(schema);
  return {
    async schema() {
      return titled(schema, title);
    },
    async stack(layers) {
      return stackOf(schema, layers);
    },
    async extract(layers, own, payload, marks) {
      const inherited = last(stackOf(schema, layers));
      const next = applyOverrides(schema, applyOverrides(schema, inherited, own), payload);
      requireValid(rules, next);
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
  const rules = checkable(schema);
  return {
    async schema() {
      return titled(schema, title);
    },
    async values(stored) {
      return applyOverrides(schema, settingsDefaults(schema), stored);
    },
    async save(payload) {
      const defaults = settingsDefaults(schema);
      const values = applyOverrides(schema, defaults, payload);
      requireValid(rules, values);
      // Only what differs from the defaults: a new default in a new version reaches sites that kept the old one.
      return extractOverrides(schema, defaults, values, {});
    },
  };
}
