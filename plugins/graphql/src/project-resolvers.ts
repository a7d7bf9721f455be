import { GraphQLError, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';
import {
  isId,
  type EntityDirectory,
  type EntityQuery,
  type LinkDirectory,
  type LinkRecord,
  type ProjectDirectory,
  type ProjectEntityType,
  type ProjectRecord,
} from '@pipewright/sdk';
import { pageList, readPage, toConnection, type PageArgs } from './connection.js';
import type { GraphContext } from './context.js';

type Args = PageArgs & Record<string, any>;
/** An entity as the REST API shows it, plus the project it belongs to. */
type Node = Record<string, any> & { id: string; projectName: string };
type LoaderQuery = { obj: Node; params: Args };

const json = (value: unknown) => JSON.stringify(value ?? {});

function parseFilter(filter: string | undefined): unknown {
  if (filter === undefined || filter === null) return undefined;
  try {
    return JSON.parse(filter);
  } catch {
    throw new GraphQLError('filter is not valid JSON', {
      extensions: { status: 422, code: 'invalid-filter' },
    });
  }
}

/** The EntityQuery conditions a connection's arguments ask for (paging excluded). */
function conditions(type: ProjectEntityType, args: Args): Omit<EntityQuery, 'limit'> {
  const q: Omit<EntityQuery, 'limit'> = {
    ids: args.ids ?? undefined,
    names: args.names ?? undefined,
    name: args.name ?? undefined,
    statuses: args.statuses ?? undefined,
    tags: args.tags ?? undefined,
    active: args.active ?? undefined,
    filter: parseFilter(args.filter),
  };
  switch (type) {
    case 'folder': {
      const parents = [...(args.parentIds ?? []), ...(args.parentId != null ? [args.parentId] : [])];
      if (parents.length) q.parentIds = parents.map((id: string) => (id === 'root' ? null : id));
      return { ...q, paths: args.paths ?? undefined, types: args.folderTypes ?? undefined };
    }
    case 'task':
      return {
        ...q,
        parentIds: args.folderIds ?? undefined,
        types: args.taskTypes ?? undefined,
        assignees: args.assignees ?? undefined,
      };
    case 'product':
      return { ...q, parentIds: args.folderIds ?? undefined, types: args.productTypes ?? undefined };
    case 'version':
      return {
        ...q,
        parentIds: args.productIds ?? undefined,
        taskIds: args.taskIds ?? undefined,
        versions: args.versions ?? undefined,
        authors: args.authors ?? undefined,
        latestOnly: args.latestOnly ?? undefined,
        heroOnly: args.heroOnly ?? undefined,
        heroOrLatestOnly: args.heroOrLatestOnly ?? undefined,
      };
    case 'representation':
      return { ...q, parentIds: args.versionIds ?? undefined };
    case 'workfile':
      return { ...q, parentIds: args.taskIds ?? undefined };
  }
}

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

const withProject = (projectName: string) => (item: { cursor: string; entity: Record<string, any> }) => ({
  cursor: item.cursor,
  node: { ...item.entity, projectName } as Node,
});

/** Group loader queries that can share one read: same project, same arguments. */
function groupQueries(
  queries: LoaderQuery[],
): Map<string, { projectName: string; params: Args; at: number[] }> {
  const groups = new Map<string, { projectName: string; params: Args; at: number[] }>();
  queries.forEach(({ obj, params }, index) => {
    const key = JSON.stringify([obj.projectName, params]);
    const group = groups.get(key) ?? { projectName: obj.projectName, params, at: [] };
    group.at.push(index);
    groups.set(key, group);
  });
  return groups;
}

export function projectResolvers(
  entities: EntityDirectory,
  links: LinkDirectory,
  projects: ProjectDirectory,
) {
  /** A top-level connection of one project. */
  const list =
    (type: ProjectEntityType) =>
    async (project: ProjectRecord, args: Args, ctx: GraphContext, info: GraphQLResolveInfo) => {
      const page = readPage(args);
      const folderFlags = type !== 'folder' || asksFor(info, FOLDER_FLAGS);
      const result = await entities.query(project.name, type, {
        ...conditions(type, args),
        ...page,
        folderFlags,
        caller: ctx.caller,
      });
      return toConnection(result.items.map(withProject(project.name)), result.hasMore, page);
    };

  /** One entity by id, or null. */
  const one =
    (type: ProjectEntityType) =>
    async (project: ProjectRecord, { id }: { id: string }, ctx: GraphContext) => {
      if (!isId(id)) return null;
      const result = await entities.query(project.name, type, { ids: [id], limit: 1, caller: ctx.caller });
      return result.items.map(withProject(project.name))[0]?.node ?? null;
    };

  /**
   * A nested connection (folder.tasks, product.versions, ...) for many parents in one read per distinct set of
   * arguments: the limit applies per parent, and hasNextPage per parent.
   */
  const children =
    (type: ProjectEntityType, restrict: 'parentIds' | 'taskIds', per: 'parent' | 'task') =>
    async (queries: LoaderQuery[], ctx: GraphContext) => {
      const answers: unknown[] = new Array(queries.length);
      for (const { projectName, params, at } of groupQueries(queries).values()) {
        const page = readPage(params);
        const owners = at.map((i) => queries[i].obj.id);
        const result = await entities.query(projectName, type, {
          ...conditions(type, params),
          [restrict]: owners,
          ...page,
          per,
          caller: ctx.caller,
        });
        const column =
          per === 'task'
            ? 'taskId'
            : {
                task: 'folderId',
                product: 'folderId',
                version: 'productId',
                representation: 'versionId',
                workfile: 'taskId',
                folder: 'parentId',
              }[type];
        const byOwner = new Map<string, { cursor: string; node: Node }[]>();
        for (const item of result.items) {
          const owner = item.entity[column];
          if (!byOwner.has(owner)) byOwner.set(owner, []);
          byOwner.get(owner)!.push(withProject(projectName)(item));
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
  const parent =
    (type: ProjectEntityType, field: string) => async (queries: LoaderQuery[], ctx: GraphContext) => {
      const byProject = new Map<string, Set<string>>();
      for (const { obj } of queries) {
        if (!obj[field]) continue;
        if (!byProject.has(obj.projectName)) byProject.set(obj.projectName, new Set());
        byProject.get(obj.projectName)!.add(obj[field]);
      }
      const found = new Map<string, Node>();
      for (const [projectName, ids] of byProject) {
        const result = await entities.query(projectName, type, {
          ids: [...ids],
          limit: ids.size,
          caller: ctx.caller,
        });
        for (const item of result.items)
          found.set(`${projectName}/${item.entity.id}`, { ...item.entity, projectName } as Node);
      }
      return queries.map(({ obj }) =>
        obj[field] ? (found.get(`${obj.projectName}/${obj[field]}`) ?? null) : null,
      );
    };

  /** Links touching each node, seen from the node: direction, and the entity at the other end. */
  const nodeLinks = async (queries: LoaderQuery[]) => {
    const answers: unknown[] = new Array(queries.length);
    for (const { projectName, params, at } of groupQueries(queries).values()) {
      const direction =
        params.direction === 'in' || params.direction === 'out' ? params.direction : undefined;
      const ids = at.map((i) => queries[i].obj.id);
      const found = await links.query(projectName, {
        entityIds: ids,
        direction,
        linkTypes: params.linkTypes ?? undefined,
      });
      for (const i of at) {
        const id = queries[i].obj.id;
        const mine = found
          .filter(
            (link) =>
              (direction !== 'in' && link.inputId === id) || (direction !== 'out' && link.outputId === id),
          )
          .map((link) => linkNode(projectName, link, id));
        answers[i] = pageList(mine, readPage(params), (link) => link.id);
      }
    }
    return answers;
  };

  const entityFields = {
    allAttrib: (node: Node) => json(node.attrib),
    data: (node: Node) => json(node.data),
  };

  return {
    resolvers: {
      Query: {
        project: (_: unknown, { name }: { name: string }, ctx: GraphContext) =>
          projects.require(ctx.caller, name),
      },
      ProjectNode: {
        projectName: (p: ProjectRecord) => p.name,
        allAttrib: (p: ProjectRecord) => json(p.attrib),
        config: (p: ProjectRecord) => json(p.config),
        linkTypes: (p: ProjectRecord) =>
          p.linkTypes.map((item) => {
            const [linkType, inputType, outputType] = String(item.name).split('|');
            const data = (item.data ?? {}) as Record<string, unknown>;
            return {
              name: item.name,
              linkType,
              inputType,
              outputType,
              color: item.color ?? data.color ?? null,
              style: item.style ?? data.style ?? null,
            };
          }),
        productTypes: (p: ProjectRecord) => entities.productTypes(p.name),
        folder: one('folder'),
        folders: list('folder'),
        task: one('task'),
        tasks: list('task'),
        product: one('product'),
        products: list('product'),
        version: one('version'),
        versions: list('version'),
        representation: one('representation'),
        representations: list('representation'),
        workfile: one('workfile'),
        workfiles: list('workfile'),
        links: async (p: ProjectRecord, args: Args) => {
          const found = await links.query(p.name, {
            linkTypes: args.linkTypes ?? undefined,
            names: args.names ?? undefined,
          });
          return pageList(
            found.map((link) => linkNode(p.name, link, null)),
            readPage(args),
            (link) => link.id,
          );
        },
      },
      FolderNode: entityFields,
      TaskNode: entityFields,
      ProductNode: { ...entityFields, productBaseType: (node: Node) => node.productType },
      VersionNode: entityFields,
      RepresentationNode: {
        ...entityFields,
        fileCount: (node: Node) => node.files.length,
        traits: (node: Node) => (node.traits ? json(node.traits) : null),
      },
      WorkfileNode: entityFields,
    },
    loaders: {
      FolderNode: {
        parent: parent('folder', 'parentId'),
        tasks: children('task', 'parentIds', 'parent'),
        products: children('product', 'parentIds', 'parent'),
        links: nodeLinks,
      },
      TaskNode: {
        folder: parent('folder', 'folderId'),
        versions: children('version', 'taskIds', 'task'),
        workfiles: children('workfile', 'parentIds', 'parent'),
        links: nodeLinks,
      },
      ProductNode: {
        folder: parent('folder', 'folderId'),
        versions: children('version', 'parentIds', 'parent'),
        links: nodeLinks,
      },
      VersionNode: {
        product: parent('product', 'productId'),
        task: parent('task', 'taskId'),
        representations: children('representation', 'parentIds', 'parent'),
        links: nodeLinks,
      },
      RepresentationNode: { version: parent('version', 'versionId'), links: nodeLinks },
      WorkfileNode: { task: parent('task', 'taskId'), links: nodeLinks },
    },
  };
}

function linkNode(projectName: string, link: LinkRecord, seenFrom: string | null) {
  const out = seenFrom === link.inputId;
  return {
    ...link,
    projectName,
    description: '',
    data: json(link.data),
    direction: seenFrom === null ? null : out ? 'out' : 'in',
    entityId: seenFrom === null ? null : out ? link.outputId : link.inputId,
    entityType: seenFrom === null ? null : out ? link.outputType : link.inputType,
  };
}
