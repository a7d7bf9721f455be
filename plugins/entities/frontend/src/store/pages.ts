import type { PipewrightClient } from '@pipewright/sdk/client';

/** Folders and tasks are read this many at a time. */
export const PAGE = 2000;

export type Connection = 'folders' | 'tasks';

/** Which connection, the fields of each node, the connection's arguments and their variables, and the receiver. */
export type PageQuery<N> = [
  connection: Connection,
  fields: string,
  args: string,
  variables: Record<string, unknown>,
  onPage: (nodes: N[]) => void,
];

/** Read a project's folders or tasks, handing them over a page at a time. */
export async function readPages<N>(
  client: PipewrightClient,
  project: string,
  ...[connection, fields, args, variables, onPage]: PageQuery<N>
): Promise<void> {
  const declared = Object.keys(variables)
    .map((name) => `$${name}: ${name === 'parents' || name === 'ids' ? '[String!]' : 'String'}`)
    .join(', ');
  const query = `query Page($project: String!, $after: String${declared ? `, ${declared}` : ''}) {
      project(name: $project) { ${connection}(first: ${PAGE}, after: $after${args ? `, ${args}` : ''}) {
        edges { node { ${fields} } } pageInfo { hasNextPage endCursor } } } }`;
  const nodes = client.paginate<N>(query, { project, ...variables }, ['project', connection]);
  // Handed over a page at a time, so the screen can show the first pages while the rest arrive.
  let page: N[] = [];
  for await (const node of nodes) {
    page.push(node);
    if (page.length === PAGE) {
      onPage(page);
      page = [];
    }
  }
  if (page.length > 0) onPage(page);
}

/** Read these folders or tasks by id, a page's worth per request. */
export async function readByIds<N>(
  client: PipewrightClient,
  project: string,
  connection: Connection,
  fields: string,
  ids: string[],
  onPage: (nodes: N[]) => void,
): Promise<void> {
  for (let i = 0; i < ids.length; i += PAGE)
    await readPages(
      client,
      project,
      connection,
      fields,
      'ids: $ids',
      { ids: ids.slice(i, i + PAGE) },
      onPage,
    );
}
