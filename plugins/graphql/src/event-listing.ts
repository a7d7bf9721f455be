import { GraphQLError } from 'graphql';
import { sql, type RawBuilder } from 'kysely';
import {
  BadRequest,
  compileEventFilter,
  eventRowModel,
  isId,
  isManagerOrAbove,
  type Database,
  type EventRow,
  type RequestUser,
} from '@pipewright/sdk';
import { readPage, rowsToConnection, toConnection, type PageArgs } from './connection.js';
import { visibleName } from './user-nodes.js';

/** The arguments of the root events field (AYON's). */
export interface EventListArgs extends PageArgs {
  ids?: string[] | null;
  topics?: string[] | null;
  projects?: string[] | null;
  users?: string[] | null;
  states?: string[] | null;
  statuses?: string[] | null;
  hasChildren?: boolean | null;
  olderThan?: string | null;
  newerThan?: string | null;
  filter?: string | null;
  includeLogs?: boolean;
}

const TOPIC = /^[a-zA-Z][a-zA-Z0-9_.*]{2,64}$/;
const NAME = /^[a-zA-Z0-9_]([a-zA-Z0-9_.-]*[a-zA-Z0-9_])?$/;
const USER_NAME = /^[a-zA-Z0-9][a-zA-Z0-9_.-]*[a-zA-Z0-9]$/;
// AYON reads an ISO 8601 date, with or without time and offset.
const ISO_DATE = /^\d{4}-\d{2}-\d{2}([T ]\d{2}(:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$/;

function check(values: string[], pattern: RegExp, what: string): string[] {
  for (const value of values)
    if (!pattern.test(value)) throw new BadRequest(`${what} '${value}' is not valid`, 'invalid-argument');
  return values;
}

/** Whether the calendar date an ISO 8601 text starts with exists: JavaScript rolls 2024-02-30 over, PostgreSQL refuses it. */
function existingDate(value: string): boolean {
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}

function timestamp(value: string, arg: string): string {
  if (!ISO_DATE.test(value) || Number.isNaN(Date.parse(value)) || !existingDate(value))
    throw new BadRequest(`${arg}: '${value}' is not an ISO 8601 date`, 'invalid-argument');
  return value;
}

/**
 * Words of a text search as AYON cuts them: transliterated to ASCII, lower case, split at anything that is not a
 * letter or digit; words shorter than three letters are ignored.
 */
function searchWords(text: string): string[] {
  const ascii = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();
  return [...new Set(ascii.split(/[^a-z0-9]+/).filter((word) => word.length >= 3))];
}

/**
 * filter is AYON's text search over topic, project, user and description (every word must appear in one of
 * them). A JSON QueryFilter ({"conditions": [...]}) is read as such, a Pipewright extension AYON text never hits.
 */
function filterCondition(filter: string): RawBuilder<boolean>[] {
  const trimmed = filter.trim();
  if (trimmed.startsWith('{')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(trimmed);
    } catch {
      parsed = undefined;
    }
    if (parsed !== undefined) return [compileEventFilter(parsed, 'e', ['filter'])];
  }
  return searchWords(filter).map((word) => {
    const pattern = `%${word}%`;
    return sql<boolean>`(e.topic LIKE ${pattern} OR e.project_name LIKE ${pattern}
      OR e.user_name LIKE ${pattern} OR e.description LIKE ${pattern})`;
  });
}

const encode = (order: number) => Buffer.from(JSON.stringify([order])).toString('base64');
function decode(cursor: string, arg: string): number {
  try {
    const [order] = JSON.parse(Buffer.from(cursor, 'base64').toString('utf8'));
    if (Number.isSafeInteger(order)) return order;
  } catch {
    // answered below
  }
  throw new GraphQLError(`${arg} is not a cursor this server gave out`, {
    extensions: { status: 422, code: 'invalid-cursor' },
  });
}

const obscure = (text: string) => text.replace(/[^ ]/g, '*');

/** An EventNode as the caller may see it: guests see others under nicknames and their log lines hidden. */
function eventNode(row: EventRow, caller: RequestUser) {
  const event = eventRowModel(row);
  const foreign = caller.isGuest && event.user !== caller.name;
  return {
    ...event,
    user: foreign && event.user ? visibleName(event.user, caller) : event.user,
    description: foreign && event.topic.startsWith('log') ? obscure(event.description) : event.description,
    summary: JSON.stringify(event.summary),
    payload: JSON.stringify(event.payload),
    // AYON's events have no data of their own: the field is always null there.
    data: null,
  };
}

/**
 * Events in creation order, filtered in SQL as AYON filters them: those who are not managers read their own
 * events only, unless they ask for events by id; logs are left out unless asked for or named by topic.
 */
export async function listEvents(db: Database, caller: RequestUser, args: EventListArgs) {
  const page = readPage(args);
  const empty = toConnection([], false, page);
  const where: RawBuilder<boolean>[] = [];
  let users = args.users;
  if (args.ids != null) where.push(sql<boolean>`e.id = ANY(${args.ids.filter(isId)}::uuid[])`);
  else if (!isManagerOrAbove(caller)) users = [caller.name];

  if (args.topics != null) {
    if (!args.topics.length) return empty;
    const patterns = check(args.topics, TOPIC, 'Topic').map((topic) => topic.replace(/\*/g, '%'));
    where.push(sql<boolean>`e.topic LIKE ANY(${patterns}::text[])`);
  } else if (!args.includeLogs) {
    where.push(sql<boolean>`e.topic NOT LIKE 'log.%'`);
  }
  if (args.projects != null) {
    if (!args.projects.length) return empty;
    where.push(sql<boolean>`e.project_name = ANY(${check(args.projects, NAME, 'Name')}::text[])`);
  }
  if (users != null) {
    if (!users.length) return empty;
    where.push(sql<boolean>`e.user_name = ANY(${check(users, USER_NAME, 'User name')}::text[])`);
  }
  // states is the old name of statuses; an empty statuses list gives way to it, as in AYON.
  const statuses = args.statuses?.length ? args.statuses : (args.states ?? args.statuses);
  if (statuses != null) {
    if (!statuses.length) return empty;
    where.push(sql<boolean>`e.status = ANY(${check(statuses, NAME, 'Status')}::text[])`);
  }
  if (args.olderThan)
    where.push(sql<boolean>`e.created_at < ${timestamp(args.olderThan, 'olderThan')}::timestamptz`);
  if (args.newerThan)
    where.push(sql<boolean>`e.created_at > ${timestamp(args.newerThan, 'newerThan')}::timestamptz`);
  // Children are the events that depend on this one (jobs of an enrolled source event, for instance).
  if (args.hasChildren != null) {
    const children = sql`EXISTS (SELECT 1 FROM events c WHERE c.depends_on = e.id)`;
    where.push(args.hasChildren ? sql<boolean>`${children}` : sql<boolean>`NOT ${children}`);
  }
  if (args.filter) where.push(...filterCondition(args.filter));
  if (page.after) where.push(sql<boolean>`e.creation_order > ${decode(page.after, 'after')}`);
  if (page.before) where.push(sql<boolean>`e.creation_order < ${decode(page.before, 'before')}`);

  const direction = sql.raw(page.fromEnd ? 'DESC' : 'ASC');
  const rows = (
    await sql<EventRow>`
      SELECT e.* FROM events e
      ${where.length ? sql`WHERE ${sql.join(where, sql` AND `)}` : sql``}
      ORDER BY e.creation_order ${direction}
      LIMIT ${page.limit + 1}`.execute(db)
  ).rows;
  return rowsToConnection(rows, page, (row) => ({
    cursor: encode(Number(row.creation_order)),
    node: eventNode(row, caller),
  }));
}
