import { isId, type ProjectEntityType } from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { GraphContext } from './context.js';

// Entities as GraphQL nodes: the project and type a node carries, read once per project and type.

/** An entity as the REST API shows it, plus its project and its GraphQL type (BaseNode needs to tell them apart). */
export type Node = Record<string, any> & { id: string; projectName: string; __typename: string };
export const NODE_TYPES: Record<ProjectEntityType, string> = {
  folder: 'FolderNode',
  task: 'TaskNode',
  product: 'ProductNode',
  version: 'VersionNode',
  representation: 'RepresentationNode',
  workfile: 'WorkfileNode',
};

/** JSON text of a value; AYON answers null for data that is empty. */
/** An entity of a page as a node: its project and GraphQL type added. */
export const asNode = (projectName: string, type: ProjectEntityType) => (entity: Record<string, any>) =>
  ({ ...entity, projectName, __typename: NODE_TYPES[type] }) as Node;

/** Nodes of the given ids, read once per project and type however many fields point at them. */
export function nodeReader(entities: EntityDirectory) {
  return async (
    wanted: { projectName: string; type: ProjectEntityType; id: string | null | undefined }[],
    ctx: GraphContext,
  ): Promise<(Node | null)[]> => {
    const groups = new Map<string, { projectName: string; type: ProjectEntityType; ids: Set<string> }>();
    for (const { projectName, type, id } of wanted) {
      if (!id || !isId(id)) continue;
      const key = `${projectName}/${type}`;
      if (!groups.has(key)) groups.set(key, { projectName, type, ids: new Set() });
      groups.get(key)!.ids.add(id);
    }
    const found = new Map<string, Node>();
    for (const [key, { projectName, type, ids }] of groups) {
      const page = await entities.query(projectName, type, {
        ids: [...ids],
        limit: ids.size,
        caller: ctx.caller,
        folderCounts: true,
      });
      for (const item of page.items)
        found.set(`${key}/${item.entity.id}`, asNode(projectName, type)(item.entity));
    }
    return wanted.map(({ projectName, type, id }) => found.get(`${projectName}/${type}/${id}`) ?? null);
  };
}

/** ThumbnailInfo of an entity with a thumbnail: where it came from is kept in data.thumbnailInfo (AYON's place). */
export function thumbnailOf(node: { thumbnailId?: string | null; data?: Record<string, any> }) {
  if (!node.thumbnailId) return null;
  const info = (node.data?.thumbnailInfo ?? {}) as Record<string, unknown>;
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  return {
    id: node.thumbnailId,
    sourceEntityType: text(info.sourceEntityType),
    sourceEntityId: text(info.sourceEntityId),
    relation: text(info.relation),
  };
}
