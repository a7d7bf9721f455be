import { GraphQLError } from 'graphql';
import {
  BadRequest,
  eventRowModel,
  isManagerOrAbove,
  type EventRow,
  type RequestUser,
} from '@pipewright/sdk';
import type { EventLogReader } from '@pipewright/plugin-events/api';
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
 * Events in creation order, filtered as AYON filters them: those who are not managers read their own events only,
 * unless they ask for events by id; logs are left out unless asked for or named by topic.
 */
export async function listEvents(log: EventLogReader, caller: RequestUser, args: EventListArgs) {
  const page = readPage(args);
  // states is the old name of statuses; an empty statuses list gives way to it, as in AYON.
  const statuses = args.statuses?.length ? args.statuses : (args.states ?? args.statuses);
  const users = args.ids == null && !isManagerOrAbove(caller) ? [caller.name] : args.users;
  const named = [
    [args.topics, TOPIC, 'Topic'],
    [args.projects, NAME, 'Name'],
    [users, USER_NAME, 'User name'],
    [statuses, NAME, 'Status'],
  ] as const;
  for (const [list, pattern, what] of named) {
    if (list == null) continue;
    if (!list.length) return toConnection([], false, page);
    check(list, pattern, what);
  }
  const rows = await log.list({
    ids: args.ids ?? undefined,
    topics: args.topics ?? undefined,
    withoutLogs: !args.includeLogs,
    projects: args.projects ?? undefined,
    users: users ?? undefined,
    statuses: statuses ?? undefined,
    olderThan: args.olderThan ? timestamp(args.olderThan, 'olderThan') : undefined,
    newerThan: args.newerThan ? timestamp(args.newerThan, 'newerThan') : undefined,
    hasChildren: args.hasChildren ?? undefined,
    filter: args.filter ?? undefined,
    after: page.after ? decode(page.after, 'after') : undefined,
    before: page.before ? decode(page.before, 'before') : undefined,
    newestFirst: page.fromEnd,
    limit: page.limit + 1,
  });
  return rowsToConnection(rows, page, (row) => ({
    cursor: encode(Number(row.creation_order)),
    node: eventNode(row, caller),
  }));
}
