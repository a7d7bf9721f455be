import type { EventMessage } from '@pipewright/sdk';

/** A public.events row as read back from the database (snake_case columns). */
export type EventRow = Record<string, any>;

const iso = (value: unknown) => new Date(value as string).toISOString();

/** What subscribers hear about a stored row (never the payload), as the core bus builds it. */
export function toMessage(row: EventRow, progress: number | null = null): EventMessage {
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
export function toModel(row: EventRow) {
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
