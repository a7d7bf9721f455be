import { createServiceRef } from '@pipewright/sdk';
import type { GraphQLContribution } from './extensions.js';

/**
 * Provided by the graphql addon: the one GraphQL schema at /graphql, which addons that name graphqlRef in their
 * deps extend from their setup (inbox and activities, entity lists, ...), so the schema stays one document
 * whichever addons run.
 */
export interface GraphQLSchemaExtensions {
  /** Add types, fields and resolvers; a schema that does not validate throws, and the addon's setup fails. */
  extend(contribution: GraphQLContribution): void;
}

/** A page of a Relay connection, as the GraphQL API answers lists (edges and pageInfo). */
export interface Connection<T> {
  edges: { node: T; cursor: string }[];
  pageInfo: {
    hasNextPage: boolean;
    hasPreviousPage: boolean;
    startCursor: string | null;
    endCursor: string | null;
  };
}

/** The graphql service of the graphql addon. */
export const graphqlRef = createServiceRef<GraphQLSchemaExtensions>({ addon: 'graphql', id: 'graphql' });
