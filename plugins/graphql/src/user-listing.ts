import { GraphQLError } from 'graphql';
import { sql, type RawBuilder } from 'kysely';
import { BadRequest, Forbidden, type Database, type RequestUser } from '@pipewright/sdk';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import { readPage, rowsToConnection, toConnection, type PageArgs } from './connection.js';
import type { UserNodeSource } from './user-nodes.js';

/** The arguments of the root users field (AYON's). */
export interface UserListArgs extends PageArgs {
  name?: string | null;
  names?: string[] | null;
  emails?: string[] | null;
  projectName?: string | null;
  projects?: string[] | null;
}

const USER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*[a-zA-Z0-9]$/;
const EMAIL = /^[a-zA-Z0-9_.+-]+@[a-zA-Z0-9-]+\.[a-zA-Z0-9-.]+$/;

function check(values: string[], pattern: RegExp, what: string): string[] {
  for (const value of values)
    if (!pattern.test(value)) throw new BadRequest(`${what} '${value}' is not valid`, 'invalid-argument');
  return values;
}

const encode = (name: string) => Buffer.from(JSON.stringify([name])).toString('base64');
function decode(cursor: string, arg: string): string {
  try {
    const [name] = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    if (typeof name === 'string') return name;
  } catch {
    // answered below
  }
  throw new GraphQLError(`${arg} is not a cursor this server gave out`, {
    extensions: { status: 422, code: 'invalid-cursor' },
  });
}

const sameName = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** True when the arguments ask for the caller by name and for nobody else. */
function asksForSelfOnly(caller: RequestUser, args: UserListArgs): boolean {
  const names = [...(args.name != null ? [args.name] : []), ...(args.names ?? [])];
  return names.length > 0 && names.every((name) => sameName(name, caller.name));
}

/** The projects in which the caller holds access groups. */
const memberOf = (caller: RequestUser, project: string) =>
  Object.entries(caller.accessGroups).some(([name, groups]) => sameName(name, project) && groups.length > 0);

/**
 * Who a caller without list_all_users may list, as AYON limits it: the people of projects (here only projects the
 * caller is in: naming every project must not add up to listing everyone), or themself by name. Answers the SQL
 * condition that keeps the caller to themself, or null when the projects filter is limit enough.
 */
function limitForCaller(
  caller: RequestUser,
  args: UserListArgs,
  projects: string[],
): RawBuilder<boolean> | null {
  // An empty projects list filters nothing (AYON lists everyone then), so it is no project filter at all.
  if (projects.length === 0) {
    if (!asksForSelfOnly(caller, args)) throw new Forbidden('You are not allowed to access list_all_users');
    return sql<boolean>`lower(u.name) = ${caller.name.toLowerCase()}`;
  }
  const outside = projects.find((project) => !memberOf(caller, project));
  if (outside) throw new Forbidden(`You are not allowed to list the users of project ${outside}`);
  return null;
}

/**
 * Users by name, as AYON lists them: everyone for managers and whoever holds list_all_users, else only the people
 * of the projects asked for (or the caller). The users table is read directly so filters and paging stay in SQL.
 */
export async function listUsers(db: Database, users: UserDirectory, caller: RequestUser, args: UserListArgs) {
  const page = readPage(args);
  const projects = [...(args.projects ?? [])];
  if (args.projectName && !projects.includes(args.projectName)) projects.push(args.projectName);
  const mayListAll = (await users.studioPermissions(caller)).list_all_users;
  const limit = mayListAll ? null : limitForCaller(caller, args, projects);

  const empty = toConnection<UserNodeSource>([], false, page);
  const where: RawBuilder<boolean>[] = limit ? [limit] : [];
  if (args.name != null) {
    check([args.name], USER_NAME, 'User name');
    where.push(sql<boolean>`u.name ILIKE ${args.name}`);
  }
  if (args.names != null) {
    if (!args.names.length) return empty;
    where.push(sql<boolean>`u.name = ANY(${check(args.names, USER_NAME, 'User name')}::text[])`);
  }
  if (args.emails != null) {
    if (!args.emails.length) return empty;
    const emails = check(args.emails, EMAIL, 'E-mail').map((e) => e.toLowerCase());
    where.push(sql<boolean>`lower(u.attrib->>'email') = ANY(${emails}::text[])`);
  }
  // Managers and admins belong to every project; others to those they hold access groups in.
  if (projects.length)
    where.push(sql<boolean>`(u.data->>'isAdmin' = 'true' OR u.data->>'isManager' = 'true'
      OR (jsonb_typeof(u.data->'accessGroups') = 'object' AND u.data->'accessGroups' ?| ${projects}::text[]))`);
  if (page.after) where.push(sql<boolean>`u.name > ${decode(page.after, 'after')}`);
  if (page.before) where.push(sql<boolean>`u.name < ${decode(page.before, 'before')}`);

  const direction = sql.raw(page.fromEnd ? 'DESC' : 'ASC');
  const rows = (
    await sql<Record<string, any>>`
      SELECT u.name, u.active, u.attrib, u.data, u.password_hash IS NOT NULL AS has_password,
        u.created_at, u.updated_at,
        (SELECT k.preview FROM api_keys k WHERE k.user_name = u.name ORDER BY k.created_at DESC LIMIT 1) AS key_preview
      FROM users u
      ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
      ORDER BY u.name ${direction}
      LIMIT ${page.limit + 1}`.execute(db)
  ).rows;
  return rowsToConnection(rows, page, (row) => ({ cursor: encode(row.name), node: toSource(row) }));
}

function toSource(row: Record<string, any>): UserNodeSource {
  return {
    name: row.name,
    active: row.active,
    attrib: row.attrib ?? {},
    data: row.data ?? {},
    hasPassword: row.has_password,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    apiKeyPreview:
      row.key_preview ?? (typeof row.data?.apiKeyPreview === 'string' ? row.data.apiKeyPreview : null),
  };
}
