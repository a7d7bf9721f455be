import { NotFound, Unauthorized } from '@pipewright/sdk';
import type { EntityDirectory, ProductTypeRecord } from '@pipewright/plugin-entities/api';
import type { EventLogReader } from '@pipewright/plugin-events/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import { readPage, toConnection, type PageArgs } from './connection.js';
import type { GraphContext } from './context.js';
import { listEvents, type EventListArgs } from './event-listing.js';
import { listUsers, type UserListArgs } from './user-listing.js';
import { userNodeResolvers, type UserNodeSource } from './user-nodes.js';

/** The root fields of the studio side (users, events, inbox, product types) and the UserNode type. */
export function studioResolvers(
  users: UserDirectory,
  projects: ProjectDirectory,
  entities: EntityDirectory,
  log: EventLogReader,
) {
  return {
    Query: {
      users: (_: unknown, args: UserListArgs, ctx: GraphContext) => listUsers(users, ctx.caller, args),
      user: async (_: unknown, { name }: { name: string }, ctx: GraphContext) => {
        // AYON looks one user up through the users listing, with its permission check.
        const found = await listUsers(users, ctx.caller, { name, first: 1 });
        const user = found.edges[0]?.node;
        if (!user) throw new NotFound('User not found', 'user-not-found');
        return user;
      },
      me: async (_: unknown, __: unknown, ctx: GraphContext) => {
        const user = await users.get(ctx.caller.name);
        if (!user) throw new Unauthorized('Not logged in');
        return user;
      },
      events: (_: unknown, args: EventListArgs, ctx: GraphContext) => listEvents(log, ctx.caller, args),
      // The activities addon answers the inbox; without it there are no messages.
      inbox: (_: unknown, args: PageArgs) => toConnection([], false, readPage({ last: args.last })),
      productTypes: async (_: unknown, __: unknown, ctx: GraphContext) => {
        const seen = new Map<string, ProductTypeRecord>();
        for (const name of await projects.visibleNames(ctx.caller))
          for (const type of await entities.productTypes(name))
            if (!seen.has(type.name)) seen.set(type.name, type);
        return [...seen.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      },
    },
    UserNode: {
      ...userNodeResolvers,
      // AYON's user.tasks: the tasks of a project assigned to the user (first 100).
      tasks: async (user: UserNodeSource, args: { projectName: string }, ctx: GraphContext) => {
        const project = await projects.require(ctx.caller, args.projectName);
        const page = readPage({});
        const result = await entities.query(project.name, 'task', {
          assignees: [user.name],
          ...page,
          caller: ctx.caller,
        });
        return toConnection(
          result.items.map((item) => ({
            cursor: item.cursor,
            node: { ...item.entity, projectName: project.name },
          })),
          result.hasMore,
          page,
        );
      },
    },
  };
}
