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
  /** SDL: new types, and `extend type X { ... }` blocks that add fields to existing types. */
  schema?: string;
  /** Resolvers by type and field, for what the schema adds, or replacing the resolver of an existing field. */
  resolvers?: Record<string, Record<string, ContributedResolver>>;
  /** Loaders by type and field, for fields read for many parents at once (nested connections). */
  loaders?: Record<string, Record<string, ContributedLoader>>;
}

/**
 * Provided by the graphql addon: the one GraphQL schema at /graphql, which addons that declare "graphql" in
 * dependsOn extend from their setup (inbox and activities, entity lists, ...), so the schema stays one document
 * whichever addons run.
 */
export interface GraphQLSchemaExtensions {
  /** Add types, fields and resolvers; a schema that does not validate throws, and the addon's setup fails. */
  extend(contribution: GraphQLContribution): void;
}

declare module '@pipewright/sdk' {
  interface ServiceMap {
    graphql: GraphQLSchemaExtensions;
  }
}
