import type { PipewrightClient } from '@pipewright/sdk/client';
import type { Activity, ActivityPage, EntityLabel, EntityType, Reaction } from './activity';

// Feeds and the inbox are read through GraphQL, a page at a time, as AYON's web app reads them.

const NODE_FIELDS = `activityId referenceId referenceType activityType body createdAt updatedAt projectName
  activityData read active
  author { name attrib { fullName } }
  reactions { userName fullName reaction }
  files { id name size mime }
  origin { id type name label }
  parents { id type name label }`;

interface ActivityNode {
  activityId: string;
  referenceId: string;
  referenceType: string;
  activityType: string;
  body: string;
  createdAt: string;
  updatedAt: string;
  projectName: string;
  activityData: string;
  read: boolean;
  active: boolean;
  author: { name: string; attrib: { fullName?: string | null } } | null;
  reactions: Reaction[];
  files: { id: string; name: string | null; size: string; mime: string | null }[];
  origin: EntityLabel | null;
  parents: EntityLabel[];
}

interface Connection {
  edges: { node: ActivityNode }[];
  pageInfo: { hasPreviousPage: boolean; startCursor: string | null };
}

function activityOf(node: ActivityNode): Activity {
  const { activityId, activityType, activityData, author, files, ...same } = node;
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(activityData) as Record<string, unknown>;
  } catch {
    // An unreadable data field only loses the extras (status values, assignee); the activity still shows.
  }
  return {
    ...same,
    id: activityId,
    type: activityType,
    author: author ? { name: author.name, fullName: author.attrib.fullName ?? null } : null,
    data,
    files: files.map((file) => ({ ...file, size: Number(file.size) })),
  };
}

function pageOf(connection: Connection | null | undefined): ActivityPage {
  if (!connection) return { activities: [], older: null };
  return {
    activities: connection.edges.map((edge) => activityOf(edge.node)),
    older: connection.pageInfo.hasPreviousPage ? connection.pageInfo.startCursor : null,
  };
}

/** What a feed lists: conversation and changes; watch activities are bookkeeping, shown as the watcher list. */
export const FEED_TYPES = [
  'comment',
  'status.change',
  'attrib.change',
  'assignee.add',
  'assignee.remove',
  'version.publish',
  'reviewable',
];

/** The newest `count` activities of an entity (before a cursor, for older pages), oldest first. */
export async function readFeed(
  client: PipewrightClient,
  project: string,
  entityType: EntityType,
  entityId: string,
  count: number,
  before: string | null = null,
): Promise<ActivityPage> {
  const data = await client.graphql<{ project: Record<string, { activities: Connection } | null> | null }>(
    `query EntityFeed($project: String!, $id: String!, $last: Int, $before: String, $types: [String!]) {
      project(name: $project) { entity: ${entityType}(id: $id) {
        activities(last: $last, before: $before, activityTypes: $types) {
          pageInfo { hasPreviousPage startCursor } edges { node { ${NODE_FIELDS} } } } } } }`,
    { project, id: entityId, last: count, before, types: FEED_TYPES },
  );
  const entity = data.project?.entity;
  if (!entity) throw new Error(`This ${entityType} no longer exists, or you may not see it.`);
  return pageOf(entity.activities);
}

/** Which messages of the inbox to read. */
export interface InboxFilter {
  unreadOnly: boolean;
  /** False: the archived (inactive) messages too. */
  activeOnly: boolean;
}

/** The newest `count` messages of the caller's inbox across projects (before a cursor), oldest first. */
export async function readInbox(
  client: PipewrightClient,
  filter: InboxFilter,
  count: number,
  before: string | null = null,
): Promise<ActivityPage> {
  const data = await client.graphql<{ inbox: Connection }>(
    `query Inbox($last: Int, $before: String, $active: Boolean, $unread: Boolean) {
      inbox(last: $last, before: $before, showActiveMessages: $active, showUnreadMessages: $unread) {
        pageInfo { hasPreviousPage startCursor } edges { node { ${NODE_FIELDS} } } } }`,
    {
      last: count,
      before,
      // null: active and inactive alike.
      active: filter.activeOnly ? true : null,
      unread: filter.unreadOnly ? true : null,
    },
  );
  return pageOf(data.inbox);
}

/** How many unread messages wait in the active inbox, counted up to `cap`. */
export async function countUnread(client: PipewrightClient, cap: number): Promise<number> {
  const data = await client.graphql<{ inbox: { edges: unknown[] } }>(
    `query Unread($last: Int) { inbox(last: $last, showActiveMessages: true, showUnreadMessages: true) {
      edges { cursor } } }`,
    { last: cap },
  );
  return data.inbox.edges.length;
}
