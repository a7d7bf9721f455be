/** Lifecycle of an event that stands for a job. */
export type EventStatus = 'pending' | 'in_progress' | 'finished' | 'failed' | 'aborted' | 'restarted';

/** One event as /ws sends it to subscribers: the event's broadcast fields, never its payload. */
export interface LiveEvent {
  topic: string;
  id: string | null;
  project: string | null;
  user: string | null;
  sender: string | null;
  senderType: string | null;
  dependsOn: string | null;
  description: string;
  summary: Record<string, unknown>;
  status: string;
  progress: number | null;
  createdAt: string;
  updatedAt: string;
}

/** What an addon passes to events.emit. */
export interface EventInput {
  topic: string;
  project?: string | null;
  user?: string | null;
  sender?: string | null;
  senderType?: string | null;
  /** Deduplication key; defaults to the event id. */
  hash?: string;
  dependsOn?: string | null;
  description?: string;
  summary?: Record<string, unknown>;
  /** Stored but never broadcast. */
  payload?: Record<string, unknown>;
  status?: EventStatus;
  progress?: number;
  /** When set, only these users receive the live message. */
  recipients?: string[];
  /** false: broadcast only, nothing written to the events table. */
  store?: boolean;
}

/** What subscribers receive, in-process and over Redis (never the payload): what /ws sends, and more. */
export interface EventMessage extends Omit<LiveEvent, 'id' | 'status'> {
  id: string;
  hash: string;
  status: EventStatus;
  recipients: string[] | null;
  store: boolean;
}

/** What can change on a stored event. */
export interface EventChanges {
  status?: EventStatus;
  description?: string;
  summary?: Record<string, unknown>;
  payload?: Record<string, unknown>;
  /** Broadcast only: 0 to 100. */
  progress?: number;
  retries?: number;
}

/**
 * A subscriber. remote: the event was emitted by another server process and came through Redis (derived state a
 * process keeps up to date from its own writes still has to follow those).
 */
export type EventHandler = (message: EventMessage, remote: boolean) => void | Promise<void>;

/** A stored event as the log holds it: the message, with its payload and how often it was retried. */
export type StoredEvent = EventMessage & { payload: Record<string, unknown>; retries: number };

/** Which stored events find answers: those of these topics, narrowed by the rest. */
export interface EventLookup {
  topics: string[];
  hash?: string;
  statuses?: EventStatus[];
  /** Oldest first unless set. */
  newestFirst?: boolean;
  limit?: number;
}

/**
 * Told of events as they are stored, inside the unit of work that stores them: what an addon writes there (through
 * its own handle, which joins the unit) commits with the events or not at all, so work owed for every event (a
 * webhook delivery) survives a crash right after.
 */
export type StoredEventsHook = (events: StoredEvent[]) => Promise<void>;

/** The core event bus: persists events and fans them out to this and every other server process. */
export interface EventBus {
  /** Store (unless store is false) and broadcast an event; answers its id. */
  emit(event: EventInput): Promise<{ id: string }>;
  /** Store and broadcast several events with one write (a batch of operations); answers their ids in order. */
  emitMany(events: EventInput[]): Promise<{ id: string }[]>;
  /** Broadcast a message about an event that changed (status, progress) without writing it again. */
  announce(message: EventMessage): Promise<void>;
  /**
   * Change a stored event (status, description, summary, payload, progress) and broadcast it; false when missing.
   * With ifStatus, only while its status is one of those (a claim two processes may race for): false otherwise.
   */
  update(id: string, changes: EventChanges, options?: { ifStatus?: EventStatus[] }): Promise<boolean>;
  /** A stored event, payload included, or null. */
  get(id: string): Promise<StoredEvent | null>;
  /** Stored events of some topics (jobs to resume, a token's event, the latest installs), payloads included. */
  find(lookup: EventLookup): Promise<StoredEvent[]>;
  /**
   * Run hook inside every unit of work that stores events, with the events it stores (payloads included); a hook
   * that fails refuses the write. Answers how to remove it.
   */
  onStored(hook: StoredEventsHook): () => void;
  /** Listen to topics: an exact topic, a prefix ending in '.*' or '*', or '*' for all. Answers an unsubscribe function. */
  subscribe(pattern: string, handler: EventHandler): () => void;
  /**
   * Resolves once every event handed over so far (committed units' events included, which go out just after their
   * commit) has been written and delivered to this process's subscribers.
   */
  delivered(): Promise<void>;
}

/** The test of topics against a subscription pattern ('*', 'entity.*', 'entity.folder*' or an exact topic). */
export function topicMatcher(pattern: string): (topic: string) => boolean {
  if (pattern === '*') return () => true;
  if (!pattern.endsWith('*')) return (topic) => topic === pattern;
  const prefix = pattern.slice(0, -1);
  return (topic) => topic.startsWith(prefix);
}

/** True when a topic matches a subscription pattern. */
export function topicMatches(pattern: string, topic: string): boolean {
  return topicMatcher(pattern)(topic);
}
