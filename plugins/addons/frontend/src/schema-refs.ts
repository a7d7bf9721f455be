/** The part of JSON Schema that addon settings schemas (TypeBox) use. */
export interface JsonSchema {
  type?: string | string[];
  title?: string;
  description?: string;
  default?: unknown;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  [keyword: string]: unknown;
}

// AYON packages' settings schemas are pydantic's: each sub-model is written once under `definitions` and pointed at
// with `$ref`, wrapped in `allOf` when the field adds a title or a default. The form reads plain nested schemas, so
// the pointers are replaced by what they point at before it is built; the field's own keywords win.

type Definitions = Record<string, JsonSchema>;

function target(ref: unknown, definitions: Definitions): [string, JsonSchema] | null {
  if (typeof ref !== 'string') return null;
  const name = /^#\/(?:definitions|\$defs)\/(.+)$/.exec(ref)?.[1];
  return name && definitions[name] ? [name, definitions[name]] : null;
}

function inline(schema: JsonSchema, definitions: Definitions, within: ReadonlySet<string>): JsonSchema {
  let node = schema;
  // A lone allOf member is the field's type, as pydantic writes a sub-model field with extras.
  if (Array.isArray(node.allOf) && node.allOf.length === 1) {
    const { allOf, ...own } = node;
    node = { ...(allOf as JsonSchema[])[0], ...own };
  }
  const found = target(node.$ref, definitions);
  // A model that contains itself stays a pointer (edited as JSON) rather than unfolding forever.
  if (found && !within.has(found[0])) {
    const { $ref: _ref, ...own } = node;
    return inline({ ...found[1], ...own }, definitions, new Set([...within, found[0]]));
  }
  const result: JsonSchema = { ...node };
  if (node.properties) {
    result.properties = Object.fromEntries(
      Object.entries(node.properties).map(([key, child]) => [key, inline(child, definitions, within)]),
    );
  }
  if (node.items) result.items = inline(node.items, definitions, within);
  return result;
}

/** The schema with every `$ref` into its definitions replaced by the definition itself. */
export function inlineReferences(schema: JsonSchema): JsonSchema {
  const definitions = { ...(schema.$defs as Definitions), ...(schema.definitions as Definitions) };
  if (Object.keys(definitions).length === 0) return schema;
  const { definitions: _definitions, $defs: _defs, ...root } = schema;
  return inline(root, definitions, new Set());
}
