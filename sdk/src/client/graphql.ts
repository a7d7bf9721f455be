import { ClientError } from './errors.js';

/** Where a connection sits in a query's result: "project.folders" or ["project", "folders"]. */
export type ConnectionPath = string | readonly string[];

/** The part of a relay connection the pager reads. */
interface Connection<Node> {
  edges?: ({ node: Node } | null)[] | null;
  pageInfo?: { hasNextPage?: boolean | null; endCursor?: string | null } | null;
}

function connectionAt<Node>(data: unknown, path: readonly string[]): Connection<Node> | null {
  let at: unknown = data;
  for (const key of path) {
    if (at === null || at === undefined) return null;
    if (typeof at !== 'object') throw new ClientError(`GraphQL result has no object at "${path.join('.')}"`);
    at = (at as Record<string, unknown>)[key];
  }
  if (at === null || at === undefined) return null;
  if (typeof at !== 'object' || !('pageInfo' in at))
    throw new ClientError(`"${path.join('.')}" is not a connection with pageInfo { hasNextPage endCursor }`);
  return at as Connection<Node>;
}

/**
 * Yield the nodes of a relay connection, asking `run(after)` for one page after another. Stops when the
 * server says there is no next page, when a page comes back empty (AYON reports hasNextPage for any full
 * page, so the last one may be empty) or when the parent object is null (a project that does not exist).
 */
export async function* pageThrough<Node>(
  run: (after: string | null) => Promise<unknown>,
  path: ConnectionPath,
): AsyncIterableIterator<Node> {
  const keys = typeof path === 'string' ? path.split('.').filter(Boolean) : path;
  let after: string | null = null;
  const seen = new Set<string>();
  for (;;) {
    const connection: Connection<Node> | null = connectionAt<Node>(await run(after), keys);
    const edges = connection?.edges ?? [];
    for (const edge of edges) if (edge) yield edge.node;
    const next: string | null = connection?.pageInfo?.endCursor ?? null;
    if (!connection?.pageInfo?.hasNextPage || edges.length === 0 || next === null) return;
    // A server that hands back a cursor it already gave would make this loop forever.
    if (seen.has(next))
      throw new ClientError(`GraphQL paging at "${keys.join('.')}" returned cursor ${next} twice`);
    seen.add(next);
    after = next;
  }
}
