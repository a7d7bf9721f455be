import { apiErrorFor, type PipewrightClient } from '@pipewright/sdk/client';
import { callRoute } from '@pipewright/sdk/ui';

// The activities addon's API as the screens use it. Its REST routes are not among the client's typed paths (the
// client's schema predates the addon), so they go through callRoute: same session, same errors.

/** Entity types that have a feed. */
export const ENTITY_TYPES = ['folder', 'task', 'product', 'version', 'representation', 'workfile'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface Person {
  name: string;
  fullName: string | null;
}

export interface AttachedFile {
  id: string;
  name: string | null;
  size: number;
  mime: string | null;
}

export interface Reaction {
  userName: string;
  fullName: string | null;
  reaction: string;
}

/** An entity as an activity names it (its origin, or one of the origin's parents). */
export interface EntityLabel {
  id: string;
  type: string;
  name: string;
  label: string | null;
}

/** One activity as the feed and the inbox show it. */
export interface Activity {
  id: string;
  /** The reference that put it in this feed or inbox (the inbox marks references read, not activities). */
  referenceId: string;
  /** Why it is here: origin, mention, relation, watching. */
  referenceType: string;
  type: string;
  body: string;
  createdAt: string;
  updatedAt: string;
  projectName: string;
  author: Person | null;
  /** The activity's data: oldValue/newValue of a status change, assignee, hasChecklist, ... */
  data: Record<string, unknown>;
  reactions: Reaction[];
  files: AttachedFile[];
  origin: EntityLabel | null;
  parents: EntityLabel[];
  read: boolean;
  active: boolean;
}

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

/** A page of activities, oldest first, and where the page before it starts. */
export interface ActivityPage {
  activities: Activity[];
  /** Cursor for the older page, or null when this page reaches the start. */
  older: string | null;
}

function activityOf(node: ActivityNode): Activity {
  let data: Record<string, unknown> = {};
  try {
    data = JSON.parse(node.activityData) as Record<string, unknown>;
  } catch {
    // An unreadable data field only loses the extras (status values, assignee); the activity still shows.
  }
  return {
    id: node.activityId,
    referenceId: node.referenceId,
    referenceType: node.referenceType,
    type: node.activityType,
    body: node.body,
    createdAt: node.createdAt,
    updatedAt: node.updatedAt,
    projectName: node.projectName,
    author: node.author ? { name: node.author.name, fullName: node.author.attrib.fullName ?? null } : null,
    data,
    reactions: node.reactions,
    files: node.files.map((file) => ({ ...file, size: Number(file.size) })),
    origin: node.origin,
    parents: node.parents,
    read: node.read,
    active: node.active,
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

const at = (project: string) => `/api/projects/${encodeURIComponent(project)}`;

export function postComment(
  client: PipewrightClient,
  project: string,
  entityType: EntityType,
  entityId: string,
  body: string,
  files: string[],
): Promise<{ id: string }> {
  return callRoute(client, `${at(project)}/${entityType}s/${entityId}/activities`, {
    method: 'POST',
    body: { activityType: 'comment', body, ...(files.length ? { files } : {}) },
  });
}

export function editActivity(client: PipewrightClient, project: string, id: string, body: string) {
  return callRoute(client, `${at(project)}/activities/${id}`, { method: 'PATCH', body: { body } });
}

export function deleteActivity(client: PipewrightClient, project: string, id: string) {
  return callRoute(client, `${at(project)}/activities/${id}`, { method: 'DELETE' });
}

export function react(client: PipewrightClient, project: string, id: string, reaction: string, add: boolean) {
  return add
    ? callRoute(client, `${at(project)}/activities/${id}/reactions`, { method: 'POST', body: { reaction } })
    : callRoute(client, `${at(project)}/activities/${id}/reactions/${encodeURIComponent(reaction)}`, {
        method: 'DELETE',
      });
}

export async function readWatchers(
  client: PipewrightClient,
  project: string,
  entityType: EntityType,
  entityId: string,
): Promise<string[]> {
  const answer = await callRoute<{ watchers: string[] }>(
    client,
    `${at(project)}/${entityType}s/${entityId}/watchers`,
  );
  return answer.watchers;
}

export function setWatchers(
  client: PipewrightClient,
  project: string,
  entityType: EntityType,
  entityId: string,
  watchers: string[],
) {
  return callRoute(client, `${at(project)}/${entityType}s/${entityId}/watchers`, {
    method: 'POST',
    body: { watchers },
  });
}

/** What the mention box offers (POST suggest), nearest to the entity first. */
export interface Suggestions {
  users: { name: string; fullName?: string | null; relevance: number }[];
  tasks: {
    id: string;
    name: string;
    label?: string | null;
    taskType: string;
    relevance: number;
    parent?: { name: string };
  }[];
  versions: { id: string; name: string; relevance: number; parent?: { name: string } }[];
  products: { id: string; name: string; productType: string; relevance: number }[];
  folders: { id: string; name: string; label?: string | null; folderType: string; relevance: number }[];
}

/** Entity types the suggest route answers for. */
export const SUGGESTS_FOR: EntityType[] = ['folder', 'task', 'product', 'version'];

export function readSuggestions(
  client: PipewrightClient,
  project: string,
  entityType: EntityType,
  entityId: string,
): Promise<Suggestions> {
  return callRoute(client, `${at(project)}/suggest`, { method: 'POST', body: { entityType, entityId } });
}

/** Mark inbox messages (by reference id) of one project read, unread or inactive (archived). */
export function markMessages(
  client: PipewrightClient,
  project: string,
  target: { ids: string[] } | { all: true },
  status: 'read' | 'unread' | 'inactive',
) {
  return callRoute(client, '/api/inbox', {
    method: 'POST',
    body: { projectName: project, ...target, status },
  });
}

type UntypedRequest = (
  method: string,
  url: string,
  init: Record<string, unknown>,
) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** Header values are bytes: the UTF-8 name sent byte for byte, as the files addon reads it back. */
function headerSafe(name: string): string {
  return String.fromCharCode(...new TextEncoder().encode(name));
}

/**
 * Upload a file to the project (the files addon), to attach to an activity; answers its id. The raw body goes
 * through the client's fetch client, so it carries the session and a 401 ends it like any call.
 */
export async function uploadFile(client: PipewrightClient, project: string, file: File): Promise<string> {
  const request = client.fetchClient.request as unknown as UntypedRequest;
  const path = `${at(project)}/files`;
  const { data, error, response } = await request('post', path, {
    body: file,
    bodySerializer: (value: unknown) => value,
    headers: {
      'content-type': file.type || 'application/octet-stream',
      'x-file-name': headerSafe(file.name),
    },
  });
  if (!response.ok) throw apiErrorFor({ status: response.status, method: 'POST', url: path, body: error });
  return (data as { id: string }).id;
}

/** The bytes of a project file, for a download or a preview. */
export async function readFile(client: PipewrightClient, project: string, id: string): Promise<Blob> {
  const request = client.fetchClient.request as unknown as UntypedRequest;
  const path = `${at(project)}/files/${id}/payload`;
  const { data, error, response } = await request('get', path, { parseAs: 'blob' });
  if (!response.ok) throw apiErrorFor({ status: response.status, method: 'GET', url: path, body: error });
  return data as Blob;
}
