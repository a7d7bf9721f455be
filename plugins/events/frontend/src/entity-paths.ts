import type { PipewrightClient } from '@pipewright/sdk/client';
import type { EventRow } from './events';

// An entity event's description names the entity alone ("Task animation created"); two sh040 of two sequences
// read the same. The rows of a page get the full paths of their entities, read in one GraphQL request.

/** Full paths ("trialshow / ep01 / sq010 / sh040 / animation") by project and entity id. */
export type EntityPaths = Map<string, string>;

const TYPES = ['folder', 'task', 'product', 'version'] as const;
type PathType = (typeof TYPES)[number];

const key = (project: string, id: string) => `${project}\n${id}`;

/** The project, type and id of the entity an event is about, or null for other events. */
export function entityOf(row: Pick<EventRow, 'topic' | 'project' | 'summary'>) {
  const [scope, type] = row.topic.split('.');
  const id = row.summary?.entityId;
  if (scope !== 'entity' || !row.project || typeof id !== 'string') return null;
  if (!(TYPES as readonly string[]).includes(type ?? '')) return null;
  return { project: row.project, type: type as PathType, id };
}

/** The full path of an event's entity, when it has been read. */
export function pathOf(row: Pick<EventRow, 'topic' | 'project' | 'summary'>, paths: EntityPaths) {
  const entity = entityOf(row);
  return entity ? (paths.get(key(entity.project, entity.id)) ?? null) : null;
}

interface Named {
  id: string;
  name: string;
  path?: string;
  folder?: { path: string };
  product?: { name: string; folder: { path: string } };
}

const FIELDS: Record<PathType, string> = {
  folder: 'id name path',
  task: 'id name folder { path }',
  product: 'id name folder { path }',
  version: 'id name product { name folder { path } }',
};

function segments(type: PathType, node: Named): string[] {
  const split = (path: string | undefined) => (path ?? '').split('/').filter(Boolean);
  if (type === 'folder') return split(node.path);
  if (type === 'version') return [...split(node.product?.folder.path), node.product?.name ?? '', node.name];
  return [...split(node.folder?.path), node.name];
}

/** The paths of the entities of these rows not yet in `known`, read in one request. */
export async function readEntityPaths(
  client: PipewrightClient,
  rows: EventRow[],
  known: EntityPaths,
): Promise<EntityPaths> {
  const wanted = new Map<string, Map<PathType, Set<string>>>();
  for (const row of rows) {
    const entity = entityOf(row);
    if (!entity || known.has(key(entity.project, entity.id))) continue;
    const byType = wanted.get(entity.project) ?? new Map<PathType, Set<string>>();
    byType.set(entity.type, (byType.get(entity.type) ?? new Set()).add(entity.id));
    wanted.set(entity.project, byType);
  }
  const found = new Map(known);
  if (wanted.size === 0) return found;
  const variables: Record<string, unknown> = {};
  const declared: string[] = [];
  const fields = [...wanted].map(([project, byType], p) => {
    variables[`p${p}`] = project;
    declared.push(`$p${p}: String!`);
    const lists = [...byType].map(([type, ids]) => {
      variables[`${type}${p}`] = [...ids];
      declared.push(`$${type}${p}: [String!]`);
      return `${type}s(ids: $${type}${p}, first: ${ids.size}) { edges { node { ${FIELDS[type]} } } }`;
    });
    return `p${p}: project(name: $p${p}) { ${lists.join(' ')} }`;
  });
  const data = await client.graphql<Record<string, Record<string, { edges: { node: Named }[] }>>>(
    `query EventEntityPaths(${declared.join(', ')}) { ${fields.join(' ')} }`,
    variables,
  );
  [...wanted].forEach(([project, byType], p) => {
    for (const type of byType.keys())
      for (const { node } of data[`p${p}`]?.[`${type}s`]?.edges ?? [])
        found.set(key(project, node.id), [project, ...segments(type, node)].join(' / '));
  });
  return found;
}
