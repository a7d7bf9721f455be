import type { PipewrightClient } from '@pipewright/sdk/client';

// The lists of a project and their items, on the lists addon's routes (AYON's /api/projects/{p}/lists...). The
// project's lists are read through GraphQL (AYON has no REST route listing them); one list, with its items and
// the entities they name, too, so each item shows the entity's name and path.

export const ENTITY_TYPES = ['version', 'task', 'folder', 'product', 'representation', 'workfile'] as const;
export type ListEntityType = (typeof ENTITY_TYPES)[number];

/** The kinds of list people make here; AYON names a playlist "generic". */
export const KINDS = [
  { value: 'generic', label: 'Playlist' },
  { value: 'review-session', label: 'Review session' },
] as const;

export const kindLabel = (kind: string) => KINDS.find((k) => k.value === kind)?.label ?? kind;

const PLURAL: Record<string, string> = {
  version: 'Versions',
  task: 'Tasks',
  folder: 'Folders',
  product: 'Products',
  representation: 'Representations',
  workfile: 'Workfiles',
};
export const pluralOf = (type: string) => PLURAL[type] ?? type;

export interface ListSummary {
  id: string;
  label: string;
  entityType: ListEntityType;
  entityListType: string;
  count: number;
  owner: string | null;
  updatedAt: string;
}

export interface ListItem {
  id: string;
  entityId: string;
  position: number;
  folderPath: string;
  /** The listed entity, or null when the caller may not read it (or it is gone). */
  entity: { name: string; path: string | null; version?: number | null } | null;
}

export interface ListDetail extends ListSummary {
  items: ListItem[];
}

const LISTS = `
query Lists($project: String!) {
  project(name: $project) {
    entityLists(first: 1000) {
      edges { node { id label entityType entityListType count owner updatedAt } }
    }
  }
}`;

export async function readLists(client: PipewrightClient, project: string): Promise<ListSummary[]> {
  const answer = await client.graphql<{ project: { entityLists: { edges: { node: ListSummary }[] } } }>(
    LISTS,
    {
      project,
    },
  );
  return answer.project.entityLists.edges.map((edge) => edge.node);
}

const ENTITY_NODE = `
  name
  ... on FolderNode { path }
  ... on TaskNode { path }
  ... on ProductNode { path }
  ... on VersionNode { path version }`;

const LIST = `
query List($project: String!, $id: String!) {
  project(name: $project) {
    entityList(id: $id) {
      id label entityType entityListType count owner updatedAt
      items(first: 10000) { edges { id entityId position folderPath node { ${ENTITY_NODE} } } }
    }
  }
}`;

interface ListAnswer {
  project: {
    entityList: ListSummary & {
      items: { edges: (Omit<ListItem, 'entity'> & { node: ListItem['entity'] })[] };
    };
  };
}

export async function readList(client: PipewrightClient, project: string, id: string): Promise<ListDetail> {
  const { items, ...list } = (await client.graphql<ListAnswer>(LIST, { project, id })).project.entityList;
  return {
    ...list,
    items: items.edges.map(({ node, ...item }) => ({ ...item, entity: node ?? null })),
  };
}

const listPath = (project: string, id: string) => ({ project_name: project, entity_list_id: id });

export async function createList(
  client: PipewrightClient,
  project: string,
  list: { label: string; entityType: ListEntityType; entityListType: string; entityIds?: string[] },
): Promise<string> {
  const answer = await client.POST('/api/projects/{project_name}/lists', {
    params: { path: { project_name: project } },
    body: {
      label: list.label,
      entityType: list.entityType,
      entityListType: list.entityListType,
      ...(list.entityIds?.length ? { items: list.entityIds.map((entityId) => ({ entityId })) } : {}),
    },
  });
  return answer.id;
}

export const renameList = (client: PipewrightClient, project: string, id: string, label: string) =>
  client.PATCH('/api/projects/{project_name}/lists/{entity_list_id}', {
    params: { path: listPath(project, id) },
    body: { label },
  });

export const deleteList = (client: PipewrightClient, project: string, id: string) =>
  client.DELETE('/api/projects/{project_name}/lists/{entity_list_id}', {
    params: { path: listPath(project, id) },
  });

/** Add entities at the end of a list, in one request (one transaction on the server). */
export const addItems = (client: PipewrightClient, project: string, id: string, entityIds: string[]) =>
  client.PATCH('/api/projects/{project_name}/lists/{list_id}/items', {
    params: { path: { project_name: project, list_id: id } },
    body: { mode: 'merge', items: entityIds.map((entityId) => ({ entityId })) },
  });

export const removeItem = (client: PipewrightClient, project: string, id: string, itemId: string) =>
  client.DELETE('/api/projects/{project_name}/lists/{entity_list_id}/items/{entity_list_item_id}', {
    params: { path: { ...listPath(project, id), entity_list_item_id: itemId } },
  });

/** Every item id of the list, in the new order. */
export const orderItems = (client: PipewrightClient, project: string, id: string, order: string[]) =>
  client.POST('/api/projects/{project_name}/lists/{entity_list_id}/order', {
    params: { path: listPath(project, id) },
    body: { order },
  });

/** Entities of a type whose name matches, for adding them to a list by hand. */
const PLURAL_FIELD: Partial<Record<ListEntityType, string>> = {
  folder: 'folders',
  task: 'tasks',
  product: 'products',
  version: 'versions',
};

export const searchable = (type: string) => type in PLURAL_FIELD;

export interface FoundEntity {
  id: string;
  name: string;
  path: string | null;
}

export async function searchEntities(
  client: PipewrightClient,
  project: string,
  type: ListEntityType,
  text: string,
): Promise<FoundEntity[]> {
  const field = PLURAL_FIELD[type];
  if (!field) return [];
  const query = `
query Search($project: String!, $search: String) {
  project(name: $project) {
    ${field}(first: 30, search: $search) { edges { node { id name path } } }
  }
}`;
  const answer = await client.graphql<{
    project: Record<string, { edges: { node: FoundEntity }[] }>;
  }>(query, { project, search: text || null });
  return answer.project[field]!.edges.map(({ node }) => ({
    id: node.id,
    name: node.name,
    path: node.path ?? null,
  }));
}

/** What an item is called: the entity's path (a version's with its number), else what the list knows of it. */
export function itemName(item: ListItem): string {
  if (!item.entity) return `${item.folderPath || ''} (not readable)`.trim();
  return item.entity.path || `${item.folderPath}/${item.entity.name}`;
}
