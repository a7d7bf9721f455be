import { sql, type RawBuilder } from 'kysely';
import type { EventMessage } from './events.js';
import { compileFilter, type FieldKind, type FieldMap } from './query-filter.js';
import { isoTime } from './timestamps.js';

// The core's public.events table as addons read it back: the wire shapes of a stored row, and the keys a
// QueryFilter over events may name. Shared by the events addon (REST, enroll) and GraphQL.
/** A public.events row as read back from the database (snake_case columns). */
export type EventRow = Record<string, any>;

/** The fields every view of a stored event shares. */
function eventRowCore(row: EventRow) {
  return {
    id: row.id as string,
    // Events given no hash store none: their hash is their id.
    hash: (row.hash ?? row.id) as string,
    topic: row.topic as string,
    project: row.project_name as string | null,
    user: row.user_name as string | null,
    sender: row.sender as string | null,
    senderType: row.sender_type as string | null,
    dependsOn: row.depends_on as string | null,
    status: row.status,
    description: row.description as string,
    createdAt: isoTime(row.created_at),
    updatedAt: isoTime(row.updated_at),
  };
}

/** What subscribers hear about a stored row (never the payload); the core bus builds its messages with it. */
export function eventRowMessage(row: EventRow, progress: number | null = null): EventMessage {
  return { ...eventRowCore(row), summary: row.summary, progress, recipients: null, store: true };
}

/** The event as GET /api/events/{id} answers it (AYON's EventModel), payload included. */
export function eventRowModel(row: EventRow) {
  return {
    ...eventRowCore(row),
    retries: row.retries,
    summary: row.summary ?? {},
    payload: row.payload ?? {},
  };
}

/** The filterable keys of an event (wire names) for a table alias such as "e"; project and user are stored as *_name. */
export function eventFilterFields(alias: string): FieldMap {
  const col = (name: string, kind: FieldKind) => ({ expr: sql.ref(`${alias}.${name}`), kind });
  const id = sql.ref(`${alias}.id`);
  return {
    id: col('id', 'uuid'),
    hash: { expr: sql`coalesce(${sql.ref(`${alias}.hash`)}, replace(${id}::text, '-', ''))`, kind: 'text' },
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
