import { sql, type RawBuilder } from 'kysely';
import {
  compileFilter,
  isManagerOrAbove,
  isoTime,
  NotFound,
  ValidationFailed,
  type Database,
  type FieldKind,
  type FieldMap,
  type ProjectEntityType,
  type RequestUser,
} from '@pipewright/sdk';
import type { EntityDirectory } from '@pipewright/plugin-entities/api';
import type { ProjectDirectory } from '@pipewright/plugin-projects/api';
import type { TeamDirectory } from '@pipewright/plugin-teams/api';
import { LEVEL, levelOf, namesTeams } from './access-level.js';
import type { EntityLookup } from './entity-lookup.js';
import type { ItemRow, ListRow } from './store.js';

/** The lists part of /graphql, in AYON's shape: ProjectNode.entityList(s), their items with the listed entities. */
export const LIST_SCHEMA = `
type EntityListNode {
  projectName: String!
  id: String!
  entityListType: String!
  entityType: String!
  label: String!
  tags: [String!]!
  owner: String
  active: Boolean!
  createdAt: DateTime!
  updatedAt: DateTime!
  createdBy: String
  updatedBy: String
  count: Int!
  data: String!
  attributes: String!
  items(first: Int, after: String, last: Int, before: String, sortBy: String, accessibleOnly: Boolean! = false, filter: String): EntityListItemsConnection!
}
type EntityListEdge { node: EntityListNode!, cursor: String }
type EntityListsConnection { edges: [EntityListEdge!]!, pageInfo: PageInfo! }

type EntityListItemEdge {
  id: String!
  projectName: String!
  entityType: String!
  entityId: String!
  position: Int!
  attrib: String!
  allAttrib: String!
  ownAttrib: [String!]!
  folderPath: String!
  tags: [String!]!
  data: String!
  createdBy: String
  updatedBy: String
  createdAt: DateTime!
  updatedAt: DateTime!
  cursor: String
  node: BaseNode
}
type EntityListItemsConnection { edges: [EntityListItemEdge!]!, pageInfo: PageInfo! }

extend type ProjectNode {
  entityList(id: String!): EntityListNode!
  entityLists(first: Int, after: String, last: Int, before: String, ids: [String!], filter: String, sortBy: String): EntityListsConnection!
}
`;

type Args = {
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
} & Record<string, any>;
type Row = Record<string, any>;
type Context = { caller: RequestUser };

// AYON's defaults: 100 lists, 200 items a page when neither first nor last is given.
const LIST_PAGE = 100;
const ITEM_PAGE = 200;

const col = (name: string, kind: FieldKind) => ({ expr: sql.ref(name), kind });

const LIST_FIELDS: FieldMap = {
  id: col('id', 'uuid'),
  label: col('label', 'text'),
  owner: col('owner', 'text'),
  entityType: col('entity_type', 'text'),
  entityListType: col('entity_list_type', 'text'),
  createdAt: col('created_at', 'timestamp'),
  updatedAt: col('updated_at', 'timestamp'),
  createdBy: col('created_by', 'text'),
  updatedBy: col('updated_by', 'text'),
  active: col('active', 'boolean'),
  count: { expr: sql.ref('count'), kind: 'integer' },
  tags: col('tags', 'textArray'),
};
const LIST_SORT: Record<string, string> = {
  label: 'label',
  owner: 'created_by',
  entityListType: 'entity_list_type',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  count: 'count',
  active: 'active',
};

const ITEM_FIELDS: FieldMap = {
  id: col('id', 'uuid'),
  entityId: col('entity_id', 'uuid'),
  entityListId: col('entity_list_id', 'uuid'),
  position: col('position', 'integer'),
  label: col('label', 'text'),
  attrib: col('attrib', 'json'),
  data: col('data', 'json'),
  tags: col('tags', 'textArray'),
  createdAt: col('created_at', 'timestamp'),
  updatedAt: col('updated_at', 'timestamp'),
  createdBy: col('created_by', 'text'),
  updatedBy: col('updated_by', 'text'),
};
const ITEM_SORT: Record<string, string> = {
  position: 'position',
  label: 'label',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
  createdBy: 'created_by',
  updatedBy: 'updated_by',
};
// Sorted once the items' folders are known: the folder path is not a column of the items.
const PATH_SORT = new Set(['folderPath', 'path']);

function parseFilter(filter: string | null | undefined): unknown {
  if (!filter) return undefined;
  try {
    return JSON.parse(filter);
  } catch {
    throw new ValidationFailed([
      { loc: ['filter'], msg: 'filter is not valid JSON', type: 'value_error.json' },
    ]);
  }
}

const badSort = (key: string, options: string[]) =>
  new ValidationFailed([
    {
      loc: ['sortBy'],
      msg: `cannot sort by '${key}'; use one of ${options.join(', ')}`,
      type: 'value_error.sort',
    },
  ]);

const cursorOf = (id: string) => Buffer.from(JSON.stringify([id])).toString('base64');

/** A page of an ordered list, by the ids in cursors (lists and their items are read whole, then paged). */
function page<T extends { id: string }>(all: T[], args: Args, size: number) {
  const at = (cursor: string | null | undefined) =>
    cursor ? all.findIndex((item) => cursorOf(item.id) === cursor) : -1;
  const start = args.after ? at(args.after) + 1 : 0;
  const beforeAt = args.before ? at(args.before) : -1;
  const window = all.slice(start, beforeAt >= 0 ? beforeAt : all.length);
  const fromEnd = args.last != null && args.first == null;
  const limit = (fromEnd ? args.last : args.first) ?? size;
  const chosen = fromEnd ? window.slice(Math.max(0, window.length - limit)) : window.slice(0, limit);
  const more = window.length > chosen.length;
  return {
    chosen,
    pageInfo: {
      hasNextPage: fromEnd ? !!args.before : more,
      hasPreviousPage: fromEnd ? more : !!args.after,
      startCursor: chosen[0] ? cursorOf(chosen[0].id) : null,
      endCursor: chosen.length ? cursorOf(chosen[chosen.length - 1].id) : null,
    },
  };
}

/** The schema, resolvers and loaders the lists addon adds to /graphql. */
export function listGraphQL(deps: {
  db: Database;
  schemaName: (project: string) => string;
  projects: ProjectDirectory;
  entities: EntityDirectory;
  teams: TeamDirectory;
  lookup: EntityLookup;
}) {
  const { db, schemaName, projects, entities, teams, lookup } = deps;
  const table = (project: string, name: string) => sql.table(`${schemaName(project)}.${name}`);

  /** Lists of a project, in the order asked, that the caller may read (AYON leaves the others out). */
  async function readLists(caller: RequestUser, projectName: string, args: Args) {
    const project = (await projects.require(caller, projectName)).name;
    const where: RawBuilder<boolean>[] = [];
    if (args.ids) where.push(sql<boolean>`id = ANY(${args.ids}::uuid[])`);
    const filter = parseFilter(args.filter);
    if (filter) where.push(compileFilter(filter, LIST_FIELDS, ['filter']));
    const sortBy = args.sortBy as string | null | undefined;
    if (sortBy && !LIST_SORT[sortBy]) throw badSort(sortBy, Object.keys(LIST_SORT));
    const order = sortBy ? sql`${sql.ref(LIST_SORT[sortBy])}, creation_order` : sql`creation_order`;
    const rows = (
      await sql<Row>`
        SELECT * FROM (
          SELECT l.*, (SELECT count(*) FROM ${table(project, 'entity_list_items')} i WHERE i.entity_list_id = l.id)::int AS count
          FROM ${table(project, 'entity_lists')} l
        ) l ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
        ORDER BY ${order}`.execute(db)
    ).rows;
    const myTeams =
      !isManagerOrAbove(caller) && rows.some((row) => namesTeams(row.access))
        ? await teams.teamsOf(project, caller.name)
        : [];
    return rows
      .filter((row) => levelOf(caller, project, row as ListRow, myTeams) >= LEVEL.read)
      .map((row) => ({ ...row, id: row.id as string, projectName: project }));
  }

  /** The items of one list, filtered and sorted in SQL (folder paths aside), with their folder paths. */
  async function readItems(list: Row, args: Args) {
    const where: RawBuilder<boolean>[] = [sql<boolean>`entity_list_id = ${list.id}`];
    const filter = parseFilter(args.filter);
    if (filter) where.push(compileFilter(filter, ITEM_FIELDS, ['filter']));
    const sortBy = args.sortBy as string | null | undefined;
    if (sortBy && !ITEM_SORT[sortBy] && !PATH_SORT.has(sortBy))
      throw badSort(sortBy, [...Object.keys(ITEM_SORT), ...PATH_SORT]);
    const order = sortBy && ITEM_SORT[sortBy] ? sql`${sql.ref(ITEM_SORT[sortBy])}, position` : sql`position`;
    const rows = (
      await sql<ItemRow>`SELECT * FROM ${table(list.projectName, 'entity_list_items')} WHERE ${sql.join(where, sql` AND `)} ORDER BY ${order}, id`.execute(
        db,
      )
    ).rows;
    const paths = await lookup.folderPaths(
      list.projectName,
      list.entity_type,
      rows.map((row) => row.entity_id),
    );
    const items = rows.map((row) => ({ ...row, folderPath: paths.get(row.entity_id) ?? '' }));
    if (sortBy && PATH_SORT.has(sortBy))
      items.sort((a, b) =>
        a.folderPath < b.folderPath ? -1 : a.folderPath > b.folderPath ? 1 : a.position - b.position,
      );
    return items;
  }

  /** The listed entities the caller may read, as nodes, by id. */
  async function nodesOf(caller: RequestUser, projectName: string, type: ProjectEntityType, ids: string[]) {
    if (!ids.length) return new Map<string, Row>();
    const found = await entities.query(projectName, type, {
      ids: [...new Set(ids)],
      limit: ids.length,
      caller,
      folderCounts: true,
    });
    return new Map(
      found.items.map((item) => [
        item.entity.id as string,
        // BaseNode's type is told from entityType by the graphql addon.
        { ...item.entity, projectName, entityType: type },
      ]),
    );
  }

  return {
    schema: LIST_SCHEMA,
    resolvers: {
      ProjectNode: {
        entityList: async (project: { name: string }, { id }: { id: string }, ctx: Context) => {
          const [list] = /^[0-9a-f]{32}$/.test(id)
            ? await readLists(ctx.caller, project.name, { ids: [id] })
            : [];
          if (!list) throw new NotFound(`Entity list ${id} not found`);
          return list;
        },
        entityLists: async (project: { name: string }, args: Args, ctx: Context) => {
          if (args.ids && args.ids.length === 0) return page([], args, LIST_PAGE);
          const { chosen, pageInfo } = page(await readLists(ctx.caller, project.name, args), args, LIST_PAGE);
          return { edges: chosen.map((node) => ({ node, cursor: cursorOf(node.id) })), pageInfo };
        },
      },
      EntityListNode: {
        entityListType: (list: Row) => list.entity_list_type,
        entityType: (list: Row) => list.entity_type,
        createdBy: (list: Row) => list.created_by,
        updatedBy: (list: Row) => list.updated_by,
        createdAt: (list: Row) => isoTime(list.created_at),
        updatedAt: (list: Row) => isoTime(list.updated_at),
        data: (list: Row) => JSON.stringify({ ...list.data, count: list.count }),
        attributes: (list: Row) => JSON.stringify(list.data?.attributes ?? []),
        items: async (list: Row, args: Args, ctx: Context) => {
          const items = await readItems(list, args);
          const nodes = await nodesOf(
            ctx.caller,
            list.projectName,
            list.entity_type,
            items.map((item) => item.entity_id),
          );
          // accessibleOnly leaves out what the caller may not read; otherwise such items come without a node.
          const shown = args.accessibleOnly ? items.filter((item) => nodes.has(item.entity_id)) : items;
          const { chosen, pageInfo } = page(shown, args, ITEM_PAGE);
          return {
            edges: chosen.map((item) => ({
              ...item,
              projectName: list.projectName,
              entityType: list.entity_type,
              node: nodes.get(item.entity_id) ?? null,
              cursor: cursorOf(item.id),
            })),
            pageInfo,
          };
        },
      },
      EntityListItemEdge: {
        entityId: (item: Row) => item.entity_id,
        attrib: (item: Row) => JSON.stringify(item.attrib ?? {}),
        // The entity's attributes overlaid with the item's own.
        allAttrib: (item: Row) => JSON.stringify({ ...(item.node?.attrib ?? {}), ...item.attrib }),
        ownAttrib: (item: Row) => Object.keys(item.attrib ?? {}),
        data: (item: Row) => JSON.stringify(item.data ?? {}),
        createdBy: (item: Row) => item.created_by,
        updatedBy: (item: Row) => item.updated_by,
        createdAt: (item: Row) => isoTime(item.created_at),
        updatedAt: (item: Row) => isoTime(item.updated_at),
      },
    },
  };
}
