import type { PipewrightClient } from '@pipewright/sdk/client';
import { callRoute } from '@pipewright/sdk/ui';
import type { EntityType } from './activity';

// The activities addon's REST routes as the screens use them. They are not among the client's typed paths (the
// client's schema predates the addon), so they go through callRoute: same session, same errors.

/** The project's part of the API. */
export const at = (project: string) => `/api/projects/${encodeURIComponent(project)}`;

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
