import type { EventInput, ProjectEntityType, RequestUser } from '@pipewright/sdk';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { AttachedFile, Attachments } from '../attachments.js';
import type { EntityContext, EntityReader } from '../entity-context.js';
import type { Mentions } from '../markdown.js';
import type { ActivityStore } from '../store.js';

export const ACTIVITY_TYPES = [
  'comment',
  'watch',
  'reviewable',
  'status.change',
  'assignee.add',
  'assignee.remove',
  'version.publish',
  'attrib.change',
] as const;
export type ActivityType = (typeof ACTIVITY_TYPES)[number];

/** An activity as a client or another addon asks for it. */
export interface NewActivity {
  entityType: ProjectEntityType;
  entityId: string;
  activityType: ActivityType;
  body?: string;
  tags?: string[];
  files?: string[];
  data?: Record<string, unknown>;
  id?: string;
  timestamp?: string;
}

/** A change of an activity as PATCH sends it. */
export interface ActivityPatch {
  body?: string;
  tags?: string[];
  files?: string[];
  appendFiles?: boolean;
  data?: Record<string, unknown>;
}

/** Who makes a new activity and how it is written. */
export interface CreateOptions {
  author: string | null;
  /** A server-made activity may be made by two server processes hearing the same event: the second is skipped. */
  onConflict: 'fail' | 'skip';
  /** Make the author a watcher of the entity (people who comment follow the conversation). */
  authorWatches: boolean;
  loc?: (string | number)[];
}

/** The columns of the activities row a create inserts. */
type ActivityColumns = Parameters<ActivityStore['insert']>[1];

/** A new activity with everything read that its write needs, so the write touches only its transaction. */
export interface PreparedCreate extends ActivityColumns, Omit<CreateOptions, 'loc'> {
  kind: 'create';
  projectName: string;
  context: EntityContext;
  mentions: Mentions;
  fileIds: string[];
}

export interface PreparedUpdate {
  kind: 'update';
  projectName: string;
  id: string;
  caller: RequestUser;
  patch: ActivityPatch;
  mentions: Mentions | null;
  files: AttachedFile[] | null;
}

export interface PreparedDelete {
  kind: 'delete';
  projectName: string;
  id: string;
  caller: RequestUser;
}

export type PreparedWrite = PreparedCreate | PreparedUpdate | PreparedDelete;

/** What a write did: the activity's id, and the events to send once its transaction has committed. */
export interface WriteResult {
  id: string;
  events: EventInput[];
}

/** What the stages of a write read and write through (the unit of work is the caller's). */
export interface WriteDeps {
  store: ActivityStore;
  reader: EntityReader;
  users: UserDirectory;
  attachments: Attachments;
}
