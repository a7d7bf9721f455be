import { groupLoaderQueries, isoTime, type RequestUser, type UserRecord } from '@pipewright/sdk';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { EntityReader } from './entity-context.js';
import type { ActivityFeeds, FeedFilter, FeedRow, InboxFilter, PageArgs } from './feed.js';

/** What resolvers receive from the graphql addon: the logged-in caller. */
interface Context {
  caller: RequestUser;
}

const PAGE = 'first: Int, after: String, last: Int, before: String';
const ENTITY_FEED = `${PAGE}, activityTypes: [String!], referenceTypes: [String!]`;
const ENTITY_NODES = [
  'FolderNode',
  'TaskNode',
  'ProductNode',
  'VersionNode',
  'RepresentationNode',
  'WorkfileNode',
];

// The graphql addon declares the activity types as AYON has them (ActivityNode, its origin, reactions and files)
// and the inbox root; the feeds of projects and entities are added here, with the resolvers of all of it.
const SCHEMA = `
extend type ProjectNode {
  activities(${PAGE}, entityType: String, entityIds: [String!], entityNames: [String!], activityTypes: [String!], referenceTypes: [String!], activityIds: [String!], tags: [String!], categories: [String], changedBefore: String, changedAfter: String): ActivitiesConnection!
}
${ENTITY_NODES.map((node) => `extend type ${node} { activities(${ENTITY_FEED}): ActivitiesConnection! }`).join('\n')}
`;

/** A node as resolvers pass it on: the feed row, and whether it is shown in an inbox. */
type Node = FeedRow & { inInbox?: boolean };

/** Inbox bodies are one line of at most 200 characters, as AYON lists them. */
function inboxBody(body: string): string {
  const line = body.replace(/\n/g, ' ');
  return line.length > 200 ? `${line.slice(0, 200)}...` : line;
}

function origin(value: any) {
  if (!value?.id) return null;
  return {
    id: value.id,
    type: value.type,
    subtype: value.subtype ?? null,
    name: value.name ?? value.id,
    label: value.label ?? null,
    link: `[${value.name ?? value.id}](${value.type}:${value.id})`,
  };
}

/**
 * An activity's author or assignee as the graphql addon's UserNode resolves it: the stored user, or a stand-in
 * (inactive, deleted) for a name no user holds any more.
 */
function userSource(user: UserRecord | null, name: string) {
  if (user) return user;
  const epoch = new Date(0);
  return {
    name,
    active: false,
    attrib: { fullName: name },
    data: {},
    hasPassword: false,
    createdAt: epoch,
    updatedAt: epoch,
    deleted: true,
  };
}

/** Users looked up once per request, however many activities name them. */
const userCache = new WeakMap<object, Map<string, Promise<UserRecord | null>>>();

/** The schema, resolvers and loaders the activities addon adds to /graphql. */
export function activityGraphQL(feeds: ActivityFeeds, users: UserDirectory, reader: EntityReader) {
  const lookUp = (ctx: Context, name: string) => {
    if (!userCache.has(ctx)) userCache.set(ctx, new Map());
    const cache = userCache.get(ctx)!;
    if (!cache.has(name)) cache.set(name, users.get(name));
    return cache.get(name)!;
  };
  const person = async (ctx: Context, name: unknown) =>
    typeof name === 'string' && name ? userSource(await lookUp(ctx, name), name) : null;

  const feedFilter = (args: Record<string, any>): FeedFilter => ({
    entityType: args.entityType,
    entityIds: args.entityIds,
    entityNames: args.entityNames,
    activityIds: args.activityIds,
    activityTypes: args.activityTypes,
    referenceTypes: args.referenceTypes,
    tags: args.tags,
    categories: args.categories,
    changedAfter: args.changedAfter,
    changedBefore: args.changedBefore,
  });

  return {
    schema: SCHEMA,
    resolvers: {
      Query: {
        inbox: (_: unknown, args: PageArgs & Record<string, any>, ctx: Context) =>
          feeds.inbox(ctx.caller, args as InboxFilter, args).then((connection) => ({
            ...connection,
            edges: connection.edges.map((edge) => ({ ...edge, node: { ...edge.node, inInbox: true } })),
          })),
      },
      ProjectNode: {
        activities: (project: ProjectRecord, args: PageArgs & Record<string, any>, ctx: Context) =>
          feeds.projectFeed(ctx.caller, project.name, feedFilter(args), args),
      },
      ActivityNode: {
        projectName: (node: Node) => node.project_name,
        referenceId: (node: Node) => node.reference_id,
        activityId: (node: Node) => node.activity_id,
        referenceType: (node: Node) => node.reference_type,
        activityType: (node: Node) => node.activity_type,
        entityType: (node: Node) => node.entity_type,
        entityId: (node: Node) => node.entity_id,
        entityName: (node: Node) => node.entity_name,
        entityPath: () => null,
        createdAt: (node: Node) => isoTime(node.created_at),
        updatedAt: (node: Node) => isoTime(node.updated_at),
        creationOrder: (node: Node) => Number(node.creation_order),
        body: (node: Node) => (node.inInbox ? inboxBody(node.body) : node.body),
        tags: (node: Node) => node.tags ?? [],
        category: (node: Node) =>
          typeof node.activity_data.category === 'string' ? node.activity_data.category : null,
        activityData: (node: Node) => JSON.stringify(node.activity_data),
        referenceData: (node: Node) => JSON.stringify(node.reference_data ?? {}),
        active: (node: Node) => node.active,
        read: (node: Node) => node.read,
        origin: (node: Node) => origin(node.activity_data.origin),
        parents: (node: Node) =>
          ((node.activity_data.parents ?? []) as unknown[]).map(origin).filter(Boolean),
        reactions: (node: Node) =>
          ((node.activity_data.reactions ?? []) as any[]).map((r) => ({
            userName: r.userName,
            fullName: r.fullName ?? null,
            reaction: r.reaction,
            timestamp: r.timestamp,
          })),
        files: (node: Node) =>
          ((node.activity_data.files ?? []) as any[]).map((file) => ({
            id: file.id,
            size: String(file.size ?? 0),
            author: file.author ?? null,
            name: file.filename ?? null,
            mime: file.mime ?? null,
            createdAt: file.created_at ?? isoTime(node.created_at),
            updatedAt: file.updated_at ?? isoTime(node.updated_at),
          })),
        author: (node: Node, _: unknown, ctx: Context) => person(ctx, node.activity_data.author),
        assignee: (node: Node, _: unknown, ctx: Context) => person(ctx, node.activity_data.assignee),
        version: async (node: Node, _: unknown, ctx: Context) => {
          if (!['version.publish', 'reviewable'].includes(node.activity_type)) return null;
          const id = node.activity_data.origin?.id;
          if (!id) return null;
          const version = await reader.find(node.project_name, 'version', id, ctx.caller);
          return version ? { ...version, projectName: node.project_name } : null;
        },
      },
    },
    loaders: Object.fromEntries(
      ENTITY_NODES.map((type) => [
        type,
        {
          // The feeds of many entities of a page in one read per project and arguments.
          activities: async (
            queries: { obj: { id: string; projectName: string }; params: any }[],
            ctx: Context,
          ) => {
            const answers: unknown[] = new Array(queries.length);
            for (const { projectName, params, at } of groupLoaderQueries(queries)) {
              const ids = at.map((i) => queries[i].obj.id);
              const found = await feeds.entityFeeds(ctx.caller, projectName, ids, feedFilter(params), params);
              for (const i of at) answers[i] = found.get(queries[i].obj.id);
            }
            return answers;
          },
        },
      ]),
    ),
  };
}
