import { createServiceRef } from '@pipewright/sdk';
import type { ProjectEntityType } from '@pipewright/sdk';
import type { ActivityType } from './write/prepared.js';

/** Provided by the activities addon: what other addons (reviewables, ...) add to an entity's feed. */
export interface ActivityFeed {
  /**
   * Add an activity to an entity's feed as the server (no permission checks: the caller decided), with its
   * references and inbox messages; answers its id.
   */
  create(
    projectName: string,
    entityType: ProjectEntityType,
    entityId: string,
    activity: ServerActivity,
  ): Promise<string>;
  /**
   * The reads of create (the entity, the files, the mentions), kept apart from write() so the caller can do them
   * before opening its unit of work and hold the transaction only for the writes. authorWatches makes the author
   * a watcher of the entity in the same write.
   */
  prepare(
    projectName: string,
    entityType: ProjectEntityType,
    entityId: string,
    activity: ServerActivity & { authorWatches?: boolean },
  ): Promise<PreparedActivity>;
  /** Write a prepared activity and its events in the caller's unit of work (one of its own without one). */
  write(prepared: PreparedActivity): Promise<{ id: string }>;
  /** Activities of one type on these entities, oldest first (no permission checks: the caller decided). */
  list(projectName: string, type: ActivityType, entityIds: string[]): Promise<ActivityRecord[]>;
  /**
   * Merge keys into an activity's data in the caller's unit of work (keys the server owns are ignored);
   * touch marks it edited (updatedAt). False when the activity does not exist.
   */
  mergeData(
    projectName: string,
    id: string,
    data: Record<string, unknown>,
    options?: { touch?: boolean },
  ): Promise<boolean>;
  /** Make a user watch an entity, if they do not already. */
  ensureWatching(
    projectName: string,
    entityType: ProjectEntityType,
    entityId: string,
    userName: string,
  ): Promise<void>;
  /** Resolves once the activities of every entity change heard so far are written (tests, shutdown). */
  settled(): Promise<void>;
}

/** An activity another addon adds to an entity's feed. */
export interface ServerActivity {
  type: ActivityType;
  body?: string;
  author: string | null;
  data?: Record<string, unknown>;
  files?: string[];
  tags?: string[];
  id?: string;
}

/** A new activity checked and described (entity, files, mentions), waiting to be written by ActivityFeed.write. */
export interface PreparedActivity {
  readonly id: string;
}

/** An activity as other addons read it. */
export interface ActivityRecord {
  id: string;
  type: string;
  body: string;
  data: Record<string, any>;
  /** The entity whose feed it belongs to. */
  entityId: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The activities service of the activities addon. */
export const activitiesRef = createServiceRef<ActivityFeed>({ addon: 'activities', id: 'activities' });
