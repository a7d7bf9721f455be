import type { PipewrightClient } from '@pipewright/sdk/client';

// What the overview's New product and New version dialogs read and write: a folder's products with their version
// numbers and its tasks (one GraphQL query), the product types to offer, and the two creates (AYON's REST routes).

export interface ProductChoice {
  id: string;
  name: string;
  productType: string;
  /** Version numbers already taken (the hero version is negative). */
  versions: number[];
}

export interface TaskChoice {
  id: string;
  name: string;
  taskType: string;
}

export interface FolderContents {
  products: ProductChoice[];
  tasks: TaskChoice[];
}

type Edges<N> = { edges: { node: N }[] };

/** The products (with their version numbers) and the tasks of one folder. */
export async function folderContents(
  client: PipewrightClient,
  project: string,
  folderId: string,
): Promise<FolderContents> {
  const data = await client.graphql<{
    project: {
      folder: {
        products: Edges<{
          id: string;
          name: string;
          productType: string;
          versionList: { version: number }[];
        }>;
        tasks: Edges<TaskChoice>;
      } | null;
    };
  }>(
    `query PublishTargets($project: String!, $id: String!) { project(name: $project) { folder(id: $id) {
      products(first: 500) { edges { node { id name productType versionList { version } } } }
      tasks(first: 500) { edges { node { id name taskType } } } } } }`,
    { project, id: folderId },
  );
  const folder = data.project.folder;
  if (!folder) throw new Error('The folder is gone: it may have been deleted. Press Refresh.');
  return {
    products: folder.products.edges
      .map(({ node }) => ({ ...node, versions: node.versionList.map((v) => v.version) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
    tasks: folder.tasks.edges.map((e) => e.node).sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** The number a new version of a product gets unless the user picks another: one past the highest. */
export const nextVersion = (taken: number[]) => Math.max(0, ...taken) + 1;

/** v001; a negative number is the hero version. */
export const versionLabel = (n: number) => (n < 0 ? 'HERO' : `v${String(n).padStart(3, '0')}`);

// Offered even on a project without products yet (AYON's usual ones); any other name may be typed.
const COMMON_PRODUCT_TYPES = [
  'animation',
  'camera',
  'image',
  'layout',
  'look',
  'model',
  'plate',
  'pointcache',
  'render',
  'review',
  'rig',
  'workfile',
];

/** Product types to suggest: the project's own (used, or configured in its anatomy) first, then the usual ones. */
export async function productTypeChoices(client: PipewrightClient, project: string): Promise<string[]> {
  const path = { params: { path: { project_name: project } } };
  // Suggestions only: without them the field still takes any type.
  const [used, configured] = await Promise.all([
    client
      .GET('/api/projects/{project_name}/productTypes', path)
      .then((answer) => answer.productTypes.map((t) => t.name))
      .catch(() => [] as string[]),
    client
      .GET('/api/projects/{project_name}', path)
      .then((answer) => Object.keys((answer.config as { productBaseTypes?: object }).productBaseTypes ?? {}))
      .catch(() => [] as string[]),
  ]);
  const own = [...new Set([...used, ...configured])].sort();
  return [...own, ...COMMON_PRODUCT_TYPES.filter((t) => !own.includes(t))];
}

/** Create a product in a folder; its id. */
export async function createProduct(
  client: PipewrightClient,
  project: string,
  product: { name: string; productType: string; folderId: string },
): Promise<string> {
  const answer = await client.POST('/api/projects/{project_name}/products', {
    params: { path: { project_name: project } },
    body: product,
  });
  return answer.id;
}

/** Create a version of a product; without an author the server names the caller. */
export async function createVersion(
  client: PipewrightClient,
  project: string,
  version: { version: number; productId: string; taskId: string | null; author: string | null },
): Promise<string> {
  const answer = await client.POST('/api/projects/{project_name}/versions', {
    params: { path: { project_name: project } },
    body: {
      version: version.version,
      productId: version.productId,
      ...(version.taskId ? { taskId: version.taskId } : {}),
      ...(version.author ? { author: version.author } : {}),
    },
  });
  return answer.id;
}

const REVIEW_PATH = '/addon/reviewables/reviewables_screens';

/** The review screen's address for a version (?version= opens it, ?play=1 starts its first video). */
export const reviewLink = (project: string, versionId: string) =>
  `${REVIEW_PATH}?${new URLSearchParams({ project, version: versionId, play: '1' })}`;

/**
 * Go to another page of the web app without reloading it: popstate is how the shell and every screen hear of a
 * change of address (they cannot import the shell's router).
 */
export function go(path: string): void {
  history.pushState(null, '', path);
  window.dispatchEvent(new PopStateEvent('popstate'));
}
