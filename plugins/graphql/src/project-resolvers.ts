import { GraphQLError } from 'graphql';
import type { AttributeDefinition } from '@pipewright/plugin-attributes/api';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { LinkDirectory } from '@pipewright/plugin-links/api';
import type { ProjectDirectory, ProjectRecord } from '@pipewright/plugin-projects/api';
import { pageList, readPage, type PageArgs } from './connection.js';
import type { GraphContext } from './context.js';
import { ConnectionConditions } from './entity-args.js';
import { entityResolvers, jsonOrNull } from './entity-resolvers.js';
import { thumbnailOf } from './nodes.js';
import { kanbanResolver } from './kanban.js';

type Item = Record<string, unknown>;
const text = (value: unknown) => (typeof value === 'string' ? value : null);

/** "%" is any run of characters, as in AYON's name filters (ILIKE); the rest is literal, letter case aside. */
function likePattern(pattern: string): RegExp {
  const escaped = pattern
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/%/g, '.*')
    .replace(/_/g, '.');
  return new RegExp(`^${escaped}$`, 'i');
}

/** A project's appearance data: data.bundle names the bundles it is pinned to. */
function bundleOf(project: ProjectRecord) {
  const bundle = (project.data?.bundle ?? {}) as Item;
  return { production: text(bundle.production), staging: text(bundle.staging) };
}

export function projectResolvers(
  entities: EntityDirectory,
  links: LinkDirectory,
  projects: ProjectDirectory,
  attributes: AttributeDefinition[],
) {
  const conditions = new ConnectionConditions(links, attributes);
  const nodes = entityResolvers(entities, links, conditions);
  const { list, one } = nodes;

  /** The projects the caller may see, by name, narrowed as the arguments ask. */
  async function visible(ctx: GraphContext, args: Item): Promise<ProjectRecord[]> {
    const names = await projects.visibleNames(ctx.caller, {
      active: (args.active as boolean | null) ?? undefined,
      library: (args.library as boolean | null) ?? undefined,
    });
    const byName = typeof args.name === 'string' ? likePattern(args.name) : null;
    const wanted = Array.isArray(args.names) ? new Set(args.names as string[]) : null;
    const chosen = names.filter((name) => (!byName || byName.test(name)) && (!wanted || wanted.has(name)));
    const records = (await Promise.all(chosen.map((name) => projects.find(name)))).filter(
      (p): p is ProjectRecord => p !== null,
    );
    const code = typeof args.code === 'string' ? likePattern(args.code) : null;
    return code ? records.filter((p) => code.test(p.code)) : records;
  }

  /** The names of a list the project declares, only those its entities use when asked. */
  const usedOnly = async <T extends { name: string }>(
    items: T[],
    activeOnly: boolean,
    used: () => Promise<string[]>,
  ) => {
    if (!activeOnly) return items;
    const names = new Set(await used());
    return items.filter((item) => names.has(item.name));
  };

  return {
    resolvers: {
      ...nodes.resolvers,
      Query: {
        project: async (
          _: unknown,
          args: { name?: string | null; code?: string | null },
          ctx: GraphContext,
        ) => {
          if (args.name) return projects.require(ctx.caller, args.name);
          if (!args.code)
            throw new GraphQLError('Either name or code must be provided', {
              extensions: { status: 400, code: 'bad-request' },
            });
          const [found] = await visible(ctx, { code: args.code });
          if (!found)
            throw new GraphQLError('Project not found', { extensions: { status: 404, code: 'not-found' } });
          return found;
        },
        projects: async (_: unknown, args: PageArgs & Item, ctx: GraphContext) =>
          pageList(await visible(ctx, args), readPage(args), (p) => p.name),
        kanban: kanbanResolver(entities, projects),
      },
      KanbanNode: {
        // Reviewables are the reviewables addon's to answer; without it there are none.
        hasReviewables: () => false,
      },
      ProjectNode: {
        projectName: (p: ProjectRecord) => p.name,
        allAttrib: (p: ProjectRecord) => JSON.stringify(p.attrib),
        config: (p: ProjectRecord) => jsonOrNull(p.config),
        data: (p: ProjectRecord) => jsonOrNull(p.data),
        // A project keeps no thumbnail of its own; one named in its data (AYON's keys) is answered.
        thumbnail: (p: ProjectRecord) =>
          thumbnailOf({ thumbnailId: text(p.data?.thumbnailId), data: p.data as Record<string, any> }),
        bundle: bundleOf,
        usedTags: async (p: ProjectRecord) => (await entities.usage(p.name)).tags,
        taskTypes: (p: ProjectRecord, { activeOnly }: { activeOnly: boolean }) =>
          usedOnly(
            p.taskTypes.map((t) => ({
              name: t.name,
              icon: text(t.icon),
              shortName: text(t.shortName),
              color: text(t.color),
            })),
            activeOnly,
            async () => (await entities.usage(p.name)).taskTypes,
          ),
        folderTypes: (p: ProjectRecord, { activeOnly }: { activeOnly: boolean }) =>
          usedOnly(
            p.folderTypes.map((t) => ({ name: t.name, icon: text(t.icon), shortName: text(t.shortName) })),
            activeOnly,
            async () => (await entities.usage(p.name)).folderTypes,
          ),
        linkTypes: (p: ProjectRecord, { activeOnly }: { activeOnly: boolean }) =>
          usedOnly(
            p.linkTypes.map((item) => {
              const [linkType, inputType, outputType] = String(item.name).split('|');
              const data = (item.data ?? {}) as Item;
              return {
                name: item.name,
                linkType,
                inputType,
                outputType,
                color: text(item.color ?? data.color),
                style: text(item.style ?? data.style) ?? 'solid',
              };
            }),
            activeOnly,
            () => links.usedTypes(p.name),
          ),
        productTypes: async (p: ProjectRecord) =>
          (await entities.productTypes(p.name)).map(({ name, icon, color }) => ({ name, icon, color })),
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
      },
    },
    loaders: nodes.loaders,
  };
}
