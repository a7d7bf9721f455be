import type { PipewrightClient } from '@pipewright/sdk/client';

// What the version browser reads, through GraphQL: a level of folders at a time (only those with versions below
// them), the products of one folder, the versions of one product, and where a version sits (for a link that opens
// it directly).

export interface FolderItem {
  id: string;
  name: string;
  label: string | null;
  folderType: string;
  path: string;
}

export interface ProductItem {
  id: string;
  name: string;
  productType: string;
}

export interface VersionItem {
  id: string;
  /** Negative for a HERO version. */
  version: number;
  name: string;
  status: string;
  author: string | null;
  createdAt: string;
}

/** A version with the folders above it, root first, and its product: enough to reopen the browser there. */
export interface VersionPlace {
  version: VersionItem;
  product: ProductItem;
  folders: FolderItem[];
}

type Edges<N> = { edges: { node: N }[] };
const nodes = <N>(connection: Edges<N> | undefined) => (connection?.edges ?? []).map((edge) => edge.node);

// Enough for any one level of a real project; the browser says so when a level is cut short.
export const LEVEL_LIMIT = 500;

const FOLDER_FIELDS = 'id name label folderType path';
const VERSION_FIELDS = 'id version name status author createdAt';

/** The folders directly under a folder (null: the project's top level) that have versions somewhere below. */
export async function foldersUnder(client: PipewrightClient, project: string, parentId: string | null) {
  const data = await client.graphql<{
    project: { folders: Edges<FolderItem & { hasVersions: boolean }> } | null;
  }>(
    `query ReviewFolders($project: String!, $parent: String!, $first: Int!) { project(name: $project) {
      folders(parentIds: [$parent], first: $first) { edges { node { ${FOLDER_FIELDS} hasVersions } } } } }`,
    { project, parent: parentId ?? 'root', first: LEVEL_LIMIT },
  );
  const found = nodes(data.project?.folders);
  return {
    folders: found
      .filter((folder) => folder.hasVersions)
      .map(({ hasVersions: _, ...folder }) => folder)
      .sort(byName),
    cut: found.length >= LEVEL_LIMIT,
  };
}

/** The products directly in a folder. */
export async function productsIn(client: PipewrightClient, project: string, folderId: string) {
  const data = await client.graphql<{ project: { products: Edges<ProductItem> } | null }>(
    `query ReviewProducts($project: String!, $folder: String!, $first: Int!) { project(name: $project) {
      products(folderIds: [$folder], first: $first) { edges { node { id name productType } } } } }`,
    { project, folder: folderId, first: LEVEL_LIMIT },
  );
  return nodes(data.project?.products).sort(byName);
}

/** The versions of a product, HERO first, then newest first. */
export async function versionsOf(client: PipewrightClient, project: string, productId: string) {
  const data = await client.graphql<{ project: { versions: Edges<VersionItem> } | null }>(
    `query ReviewVersions($project: String!, $product: String!, $first: Int!) { project(name: $project) {
      versions(productIds: [$product], first: $first) { edges { node { ${VERSION_FIELDS} } } } } }`,
    { project, product: productId, first: LEVEL_LIMIT },
  );
  return nodes(data.project?.versions).sort(newestFirst);
}

/** Where a version is, or null when it does not exist (or the user may not see it). */
export async function placeOf(
  client: PipewrightClient,
  project: string,
  versionId: string,
): Promise<VersionPlace | null> {
  const data = await client.graphql<{
    project: {
      version: (VersionItem & { product: ProductItem & { folder: { path: string } } }) | null;
    } | null;
  }>(
    `query ReviewPlace($project: String!, $id: String!) { project(name: $project) { version(id: $id) {
      ${VERSION_FIELDS} product { id name productType folder { path } } } } }`,
    { project, id: versionId },
  );
  const found = data.project?.version;
  if (!found) return null;
  const { product: withFolder, ...version } = found;
  const { folder, ...product } = withFolder;
  // The ancestors' ids come from their paths: "sq010/sh010" is sq010, then sq010/sh010.
  const parts = folder.path.replace(/^\/+/, '').split('/');
  const paths = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
  const folders = await client.graphql<{ project: { folders: Edges<FolderItem> } | null }>(
    `query ReviewAncestors($project: String!, $paths: [String!]!) { project(name: $project) {
      folders(paths: $paths, first: 100) { edges { node { ${FOLDER_FIELDS} } } } } }`,
    { project, paths },
  );
  const byPath = new Map(nodes(folders.project?.folders).map((f) => [f.path.replace(/^\/+/, ''), f]));
  return {
    version,
    product,
    folders: paths.map((path) => byPath.get(path)).filter((f): f is FolderItem => !!f),
  };
}

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.localeCompare(b.name, undefined, { numeric: true });

/** HERO (stored negative) first: it is what the pipeline uses; then the newest number first. */
const newestFirst = (a: VersionItem, b: VersionItem) =>
  Number(b.version < 0) - Number(a.version < 0) || b.version - a.version;

/** v001, or HERO. */
export const versionLabel = (version: { version: number; name?: string }) =>
  version.version < 0 ? 'HERO' : `v${String(version.version).padStart(3, '0')}`;
