import { GraphQLError } from 'graphql';
import { BadRequest, Forbidden, type RequestUser } from '@pipewright/sdk';
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
 * caller is in: naming every project must not add up to listing everyone), or themself by name. Answers the one
 * user the caller is kept to, or null when the projects filter is limit enough.
 */
function limitForCaller(caller: RequestUser, args: UserListArgs, projects: string[]): string | null {
  // An empty projects list filters nothing (AYON lists everyone then), so it is no project filter at all.
  if (projects.length === 0) {
    if (!asksForSelfOnly(caller, args)) throw new Forbidden('You are not allowed to access list_all_users');
    return caller.name;
  }
  const outside = projects.find((project) => !memberOf(caller, project));
  if (outside) throw new Forbidden(`You are not allowed to list the users of project ${outside}`);
  return null;
}

/**
 * Users by name, as AYON lists them: everyone for managers and whoever holds list_all_users, else only the people
 * of the projects asked for (or the caller). The users addon filters and pages them in SQL.
 */
export async function listUsers(users: UserDirectory, caller: RequestUser, args: UserListArgs) {
  const page = readPage(args);
  const projects = [...(args.projects ?? [])];
  if (args.projectName && !projects.includes(args.projectName)) projects.push(args.projectName);
  const mayListAll = (await users.studioPermissions(caller)).list_all_users;
  const onlyUser = mayListAll ? null : limitForCaller(caller, args, projects);

  const empty = toConnection<UserNodeSource>([], false, page);
  if (args.name != null) check([args.name], USER_NAME, 'User name');
  if (args.names != null) {
    if (!args.names.length) return empty;
    check(args.names, USER_NAME, 'User name');
  }
  if (args.emails != null) {
    if (!args.emails.length) return empty;
    check(args.emails, EMAIL, 'E-mail');
  }
  const rows = await users.listPage({
    onlyUser: onlyUser ?? undefined,
    namePattern: args.name ?? undefined,
    names: args.names ?? undefined,
    emails: args.emails ?? undefined,
    projects,
    after: page.after ? decode(page.after, 'after') : undefined,
    before: page.before ? decode(page.before, 'before') : undefined,
    descending: page.fromEnd,
    limit: page.limit + 1,
  });
  return rowsToConnection(rows, page, (row) => ({ cursor: encode(row.name), node: row }));
}
