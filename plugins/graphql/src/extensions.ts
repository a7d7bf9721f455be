import {
  Kind,
  isInterfaceType,
  isObjectType,
  parse,
  print,
  type DefinitionNode,
  type FieldDefinitionNode,
  type GraphQLField,
  type GraphQLSchema,
} from 'graphql';
import type { GraphContext } from './context.js';

/** A resolver another addon contributes: (parent, arguments, context with the caller, info). */
export type ContributedResolver = (parent: any, args: any, context: GraphContext, info: any) => unknown;

/** A mercurius loader: the same field of many parents resolved at once, one answer per query, in order. */
export type ContributedLoader = (
  queries: { obj: any; params: any }[],
  context: GraphContext,
) => Promise<unknown[]>;

/** What an addon adds to the GraphQL schema. */
export interface GraphQLContribution {
  /**
   * SDL: new types, and `extend type X { ... }` blocks that add fields to existing types. A field the schema
   * already declares with the same type and arguments may be restated (it is then left out), so an addon can
   * resolve a field of the base schema, such as BaseNode's activities, and still read whole on its own.
   */
  schema?: string;
  /** Resolvers by type and field, for what the schema adds, or replacing the resolver of an existing field. */
  resolvers?: Record<string, Record<string, ContributedResolver>>;
  /** Loaders by type and field, for fields read for many parents at once (nested connections). */
  loaders?: Record<string, Record<string, ContributedLoader>>;
}

/** Whether a field definition says what the schema's field already says (type and arguments; defaults aside). */
function restates(existing: GraphQLField<unknown, unknown> | undefined, field: FieldDefinitionNode): boolean {
  if (!existing || String(existing.type) !== print(field.type)) return false;
  const args = field.arguments ?? [];
  return (
    args.length === existing.args.length &&
    args.every((arg) =>
      existing.args.some((have) => have.name === arg.name.value && String(have.type) === print(arg.type)),
    )
  );
}

/** A contribution's SDL without the fields it restates from the schema (see GraphQLContribution.schema). */
export function withoutRestatedFields(sdl: string, schema: GraphQLSchema): string {
  const document = parse(sdl);
  const definitions = document.definitions.flatMap((definition): DefinitionNode[] => {
    if (definition.kind !== Kind.OBJECT_TYPE_EXTENSION && definition.kind !== Kind.INTERFACE_TYPE_EXTENSION)
      return [definition];
    const type = schema.getType(definition.name.value);
    if (!isObjectType(type) && !isInterfaceType(type)) return [definition];
    const have = type.getFields();
    const fields = (definition.fields ?? []).filter((field) => !restates(have[field.name.value], field));
    if (fields.length === (definition.fields ?? []).length) return [definition];
    if (!fields.length && !definition.interfaces?.length && !definition.directives?.length) return [];
    return [{ ...definition, fields } as DefinitionNode];
  });
  return definitions.length ? print({ ...document, definitions }) : '';
}
