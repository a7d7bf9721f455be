import { currentSender, newOrderedId, type EventInput, type EventMessage } from '@pipewright/sdk';

// What the bus makes of an event it is handed: the message subscribers hear, and the row the log stores.

/** The message of an event handed over at now. */
export function eventMessage(input: EventInput, now: string): EventMessage {
  // Time-ordered: events are written in time order, so each id lands at the end of the indexes.
  const id = newOrderedId();
  return {
    id,
    hash: input.hash ?? id,
    topic: input.topic,
    project: input.project ?? null,
    user: input.user ?? null,
    // Named by the emitter (null included), else the sender of the request this runs for.
    sender: input.sender !== undefined ? input.sender : currentSender().sender,
    senderType: input.senderType !== undefined ? input.senderType : currentSender().senderType,
    dependsOn: input.dependsOn ?? null,
    description: input.description ?? '',
    summary: input.summary ?? {},
    status: input.status ?? 'finished',
    progress: input.progress ?? null,
    recipients: input.recipients ?? null,
    store: input.store !== false,
    createdAt: now,
    updatedAt: now,
  };
}

/** The events table's row of a message. */
export function eventRow(message: EventMessage, input: EventInput) {
  return {
    id: message.id,
    hash: input.hash ?? null,
    topic: message.topic,
    sender: message.sender,
    sender_type: message.senderType,
    project_name: message.project,
    user_name: message.user,
    depends_on: message.dependsOn,
    status: message.status,
    description: message.description,
    summary: message.summary,
    payload: input.payload ?? {},
    created_at: message.createdAt,
    updated_at: message.updatedAt,
  };
}
