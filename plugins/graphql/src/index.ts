import mercurius from 'mercurius';
import { GraphQLError } from 'graphql';
import { defineAddon, requireUser } from '@pipewright/sdk';
import { attribTypes } from './attrib-types.js';
import type { GraphContext } from './context.js';
import { explorerRoutes } from './explorer.js';
import { withoutRestatedFields, type GraphQLSchemaExtensions } from './extensions.js';
import { projectResolvers } from './project-resolvers.js';
import { baseSdl } from './sdl.js';
import { studioSdl } from './studio-sdl.js';
import { studioResolvers } from './studio-resolvers.js';

/**
 * GraphQL errors carry the HTTP status and code the REST API would answer, under extensions. A query that does
 * not validate arrives as one error holding the list of problems; each becomes an error of its own.
 */
function withStatus(error: GraphQLError): object[] {
  const original = error.originalError as
    { status?: number; errorCode?: string; problems?: unknown; errors?: unknown } | undefined;
  if (Array.isArray(original?.errors)) {
    return original.errors.map((inner: { message: string; locations?: unknown }) => ({
      message: inner.message,
      locations: inner.locations,
      extensions: { status: 400, code: 'invalid-query' },
    }));
  }
  const extensions = { ...error.extensions };
  if (original?.status)
    Object.assign(extensions, {
      status: original.status,
      code: original.errorCode,
      ...(original.problems ? { errors: original.problems } : {}),
    });
  return [{ ...error.toJSON(), extensions }];
}

// The project as pipeline tools read it: one request for a folder tree with its tasks, products and versions.
export default defineAddon({
  name: 'graphql',
  version: '1.0.0',
  title: 'GraphQL',
  description: 'GraphQL over projects, entities, links, users and events, with an offline explorer',
  dependsOn: ['projects', 'entities', 'attributes', 'users', 'links'],
  async setup(ctx) {
    const projects = ctx.use('projects');
    const entities = ctx.use('entities');
    const users = ctx.use('users');
    const definitions = await ctx.use('attributes').list();
    const attrib = attribTypes(definitions);
    const project = projectResolvers(entities, ctx.use('links'), projects, definitions);
    const studio = studioResolvers(ctx.db, users, projects, entities);

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
      context: (request): GraphContext => ({ caller: requireUser(request) }),
      errorFormatter: (execution, context) => {
        const errors = execution.errors.flatMap(withStatus);
        // A query that never ran (it did not parse or validate) is the client's mistake: 400, as one error or many.
        const invalid = !execution.data && errors.every((e: any) => e.extensions?.code === 'invalid-query');
        const { statusCode } = mercurius.defaultErrorFormatter(execution, context as any);
        return {
          statusCode: invalid ? 400 : statusCode,
          response: { data: execution.data ?? null, errors } as any,
        };
      },
    });
    // Other addons add their types and fields once this schema exists (they depend on this addon).
    const graphql = ctx.app.graphql;
    const extensions: GraphQLSchemaExtensions = {
      extend({ schema, resolvers, loaders }) {
        const added = schema ? withoutRestatedFields(schema, graphql.schema) : '';
        if (added) graphql.extendSchema(added);
        if (resolvers) graphql.defineResolvers(resolvers as any);
        if (loaders) graphql.defineLoaders(loaders as any);
      },
    };
    ctx.provide('graphql', extensions);
    await ctx.app.register(explorerRoutes);
  },
});
