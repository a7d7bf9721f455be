import { isManagerOrAbove, type EventMessage, type RequestUser } from '@pipewright/sdk';
import { serverMessage, toOutgoing, type OutgoingMessage } from './protocol.js';

/** The part of a WebSocket the hub needs; keeps the filtering testable without a network. */
export interface Socket {
  readonly readyState: number;
  send(data: string): void;
  close(code: number, reason: string): void;
}

const OPEN = 1;

/** Delivered to every authorised socket whatever it subscribed to (AYON clients rely on them). */
const ALWAYS_DELIVERED = new Set(['server.started', 'server.restart_requested', 'heartbeat']);

/** Guests only follow review activity on what they were shown, never the rest of the studio. */
const GUEST_PREFIXES = ['activity.', 'entity.version.'];

/** Addressed to people, not to a project view: a client watching one project still gets its inbox. */
const IGNORES_PROJECT_FILTER = new Set(['inbox.message']);

export interface Client {
  readonly socket: Socket;
  /** Null until the client has sent a valid auth message. */
  user: RequestUser | null;
  /** The headers that identified the user, to check again when sessions, keys or users change. */
  credential: Record<string, string> | null;
  /** Topic prefixes, trailing '*' removed ('' matches everything). */
  prefixes: string[];
  /** Lower-cased project the client watches, or null for all it may see. */
  project: string | null;
  /** When the socket last got anything, so heartbeats only fill silences. */
  lastSent: number;
}

/** A subscription entry as AYON clients write it: "*", "entity.folder", "entity.*" all mean "starts with". */
export function toPrefix(subscription: string): string {
  return subscription.endsWith('*') ? subscription.slice(0, -1) : subscription;
}

function hasProjectAccess(user: RequestUser, project: string): boolean {
  if (isManagerOrAbove(user)) return true;
  const wanted = project.toLowerCase();
  return Object.keys(user.accessGroups).some((name) => name.toLowerCase() === wanted);
}

/** Whether one socket may and wants to see one event; the per-socket filters of AYON's /ws. */
export function accepts(
  client: Client,
  message: Pick<EventMessage, 'topic' | 'project' | 'recipients'>,
): boolean {
  const { user } = client;
  if (!user) return false;
  if (ALWAYS_DELIVERED.has(message.topic)) return true;
  if (!client.prefixes.some((prefix) => message.topic.startsWith(prefix))) return false;
  if (user.isGuest && !GUEST_PREFIXES.some((prefix) => message.topic.startsWith(prefix))) return false;
  if (message.recipients) {
    const name = user.name.toLowerCase();
    if (!message.recipients.some((recipient) => recipient.toLowerCase() === name)) return false;
  }
  // Studio-wide events (no project) go to everyone subscribed; project events only to those who may open the project.
  if (message.project) {
    if (!hasProjectAccess(user, message.project)) return false;
    if (
      client.project &&
      client.project !== message.project.toLowerCase() &&
      !IGNORES_PROJECT_FILTER.has(message.topic)
    ) {
      return false;
    }
  }
  return true;
}

/** Every open socket of this process, and the fan-out of bus messages to them. */
export class Hub {
  private readonly clients = new Set<Client>();

  constructor(private readonly onSendError: (error: unknown) => void = () => undefined) {}

  get size(): number {
    return this.clients.size;
  }

  add(socket: Socket): Client {
    const client: Client = {
      socket,
      user: null,
      credential: null,
      prefixes: [],
      project: null,
      lastSent: Date.now(),
    };
    this.clients.add(client);
    return client;
  }

  remove(client: Client): void {
    this.clients.delete(client);
  }

  /** The authorised sockets, as they are now. */
  authorised(): Client[] {
    return [...this.clients].filter((client) => client.user !== null);
  }

  /** Authorise a socket or change what it follows; answers whether it was authorised before. */
  authorise(client: Client, user: RequestUser, subscribe: string[], project: string | null): boolean {
    const before = client.user !== null;
    client.user = user;
    client.prefixes = subscribe.map(toPrefix);
    client.project = project ? project.toLowerCase() : null;
    return before;
  }

  /** Serialise once, then hand the same text to every socket that accepts the event. */
  broadcast(message: EventMessage): void {
    let text: string | null = null;
    for (const client of this.clients) {
      if (!accepts(client, message)) continue;
      text ??= JSON.stringify(toOutgoing(message));
      this.sendText(client, text);
    }
  }

  send(client: Client, message: OutgoingMessage): void {
    this.sendText(client, JSON.stringify(message));
  }

  /** Heartbeat to authorised sockets that have been silent for at least quietMs. */
  heartbeat(quietMs: number, now = Date.now()): void {
    let text: string | null = null;
    for (const client of this.clients) {
      if (!client.user || now - client.lastSent < quietMs) continue;
      text ??= JSON.stringify(serverMessage('heartbeat'));
      this.sendText(client, text);
    }
  }

  private sendText(client: Client, text: string): void {
    if (client.socket.readyState !== OPEN) return;
    try {
      client.socket.send(text);
      client.lastSent = Date.now();
    } catch (error) {
      // A socket closing under us is not the other sockets' problem.
      this.onSendError(error);
    }
  }
}
