import { createServiceRef } from '@pipewright/sdk';
import type { EventRow } from '@pipewright/sdk';

/**
 * Which events a listing answers, as AYON's GraphQL events field narrows them. Every list present narrows (an empty
 * one matches nothing); topics may hold `*` wildcards.
 */
export interface EventListing {
  ids?: string[];
  topics?: string[];
  /** Leave out log.* events (when no topics are named). */
  withoutLogs?: boolean;
  projects?: string[];
  users?: string[];
  statuses?: string[];
  /** ISO 8601 times, checked by the caller. */
  olderThan?: string;
  newerThan?: string;
  /** Events that others depend on (children), or that none do. */
  hasChildren?: boolean;
  /** AYON's text search over topic, project, user and description; a JSON QueryFilter is read as one. */
  filter?: string;
  /** Creation-order bounds, exclusive (cursors). */
  after?: number;
  before?: number;
  newestFirst: boolean;
  limit: number;
}

/** Read models of the event log (the core's public.events) for other addons, which never query it themselves. */
export interface EventLogReader {
  /** Stored events as a listing names them, in creation order. */
  list(listing: EventListing): Promise<EventRow[]>;
  /**
   * How many events of topics starting with topicPrefix a project had on each of the last `days` days (UTC),
   * oldest first, today last.
   */
  dailyCounts(projectName: string, topicPrefix: string, days: number): Promise<number[]>;
  /** How many events there are in all, and per project (project names lower-cased). */
  countsPerProject(): Promise<{ total: number; perProject: Map<string, number> }>;
  /** The most frequent topics with their counts, most first (ties by topic). */
  topTopics(limit: number): Promise<Record<string, number>>;
}

/** The event log reader of the events addon. */
export const eventLogRef = createServiceRef<EventLogReader>({ addon: 'events', id: 'log' });
