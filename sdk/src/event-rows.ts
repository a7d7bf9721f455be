import { sql, type RawBuilder } from 'kysely';
import type { EventMessage } from './events.js';
import { compileFilter, type FieldKind, type FieldMap } from './query-filter.js';

// The core's public.events table as addons read it back: the wire shapes of a stored row, and the keys a
// QueryFilter over events may name. Shared by the events addon (REST, enroll) and GraphQL.
/** A public.events row as read back from the database (snake_case columns). */
export type EventRow = Record<string, any>;

const iso = (value: unknown) => new Date(value as string).toISOString();

/** What subscribers hear about a stored row (never the payload), as the core bus builds it. */
export function eventRowMessage(row: EventRow, progress: number | null = null): EventMessage {
  return {
    id: row.id,
    hash: row.hash,
    topic: row.topic,
    project: row.project_name,
    user: row.user_name,
    sender: row.sender,
    senderType: row.sender_type,
    dependsOn: row.depends_on,
    description: row.description,
    summary: row.summary,
    status: row.status,
    progress,
    recipients: null,
    store: true,
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The event as GET /api/events/{id} answers it (AYON's EventModel), payload included. */
export function eventRowModel(row: EventRow) {
  return {
    id: row.id,
    hash: row.hash,
    topic: row.topic,
    project: row.project_name,
    user: row.user_name,
    sender: row.sender,
    senderType: row.sender_type,
    dependsOn: row.depends_on,
    status: row.status,
    retries: row.retries,
    description: row.description,
    summary: row.summary ?? {},
    payload: row.payload ?? {},
    createdAt: iso(row.created_at),
    updatedAt: iso(row.updated_at),
  };
}

/** The filterable keys of an event (wire names) for a table alias such as "e"; project and user are stored as *_name. */
export function eventFilterFields(alias: string): FieldMap {
  const col = (name: string, kind: FieldKind) => ({ expr: sql.ref(`${alias}.${name}`), kind });
  return {
    id: col('id', 'uuid'),
    hash: col('hash', 'text'),
    topic: col('topic', 'text'),
    sender: col('sender', 'text'),
    senderType: col('sender_type', 'text'),
    project: col('project_name', 'text'),
    projectName: col('project_name', 'text'),
    user: col('user_name', 'text'),
    userName: col('user_name', 'text'),
    dependsOn: col('depends_on', 'uuid'),
    status: col('status', 'text'),
    retries: col('retries', 'integer'),
    description: col('description', 'text'),
    summary: col('summary', 'json'),
    payload: col('payload', 'json'),
    createdAt: col('created_at', 'timestamp'),
    updatedAt: col('updated_at', 'timestamp'),
  };
}

/** A QueryFilter over events (table alias given), as one SQL condition; 422 problems under loc. */
export function compileEventFilter(
  filter: unknown,
  alias: string,
  loc: (string | number)[] = ['body', 'filter'],
): RawBuilder<boolean> {
  return compileFilter(filter, eventFilterFields(alias), loc);
}
