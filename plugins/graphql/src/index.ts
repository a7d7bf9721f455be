import mercurius, { type MercuriusContext } from 'mercurius';
import type { FastifyBaseLogger } from 'fastify';
import { GraphQLError } from 'graphql';
import { addonPackage, defineAddon, requireUser } from '@pipewright/sdk';
import { attribTypes } from './attrib-types.js';
import type { GraphContext } from './context.js';
import { explorerRoutes } from './routes.js';
import { withoutRestatedFields } from './extensions.js';
import { projectResolvers } from './project-resolvers.js';
import { checkCost, checkShape, MAX_TOKENS, REFUSAL_CODES } from './query-limits.js';
import { baseSdl } from './sdl.js';
import { studioSdl } from './studio-sdl.js';
import { studioResolvers } from './studio-resolvers.js';
import { attributesRef } from '@pipewright/plugin-attributes/api';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { eventLogRef } from '@pipewright/plugin-events/api';
import { graphqlRef } from './api.js';
import { linksRef } from '@pipewright/plugin-links/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { usersRef } from '@pipewright/plugin-users/api';
import type { GraphQLSchemaExtensions } from './api.js';

/**
 * GraphQL errors carry the HTTP status and code the REST API would answer, under extensions. A query that does
 * not validate (or goes over a limit) arrives as one error holding the list of problems; each becomes an error of
 * its own. An error the server did not expect (a database error, a bug) is logged, and its text, which may be
 * PostgreSQL's, stays in the log.
 */
function withStatus(error: GraphQLError, log: FastifyBaseLogger): object[] {
  const original = error.originalError as
    | { status?: number; errorCode?: string; problems?: unknown; errors?: unknown; statusCode?: number }
    | undefined;
  if (Array.isArray(original?.errors)) {
    return original.errors.map(
      (inner: { message: string; locations?: unknown; extensions?: Record<string, unknown> }) => ({
        message: inner.message,
        locations: inner.locations,
        extensions: { status: 400, code: 'invalid-query', ...inner.extensions },
      }),
    );
  }
  const extensions = { ...error.extensions };
  if (original?.status)
    Object.assign(extensions, {
      status: original.status,
      code: original.errorCode,
      ...(original.problems ? { errors: original.problems } : {}),
    });
  else if (unexpected(original)) {
    log.error({ err: original, path: error.path }, 'GraphQL resolver failed');
    const timedOut = (original as { code?: unknown }).code === QUERY_CANCELED;
    return [
      {
        message: timedOut
          ? 'The database cancelled a statement that ran longer than the statement timeout'
          : 'Internal server error',
        locations: error.locations,
        path: error.path,
        extensions: timedOut
          ? { status: 503, code: 'statement-timeout' }
          : { status: 500, code: 'internal-error' },
      },
    ];
  }
  return [{ ...error.toJSON(), extensions }];
}

// PostgreSQL's query_canceled: the statement timeout (or an operator) stopped the statement.
const QUERY_CANCELED = '57014';

/**
 * Errors the server raises on purpose are GraphQLErrors or carry a status (the sdk's errors, Fastify's 4xx);
 * anything else thrown while resolving is a failure whose message is not for the caller.
 */
function unexpected(original: { statusCode?: number } | undefined): original is object {
  if (!original || original instanceof GraphQLError) return false;
  return !(typeof original.statusCode === 'number' && original.statusCode < 500);
}

/** The operation a request names (POST body or GET query string), when it names one. */
function operationNameOf(context: MercuriusContext): string | undefined {
  const request = context.reply?.request;
  const source = (request?.method === 'GET' ? request.query : request?.body) as
    { operationName?: unknown } | undefined;
  return typeof source?.operationName === 'string' ? source.operationName : undefined;
}

// The project as pipeline tools read it: one request for a folder tree with its tasks, products and versions.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: {
    attributes: attributesRef,
    entities: entitiesRef,
    events: eventLogRef,
    links: linksRef,
    projects: projectsRef,
    users: usersRef,
  },
  async setup(ctx, deps) {
    const projects = deps.projects;
    const entities = deps.entities;
    const users = deps.users;
    const definitions = await deps.attributes.list();
    const attrib = attribTypes(definitions);
    const project = projectResolvers(entities, deps.links, projects, definitions);
    const studio = studioResolvers(users, projects, entities, deps.events);

    // Anonymous callers get 401 in the REST error shape before any GraphQL runs.
    ctx.app.addHook('preHandler', async (request) => {
      if (request.routeOptions.url === '/graphql') requireUser(request);
    });
    await ctx.app.register(mercurius, {
      schema: `${baseSdl}\n${studioSdl}\n${attrib.sdl}`,
      resolvers: {
        ...project.resolvers,
        ...attrib.resolvers,
        UserNode: studio.UserNode,
        // The project side answers project, projects and kanban.
        Query: { ...studio.Query, ...project.resolvers.Query },
      } as any,
      loaders: project.loaders as any,
      path: '/graphql',
      graphiql: false,
      // Relay connections take two levels (edges, node) per step down the hierarchy.
      queryDepth: 24,
      // Parsing stops early on a document far larger than any client sends (the limits below come after it).
      graphql: { parseOptions: { maxTokens: MAX_TOKENS } },
      context: (request): GraphContext => ({ caller: request.caller }),
      errorFormatter: (execution, context) => {
        const log = (context as MercuriusContext | undefined)?.reply?.log ?? ctx.log;
        const errors = execution.errors.flatMap((error) => withStatus(error, log));
        // A query that never ran (it did not parse or validate, or went over a limit) is the client's mistake: 400,
        // as one error or many.
        const refusedBeforeRunning = ['invalid-query', ...REFUSAL_CODES];
        const invalid =
          !execution.data && errors.every((e: any) => refusedBeforeRunning.includes(e.extensions?.code));
        const { statusCode } = mercurius.defaultErrorFormatter(execution, context as any);
        return {
          statusCode: invalid ? 400 : statusCode,
          response: { data: execution.data ?? null, errors } as any,
        };
      },
    });
    // Other addons add their types and fields once this schema exists (they depend on this addon).
    const graphql = ctx.app.graphql;
    // Limits on what one query may ask, checked on the parsed document: its size and aliases before validation
    // (a cached document was checked when first seen), its cost before any resolver runs, on every request since
    // page sizes may come from variables.
    const limits = ctx.server.graphql;
    graphql.addHook('preValidation', async (_schema, document) => checkShape(document, limits));
    graphql.addHook('preExecution', async (schema, document, context, variables) => {
      checkCost(schema, document, variables, operationNameOf(context), limits);
    });
    const extensions: GraphQLSchemaExtensions = {
      extend({ schema, resolvers, loaders }) {
        const added = schema ? withoutRestatedFields(schema, graphql.schema) : '';
        if (added) graphql.extendSchema(added);
        if (resolvers) graphql.defineResolvers(resolvers as any);
        if (loaders) graphql.defineLoaders(loaders as any);
      },
    };
    ctx.provide(graphqlRef, extensions);
    await ctx.app.register(explorerRoutes);
  },
});
