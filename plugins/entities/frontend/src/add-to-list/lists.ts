import type { PipewrightClient } from '@pipewright/sdk/client';
import type { Entity } from '../model';

// Reading and writing the entity lists of the lists addon through its GraphQL fields and REST routes.

export type ListType = 'task' | 'folder' | 'version';

export interface ListChoice {
  id: string;
  label: string;
  entityType: string;
  entityListType: string;
}

/** What was added, said for the dialog, and the list to open. */
export interface Added {
  text: string;
  listId: string;
  label: string;
}

export const LISTS_PATH = '/addon/lists/lists_screens';
export const TYPE_NAMES: Record<ListType, string> = { task: 'tasks', folder: 'folders', version: 'versions' };

/** "1 task", "3 versions". */
export const count = (n: number, type: ListType) =>
  `${n} ${n === 1 ? TYPE_NAMES[type].slice(0, -1) : TYPE_NAMES[type]}`;

const LISTS = `
query AddToListChoices($project: String!) {
  project(name: $project) {
    entityLists(first: 1000) { edges { node { id label entityType entityListType } } }
  }
}`;

const LISTED = `
query Listed($project: String!, $id: String!) {
  project(name: $project) { entityList(id: $id) { items(first: 10000) { edges { entityId } } } }
}`;

// The latest version of each product published from these tasks, and of each product of these folders.
const LATEST_VERSIONS = `
query LatestVersions($project: String!, $taskIds: [String!], $folderIds: [String!]) {
  project(name: $project) {
    versions(taskIds: $taskIds, latestOnly: true, first: 5000) { edges { node { id } } }
    products(folderIds: $folderIds, first: 5000) { edges { node { latestVersion { id } } } }
  }
}`;

/** Every list of the project. */
export async function listsOf(client: PipewrightClient, project: string): Promise<ListChoice[]> {
  const answer = await client.graphql<{ project: { entityLists: { edges: { node: ListChoice }[] } } }>(
    LISTS,
    {
      project,
    },
  );
  return answer.project.entityLists.edges.map((edge) => edge.node);
}

/** The ids to add for a list of this type: the selected entities of that type, or their latest versions. */
export async function entityIdsFor(
  client: PipewrightClient,
  project: string,
  type: ListType,
  chosen: Entity[],
): Promise<string[]> {
  if (type !== 'version') return chosen.filter((entity) => entity.kind === type).map((entity) => entity.id);
  const ids = (kind: Entity['kind']) => chosen.filter((e) => e.kind === kind).map((e) => e.id);
  const [taskIds, folderIds] = [ids('task'), ids('folder')];
  const answer = await client.graphql<{
    project: {
      versions: { edges: { node: { id: string } }[] };
      products: { edges: { node: { latestVersion: { id: string } | null } }[] };
    };
  }>(LATEST_VERSIONS, {
    project,
    // An empty list would match nothing anyway; null would match everything.
    taskIds: taskIds.length ? taskIds : ['0'.repeat(32)],
    folderIds: folderIds.length ? folderIds : ['0'.repeat(32)],
  });
  const found = [
    ...answer.project.versions.edges.map((edge) => edge.node.id),
    ...answer.project.products.edges.flatMap((edge) => edge.node.latestVersion?.id ?? []),
  ];
  return [...new Set(found)];
}

/** Add the ids to a list that exists, but those in it already. */
export async function addToExisting(
  client: PipewrightClient,
  project: string,
  list: ListChoice,
  type: ListType,
  ids: string[],
): Promise<Added> {
  const listed = await client.graphql<{
    project: { entityList: { items: { edges: { entityId: string }[] } } };
  }>(LISTED, { project, id: list.id });
  const already = new Set(listed.project.entityList.items.edges.map((edge) => edge.entityId));
  const fresh = ids.filter((id) => !already.has(id));
  if (fresh.length)
    await client.PATCH('/api/projects/{project_name}/lists/{list_id}/items', {
      params: { path: { project_name: project, list_id: list.id } },
      body: { mode: 'merge', items: fresh.map((entityId) => ({ entityId })) },
    });
  const skipped = ids.length - fresh.length;
  return {
    text:
      `Added ${count(fresh.length, type)} to ${list.label}.` +
      (skipped ? ` ${count(skipped, type)} ${skipped === 1 ? 'was' : 'were'} in it already.` : ''),
    listId: list.id,
    label: list.label,
  };
}

/** Make a new list (a playlist or a review session) holding the ids. */
export async function createList(
  client: PipewrightClient,
  project: string,
  list: { label: string; kind: string },
  type: ListType,
  ids: string[],
): Promise<Added> {
  const created = await client.POST('/api/projects/{project_name}/lists', {
    params: { path: { project_name: project } },
    body: {
      label: list.label,
      entityType: type,
      entityListType: list.kind,
      items: ids.map((entityId) => ({ entityId })),
    },
  });
  return {
    text: `Created ${list.label} with ${count(ids.length, type)}.`,
    listId: created.id,
    label: list.label,
  };
}
