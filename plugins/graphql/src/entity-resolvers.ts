import type { GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import { groupLoaderQueries, type ProjectEntityType } from '@pipewright/sdk';
import type { EntityDirectory, EntityQuery } from '@pipewright/plugin-entities/api';
import type { LinkDirectory, LinkRecord } from '@pipewright/plugin-links/api';
import type { ProjectRecord } from '@pipewright/plugin-projects/api';
import { pageList, readPage, toConnection, type Page } from './connection.js';
import type { GraphContext } from './context.js';
import type { ConnectionArgs, ConnectionConditions } from './entity-args.js';
import { asNode, nodeReader, NODE_TYPES, thumbnailOf, type Node } from './nodes.js';

type LoaderQuery = { obj: Node; params: ConnectionArgs };

export const jsonOrNull = (value: unknown) =>
  value && typeof value === 'object' && Object.keys(value).length ? JSON.stringify(value) : null;
const json = (value: unknown) => JSON.stringify(value ?? {});

const FOLDER_COUNTS = ['childCount', 'productCount', 'taskCount', 'hasChildren', 'hasProducts', 'hasTasks'];
const FOLDER_FLAGS = ['hasChildren', 'hasTasks', 'hasVersions'];

/** Whether a field's selection asks for any of these names at any depth (fragment spreads count as yes). */
function asksFor(info: GraphQLResolveInfo, names: string[]): boolean {
  const visit = (set: SelectionSetNode | undefined): boolean =>
    !!set &&
    set.selections.some((selection) =>
      selection.kind === 'Field'
        ? names.includes(selection.name.value) || visit(selection.selectionSet)
        : selection.kind === 'InlineFragment'
          ? visit(selection.selectionSet)
          : true,
    );
  return info.fieldNodes.some((node) => visit(node.selectionSet));
}

/** The names above an entity, from its path ("/a/b/c" gives a, b). */
const parentsOf = (node: Node) =>
  String(node.path ?? '')
    .split('/')
    .filter(Boolean)
    .slice(0, -1);

const baseName = (path: string) => path.replace(/^.*[/\\]/, '');

const OWNER_FIELD: Record<ProjectEntityType, string> = {
  folder: 'parentId',
  task: 'folderId',
  product: 'folderId',
  version: 'productId',
  representation: 'versionId',
  workfile: 'taskId',
};

export function entityResolvers(
  entities: EntityDirectory,
  links: LinkDirectory,
  conditions: ConnectionConditions,
) {
  const readNodes = nodeReader(entities);
  const empty = (page: Page) => toConnection([], false, page);

  /** A top-level connection of one project. */
  const list =
    (type: ProjectEntityType) =>
    async (project: ProjectRecord, args: ConnectionArgs, ctx: GraphContext, info: GraphQLResolveInfo) => {
      const page = readPage(args);
      const where = conditions.of(type, project.name, args);
      if (!where) return empty(page);
      const result = await entities.query(project.name, type, {
        ...where,
        ...page,
        folderFlags: type !== 'folder' || asksFor(info, FOLDER_FLAGS),
        folderCounts: type === 'folder' && asksFor(info, FOLDER_COUNTS),
        caller: ctx.caller,
      });
      const node = asNode(project.name, type);
      return toConnection(
        result.items.map((item) => ({ cursor: item.cursor, node: node(item.entity) })),
        result.hasMore,
        page,
      );
    };

  /** One entity by id, or null. */
  const one =
    (type: ProjectEntityType) =>
    async (project: ProjectRecord, { id }: { id: string }, ctx: GraphContext) =>
      (await readNodes([{ projectName: project.name, type, id }], ctx))[0];

  /**
   * A nested connection (folder.tasks, product.versions, ...) for many parents in one read per distinct set of
   * arguments: the limit applies per parent, and hasNextPage per parent.
   */
  const children =
    (type: ProjectEntityType, per: 'parent' | 'task') =>
    async (queries: LoaderQuery[], ctx: GraphContext) => {
      const answers: unknown[] = new Array(queries.length);
      for (const { projectName, params, at } of groupLoaderQueries(queries)) {
        const page = readPage(params);
        const where = conditions.of(type, projectName, params);
        if (!where) {
          for (const i of at) answers[i] = empty(page);
          continue;
        }
        const owners = at.map((i) => queries[i].obj.id);
        const restrict: Partial<EntityQuery> =
          per === 'task' ? { taskIds: owners } : { parentIds: owners, includeFolderChildren: false };
        const result = await entities.query(projectName, type, {
          ...where,
          ...restrict,
          ...page,
          per,
          folderCounts: type === 'folder',
          caller: ctx.caller,
        });
        const column = per === 'task' ? 'taskId' : OWNER_FIELD[type];
        const node = asNode(projectName, type);
        const byOwner = new Map<string, { cursor: string; node: Node }[]>();
        for (const item of result.items) {
          const owner = item.entity[column];
          if (!byOwner.has(owner)) byOwner.set(owner, []);
          byOwner.get(owner)!.push({ cursor: item.cursor, node: node(item.entity) });
        }
        const withMore = new Set(result.groupsWithMore);
        for (const i of at) {
          const owner = queries[i].obj.id;
          answers[i] = toConnection(byOwner.get(owner) ?? [], withMore.has(owner), page);
        }
      }
      return answers;
    };

  /** The entity a node points at (task.folder, version.product, ...), read for all nodes at once. */
  const parent = (type: ProjectEntityType, field: string) => (queries: LoaderQuery[], ctx: GraphContext) =>
    readNodes(
      queries.map(({ obj }) => ({ projectName: obj.projectName, type, id: obj[field] })),
      ctx,
    );

  /** Versions of many products in one read, in version order, with the same arguments. */
  const productVersions = async (queries: LoaderQuery[], ctx: GraphContext, latest: boolean) => {
    const answers: Node[][] = queries.map(() => []);
    for (const { projectName, at } of groupLoaderQueries(queries.map(({ obj }) => ({ obj, params: {} })))) {
      const owners = at.map((i) => queries[i].obj.id);
      const result = await entities.query(projectName, 'version', {
        parentIds: owners,
        per: 'parent',
        limit: latest ? 1 : 10_000,
        latestOnly: latest || undefined,
        sortBy: 'version',
        caller: ctx.caller,
      });
      const node = asNode(projectName, 'version');
      for (const i of at)
        answers[i] = result.items
          .filter((item) => item.entity.productId === queries[i].obj.id)
          .map((item) => node(item.entity));
    }
    return answers;
  };

  /** Links touching each node, seen from the node: AYON's edges carry the link, node the entity at the far end. */
  const nodeLinks = async (queries: LoaderQuery[]) => {
    const answers: unknown[] = new Array(queries.length);
    for (const { projectName, params, at } of groupLoaderQueries(queries)) {
      const direction =
        params.direction === 'in' || params.direction === 'out' ? params.direction : undefined;
      const ids = at.map((i) => queries[i].obj.id);
      const found = await links.query(projectName, {
        entityIds: ids,
        direction,
        linkTypes: params.linkTypes ?? undefined,
        names: params.names ?? undefined,
        nameEx: params.nameEx ?? undefined,
      });
      for (const i of at) {
        const id = queries[i].obj.id;
        const mine = found
          .filter(
            (link) =>
              (direction !== 'in' && link.inputId === id) || (direction !== 'out' && link.outputId === id),
          )
          .map((link) => linkEdge(projectName, link, id));
        const page = { ...readPage({ first: params.first ?? 100, after: params.after }) };
        const connection = pageList(mine, page, (link) => link.id);
        answers[i] = {
          ...connection,
          edges: connection.edges.map(({ node, cursor }) => ({ ...node, cursor })),
        };
      }
    }
    return answers;
  };

  const common = {
    data: (node: Node) => jsonOrNull(node.data),
    allAttrib: (node: Node) => json(node.attrib),
    parents: (node: Node) => parentsOf(node),
    // The activities addon resolves the feeds; without it an entity has no activities.
    activities: (_: Node, args: ConnectionArgs) => toConnection([], false, readPage(args)),
  };
  // Reviewables belong to the reviewables addon, which answers hasReviewables when it runs; without it there are
  // none.
  const reviewed = { thumbnail: thumbnailOf, hasReviewables: () => false };

  return {
    resolvers: {
      BaseNode: {
        // Entities from other addons (list items) may name only their entityType.
        resolveType: (node: Node) => node.__typename ?? NODE_TYPES[node.entityType as ProjectEntityType],
      },
      FolderNode: {
        ...common,
        ...reviewed,
        type: (node: Node) => node.folderType,
        // Counts come with the folder read when asked for; hasChildren and hasTasks may come alone.
        childCount: (node: Node) => node.childCount ?? 0,
        productCount: (node: Node) => node.productCount ?? 0,
        taskCount: (node: Node) => node.taskCount ?? 0,
        hasChildren: (node: Node) => node.hasChildren ?? node.childCount > 0,
        hasProducts: (node: Node) => node.productCount > 0,
        hasTasks: (node: Node) => node.hasTasks ?? node.taskCount > 0,
      },
      TaskNode: { ...common, ...reviewed, type: (node: Node) => node.taskType },
      ProductNode: {
        ...common,
        type: (node: Node) => node.productType,
        productBaseType: (node: Node) => node.productType,
      },
      VersionNode: { ...common, ...reviewed },
      RepresentationNode: {
        ...common,
        fileCount: (node: Node) => node.files.length,
        files: (node: Node) =>
          (node.files as Record<string, any>[]).map((file) => ({
            id: file.id ?? '',
            name: file.name ?? baseName(String(file.path)),
            path: file.path,
            hash: file.hash ?? null,
            // As text: sizes outgrow GraphQL's 32-bit Int.
            size: String(file.size ?? 0),
            hashType: file.hashType ?? 'md5',
          })),
        traits: (node: Node) => (node.traits ? json(node.traits) : null),
        context: (node: Node) => json(node.data?.context),
      },
      WorkfileNode: {
        data: common.data,
        allAttrib: common.allAttrib,
        activities: common.activities,
        thumbnail: thumbnailOf,
      },
    },
    loaders: {
      FolderNode: {
        parent: parent('folder', 'parentId'),
        tasks: children('task', 'parent'),
        products: children('product', 'parent'),
        links: nodeLinks,
      },
      TaskNode: {
        folder: parent('folder', 'folderId'),
        versions: children('version', 'task'),
        workfiles: children('workfile', 'parent'),
        links: nodeLinks,
      },
      ProductNode: {
        folder: parent('folder', 'folderId'),
        versions: children('version', 'parent'),
        versionList: async (queries: LoaderQuery[], ctx: GraphContext) =>
          (await productVersions(queries, ctx, false)).map((versions) =>
            versions.map((v) => ({ id: v.id, version: v.version, name: v.name })),
          ),
        latestVersion: async (queries: LoaderQuery[], ctx: GraphContext) =>
          (await productVersions(queries, ctx, true)).map((versions) => versions[0] ?? null),
        links: nodeLinks,
      },
      VersionNode: {
        product: parent('product', 'productId'),
        task: parent('task', 'taskId'),
        representations: children('representation', 'parent'),
        links: nodeLinks,
      },
      RepresentationNode: { version: parent('version', 'versionId'), links: nodeLinks },
      WorkfileNode: {
        task: parent('task', 'taskId'),
        links: nodeLinks,
        // The task's folders and the task itself.
        parents: async (queries: LoaderQuery[], ctx: GraphContext) =>
          (
            await readNodes(
              queries.map(({ obj }) => ({
                projectName: obj.projectName,
                type: 'task' as const,
                id: obj.taskId,
              })),
              ctx,
            )
          ).map((task) => (task ? String(task.path).split('/').filter(Boolean) : [])),
      },
      LinkEdge: {
        node: (queries: { obj: Record<string, any> }[], ctx: GraphContext) =>
          readNodes(
            queries.map(({ obj }) => ({
              projectName: obj.projectName,
              type: obj.entityType,
              id: obj.entityId,
            })),
            ctx,
          ),
      },
    },
    list,
    one,
  };
}

/** A link as AYON's LinkEdge shows it, seen from one of its ends. */
function linkEdge(projectName: string, link: LinkRecord, seenFrom: string) {
  const out = seenFrom === link.inputId;
  return {
    id: link.id,
    projectName,
    name: link.name,
    linkType: link.linkType,
    direction: out ? 'out' : 'in',
    entityId: out ? link.outputId : link.inputId,
    entityType: out ? link.outputType : link.inputType,
    author: link.author,
    description: `${link.linkType} link with input ${link.inputType} and output ${link.outputType}`,
  };
}
