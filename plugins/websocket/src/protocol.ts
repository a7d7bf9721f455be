import { Type, type EventMessage, type LiveEvent, type Static } from '@pipewright/sdk';

/**
 * What a client sends: {topic:"auth", token, subscribe, project?}. The first one authorises the socket; later ones
 * replace the subscriptions (and, with a token, the identity). Unknown extra fields are tolerated because AYON
 * clients of several versions talk to us.
 */
export const AuthMessage = Type.Object({
  topic: Type.Literal('auth'),
  token: Type.Optional(Type.Union([Type.String({ maxLength: 1024 }), Type.Null()])),
  subscribe: Type.Optional(Type.Array(Type.String({ maxLength: 256 }), { maxItems: 1000 })),
  project: Type.Optional(Type.Union([Type.String({ maxLength: 256 }), Type.Null()])),
});
export type AuthMessage = Static<typeof AuthMessage>;

/** What the server sends for every event (the sdk's LiveEvent). */
export type OutgoingMessage = LiveEvent;

/**
 * Picks the wire fields one by one rather than spreading the bus message: anything a future bus adds (the payload
 * included) stays off the socket unless somebody decides here that clients may see it.
 */
export function toOutgoing(message: EventMessage): OutgoingMessage {
  return {
    topic: message.topic,
    id: message.id,
    project: message.project,
    user: message.user,
    sender: message.sender,
    senderType: message.senderType,
    dependsOn: message.dependsOn,
    description: message.description,
    summary: message.summary,
    status: message.status,
    progress: message.progress,
    createdAt: message.createdAt,
    updatedAt: message.updatedAt,
  };
}

/** A message the server itself originates (heartbeat, server.started), in the same shape as event messages. */
export function serverMessage(topic: string, description = ''): OutgoingMessage {
  const now = new Date().toISOString();
  return {
    topic,
    id: null,
    project: null,
    user: null,
    sender: null,
    senderType: null,
    dependsOn: null,
    description,
    summary: {},
    status: 'finished',
    progress: null,
    createdAt: now,
    updatedAt: now,
  };
}
