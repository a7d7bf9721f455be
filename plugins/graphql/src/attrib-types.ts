import type { AttributeDefinition, AttributeScope, AttributeType } from '@pipewright/plugin-attributes/api';

/** Scopes that get a typed attrib object, and the GraphQL type each one is exposed as. */
export const ATTRIB_TYPES: Record<Exclude<AttributeScope, 'list'>, string> = {
  project: 'ProjectAttribType',
  folder: 'FolderAttribType',
  task: 'TaskAttribType',
  product: 'ProductAttribType',
  version: 'VersionAttribType',
  representation: 'RepresentationAttribType',
  workfile: 'WorkfileAttribType',
  user: 'UserAttribType',
};

// Structured values have no GraphQL shape of their own: they travel as JSON text, as allAttrib does.
const AS_JSON = new Set<AttributeType>(['list_of_any', 'list_of_submodels', 'dict']);

const GRAPHQL_TYPE: Record<AttributeType, string> = {
  string: 'String',
  integer: 'Int',
  float: 'Float',
  boolean: 'Boolean',
  datetime: 'String',
  list_of_strings: '[String!]',
  list_of_integers: '[Int!]',
  list_of_any: 'String',
  list_of_submodels: 'String',
  dict: 'String',
};

const GRAPHQL_NAME = /^[_a-zA-Z][_a-zA-Z0-9]*$/;

/**
 * The attrib object types, generated from the attribute library when the server starts (a changed definition
 * needs a restart to show here, as in AYON), with resolvers for the fields that carry JSON text.
 */
export function attribTypes(definitions: AttributeDefinition[]): {
  sdl: string;
  resolvers: Record<string, Record<string, (attrib: Record<string, unknown>) => unknown>>;
} {
  const blocks: string[] = [];
  const resolvers: Record<string, Record<string, (attrib: Record<string, unknown>) => unknown>> = {};
  for (const [scope, typeName] of Object.entries(ATTRIB_TYPES)) {
    const fields = definitions.filter(
      (d) => d.scope.includes(scope as AttributeScope) && GRAPHQL_NAME.test(d.name),
    );
    // An object type needs a field; a scope without attributes still answers attrib { _empty }.
    const lines = fields.length
      ? fields.map((d) => `  ${d.name}: ${GRAPHQL_TYPE[d.data.type] ?? 'String'}`)
      : ['  _empty: Boolean'];
    blocks.push(`type ${typeName} {\n${lines.join('\n')}\n}`);
    for (const d of fields.filter((f) => AS_JSON.has(f.data.type))) {
      (resolvers[typeName] ??= {})[d.name] = (attrib) =>
        attrib[d.name] === undefined ? null : JSON.stringify(attrib[d.name]);
    }
  }
  return { sdl: blocks.join('\n\n'), resolvers };
}
