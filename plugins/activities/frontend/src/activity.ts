// An activity (a comment, a status change, a publish, ...) as the feed and the inbox show it, and the entities it
// concerns.

/** Entity types that have a feed. */
export const ENTITY_TYPES = ['folder', 'task', 'product', 'version', 'representation', 'workfile'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface Person {
  name: string;
  fullName: string | null;
}

export interface AttachedFile {
  id: string;
  name: string | null;
  size: number;
  mime: string | null;
}

export interface Reaction {
  userName: string;
  fullName: string | null;
  reaction: string;
}

/** An entity as an activity names it (its origin, or one of the origin's parents). */
export interface EntityLabel {
  id: string;
  type: string;
  name: string;
  label: string | null;
}

/** One activity as the feed and the inbox show it. */
export interface Activity {
  id: string;
  /** The reference that put it in this feed or inbox (the inbox marks references read, not activities). */
  referenceId: string;
  /** Why it is here: origin, mention, relation, watching. */
  referenceType: string;
  type: string;
  body: string;
  createdAt: string;
  updatedAt: string;
  projectName: string;
  author: Person | null;
  /** The activity's data: oldValue/newValue of a status change, assignee, hasChecklist, ... */
  data: Record<string, unknown>;
  reactions: Reaction[];
  files: AttachedFile[];
  origin: EntityLabel | null;
  parents: EntityLabel[];
  read: boolean;
  active: boolean;
}

/** A page of activities, oldest first, and where the page before it starts. */
export interface ActivityPage {
  activities: Activity[];
  /** Cursor for the older page, or null when this page reaches the start. */
  older: string | null;
}
