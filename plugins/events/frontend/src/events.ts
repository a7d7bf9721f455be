import type { LiveEvent, PipewrightClient, ResponseData } from '@pipewright/sdk/client';

// Reading events: pages from GraphQL (newest first, paging back with `before`), one event with its payload from
// REST, and the filters both the query and the live stream apply.

export const STATUSES = ['pending', 'in_progress', 'finished', 'failed', 'aborted', 'restarted'] as const;

/** An event as the list shows it. Live messages carry no retries, so it may be unknown. */
export interface EventRow extends Omit<LiveEvent, 'id'> {
  id: string;
  retries: number | null;
  /** Where the event stands in the GraphQL connection; live rows have none. */
  cursor: string | null;
}

/** One event in full, as GET /api/events/{id} answers. */
export type EventDetail = ResponseData<'get', '/api/events/{event_id}'>;

export interface EventFilter {
  /** A topic prefix ("entity.folder"); empty for every topic. */
  topic: string;
  status: string;
  project: string;
}

export const NO_FILTER: EventFilter = { topic: '', status: '', project: '' };

/** The prefix the filter's topic names: "entity.folder*" and "entity.folder" mean the same. */
export const topicPrefix = (filter: EventFilter) => filter.topic.trim().replace(/\*+$/, '');

/** Log lines (log.*) are many and rarely wanted: they show only when the topic filter asks for them. */
const wantsLogs = (filter: EventFilter) => topicPrefix(filter).startsWith('log');

export function matches(filter: EventFilter, event: Pick<EventRow, 'topic' | 'status' | 'project'>): boolean {
  if (!event.topic.startsWith(topicPrefix(filter))) return false;
  if (event.topic.startsWith('log.') && !wantsLogs(filter)) return false;
  if (filter.status && event.status !== filter.status) return false;
  if (filter.project && event.project?.toLowerCase() !== filter.project.toLowerCase()) return false;
  return true;
}

export function fromLive(message: LiveEvent & { id: string }): EventRow {
  return { ...message, retries: null, cursor: null };
}

/** A live message applied to a row already shown: the state changes, what it is stays. */
export function mergeLive(row: EventRow, message: LiveEvent): EventRow {
  return {
    ...row,
    status: message.status,
    description: message.description || row.description,
    summary: message.summary ?? row.summary,
    progress: message.progress ?? (message.status === 'in_progress' ? row.progress : null),
    updatedAt: message.updatedAt,
  };
}

export interface EventPage {
  rows: EventRow[];
  /** Where the next, older page starts; null when this was the oldest. */
  olderCursor: string | null;
}

const EVENTS_QUERY = `
query Events($last: Int!, $before: String, $topics: [String!], $statuses: [String!], $projects: [String!], $includeLogs: Boolean) {
  events(last: $last, before: $before, topics: $topics, statuses: $statuses, projects: $projects, includeLogs: $includeLogs) {
    edges { cursor node { id topic project user sender senderType dependsOn status retries description summary createdAt updatedAt } }
    pageInfo { hasPreviousPage startCursor }
  }
}`;

interface EventsAnswer {
  events: {
    edges: {
      cursor: string;
      node: Omit<EventRow, 'summary' | 'progress' | 'cursor'> & { summary: string };
    }[];
    pageInfo: { hasPreviousPage: boolean; startCursor: string | null };
  };
}

/** One page of events matching the filter, newest first, older than `before` when given. */
export async function readPage(
  client: PipewrightClient,
  filter: EventFilter,
  size: number,
  before: string | null = null,
): Promise<EventPage> {
  const prefix = topicPrefix(filter);
  const answer = await client.graphql<EventsAnswer>(EVENTS_QUERY, {
    last: size,
    before,
    topics: prefix ? [`${prefix}*`] : null,
    statuses: filter.status ? [filter.status] : null,
    projects: filter.project ? [filter.project] : null,
    includeLogs: wantsLogs(filter),
  });
  const { edges, pageInfo } = answer.events;
  return {
    // The connection lists oldest first; the screen shows the newest on top.
    rows: edges
      .map(({ cursor, node }) => ({
        ...node,
        summary: JSON.parse(node.summary || '{}'),
        progress: null,
        cursor,
      }))
      .reverse(),
    olderCursor: pageInfo.hasPreviousPage ? pageInfo.startCursor : null,
  };
}

export const readEvent = (client: PipewrightClient, id: string) =>
  client.GET('/api/events/{event_id}', { params: { path: { event_id: id } } });
