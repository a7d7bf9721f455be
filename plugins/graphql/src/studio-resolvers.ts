import { GraphQLError } from 'graphql';
import { sql, type RawBuilder } from 'kysely';
import {
  compileEventFilter,
  eventRowModel,
  isManagerOrAbove,
  type Database,
  type EntityDirectory,
  type ProjectDirectory,
  type UserDirectory,
  type UserRecord,
} from '@pipewright/sdk';
import { pageList, readPage, toConnection, type PageArgs } from './connection.js';
import type { GraphContext } from './context.js';

type Args = PageArgs & Record<string, any>;

const ROLES = ['isAdmin', 'isManager', 'isService', 'isGuest'] as const;

/** A user as GraphQL shows them: everything to managers and to the user themself, who they are to others. */
function userNode(user: UserRecord, caller: GraphContext['caller']) {
  const full = isManagerOrAbove(caller) || user.name === caller.name;
  const { fullName, email, avatarUrl } = user.attrib;
  const attrib = full ? user.attrib : { fullName, email, avatarUrl };
  return {
    name: user.name,
    active: user.active,
    ...Object.fromEntries(ROLES.map((role) => [role, user.data[role] === true])),
    hasPassword: user.hasPassword,
    attrib,
    allAttrib: JSON.stringify(attrib),
    data: JSON.stringify(full ? user.data : {}),
    accessGroups: JSON.stringify(full ? (user.data.accessGroups ?? {}) : {}),
    defaultAccessGroups:
      full && Array.isArray(user.data.defaultAccessGroups) ? user.data.defaultAccessGroups : [],
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

function parseFilter(filter: string): unknown {
  try {
    return JSON.parse(filter);
  } catch {
    throw new GraphQLError('filter is not valid JSON', {
      extensions: { status: 422, code: 'invalid-filter' },
    });
  }
}

const cursorOf = (order: number) => Buffer.from(JSON.stringify([order])).toString('base64');
function orderOf(cursor: string, name: string): number {
  try {
    const [order] = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    if (Number.isSafeInteger(order)) return order;
  } catch {
    // answered below
  }
  throw new GraphQLError(`${name} is not a cursor this server gave out`, {
    extensions: { status: 422, code: 'invalid-cursor' },
  });
}

function timestamp(value: string, name: string): string {
  if (Number.isNaN(Date.parse(value)))
    throw new GraphQLError(`${name} is not a date and time`, {
      extensions: { status: 422, code: 'invalid-date' },
    });
  return value;
}

/** Events, newest last, as the events page of the web app and service dashboards read them. */
async function events(db: Database, caller: GraphContext['caller'], args: Args) {
  const page = readPage(args);
  const where: RawBuilder<boolean>[] = [];
  if (args.ids) where.push(sql<boolean>`id = ANY(${args.ids}::uuid[])`);
  if (args.topics)
    where.push(
      sql<boolean>`topic LIKE ANY(${args.topics.map((t: string) => t.replace(/\*/g, '%'))}::text[])`,
    );
  if (args.projects) where.push(sql<boolean>`project_name = ANY(${args.projects}::text[])`);
  if (args.users) where.push(sql<boolean>`user_name = ANY(${args.users}::text[])`);
  if (args.statuses) where.push(sql<boolean>`status = ANY(${args.statuses}::text[])`);
  if (args.olderThan)
    where.push(sql<boolean>`updated_at < ${timestamp(args.olderThan, 'olderThan')}::timestamptz`);
  if (args.newerThan)
    where.push(sql<boolean>`updated_at > ${timestamp(args.newerThan, 'newerThan')}::timestamptz`);
  if (!args.includeLogs) where.push(sql<boolean>`topic NOT LIKE 'log.%'`);
  if (args.filter) where.push(compileEventFilter(parseFilter(args.filter), 'events', ['filter']));
  // Only managers read everyone's events; others read their own.
  if (!isManagerOrAbove(caller)) where.push(sql<boolean>`user_name = ${caller.name}`);
  if (page.after) where.push(sql<boolean>`creation_order > ${orderOf(page.after, 'after')}`);
  if (page.before) where.push(sql<boolean>`creation_order < ${orderOf(page.before, 'before')}`);
  const whereSql = where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``;
  const direction = sql.raw(page.fromEnd ? 'DESC' : 'ASC');
  let rows = (
    await sql<
      Record<string, any>
    >`SELECT * FROM events ${whereSql} ORDER BY creation_order ${direction} LIMIT ${page.limit + 1}`.execute(
      db,
    )
  ).rows;
  const hasMore = rows.length > page.limit;
  rows = rows.slice(0, page.limit);
  if (page.fromEnd) rows.reverse();
  const items = rows.map((row) => ({
    cursor: cursorOf(Number(row.creation_order)),
    node: {
      ...eventRowModel(row),
      summary: JSON.stringify(row.summary ?? {}),
      payload: JSON.stringify(row.payload ?? {}),
    },
  }));
  return toConnection(items, hasMore, page);
}

export function studioResolvers(
  db: Database,
  users: UserDirectory,
  projects: ProjectDirectory,
  entities: EntityDirectory,
) {
  return {
    Query: {
      projects: async (_: unknown, args: Args, ctx: GraphContext) => {
        let names = await projects.visibleNames(ctx.caller, {
          active: args.active ?? undefined,
          library: args.library ?? undefined,
        });
        if (args.names) names = names.filter((name) => args.names.includes(name));
        const records = (await Promise.all(names.map((name) => projects.find(name)))).filter(
          (p) => p !== null,
        );
        return pageList(records, readPage(args), (p) => p.name);
      },
      users: async (_: unknown, args: Args, ctx: GraphContext) => {
        let list = await users.list({ active: args.active ?? undefined });
        if (args.names) list = list.filter((user) => args.names.includes(user.name));
        return pageList(
          list.map((user) => userNode(user, ctx.caller)),
          readPage(args),
          (user) => user.name,
        );
      },
      user: async (_: unknown, { name }: { name: string }, ctx: GraphContext) => {
        const user = await users.get(name);
        return user ? userNode(user, ctx.caller) : null;
      },
      me: async (_: unknown, __: unknown, ctx: GraphContext) => {
        const user = await users.get(ctx.caller.name);
        if (!user)
          throw new GraphQLError('Not logged in', { extensions: { status: 401, code: 'unauthorized' } });
        return userNode(user, ctx.caller);
      },
      events: (_: unknown, args: Args, ctx: GraphContext) => events(db, ctx.caller, args),
      // Messages arrive with activities (mentions, watched entities, assignments); until then the inbox is empty.
      inbox: (_: unknown, args: Args) => toConnection([], false, readPage(args)),
      productTypes: async (_: unknown, __: unknown, ctx: GraphContext) => {
        const names = await projects.visibleNames(ctx.caller);
        const seen = new Map<string, unknown>();
        for (const name of names)
          for (const type of await entities.productTypes(name))
            if (!seen.has(type.name)) seen.set(type.name, type);
        return [...seen.values()];
      },
    },
  };
}
