import { defineAddon, type ProjectEntityType, type Sender } from '@pipewright/sdk';
import { Attachments } from './attachments.js';
import { EntityReader } from './entity-context.js';
import { ActivityFeeds } from './feed.js';
import { activityGraphQL } from './graphql.js';
import { EntityEventHook } from './hooks.js';
import { projectMigrations } from './migrations.js';
import { ActivityOperations } from './operations.js';
import { activityRoutes } from './routes.js';
import { ActivityService, type ActivityType, type PreparedCreate } from './service.js';
import { ActivityStore } from './store.js';
import { Suggestions } from './suggest.js';
import { carryUserRename } from './user-renames.js';

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
    activity: ServerActivity & { authorWatches?: boolean; sender?: Sender | null },
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

declare module '@pipewright/sdk' {
  interface ServiceMap {
    activities: ActivityFeed;
  }
}

// Where artists and supervisors talk about the work: comments on a task, the review of a version, and what the
// server adds by itself (status changes, assignments, publishes), addressed to the people concerned.
export default defineAddon({
  name: 'activities',
  version: '1.0.0',
  title: 'Activities',
  description:
    'Activity feed of entities (comments, watchers, reactions, status, assignee and publish activities) and the inbox',
  dependsOn: ['projects', 'entities', 'users', 'graphql', 'files'],
  // The inbox is a page of the main navigation; the feed is embedded by other screens (ScreenProps.Extension).
  frontendModules: { activities_screens: ['./Inbox', './ActivityFeed'] },
  frontendScopes: { main: { sidebar: 'Inbox', module: './Inbox' } },
  migrations: { project: projectMigrations },
  async setup(ctx) {
    const projects = ctx.use('projects');
    const entities = ctx.use('entities');
    const users = ctx.use('users');
    users.onRename((oldName, newName) => carryUserRename(ctx.db, oldName, newName));
    const store = new ActivityStore(ctx.db, ctx.projects.schemaName);
    const reader = new EntityReader(entities);
    const files = ctx.use('files');
    const attachments = new Attachments(files);
    const service = new ActivityService(ctx.db, store, reader, projects, users, attachments, ctx.events);
    const feeds = new ActivityFeeds(ctx.db, store, reader, projects);
    const hook = new EntityEventHook(ctx.events, reader, service, users, ctx.log);
    hook.install(ctx.events);
    // Activities of changes already heard are written before the server lets go of the database.
    ctx.onClose(() => hook.settled());

    // A deleted entity takes its activities along, in the transaction that deletes it; their files are let go
    // (the files addon removes files no activity holds).
    entities.onDelete(async (projectName, removed) => {
      const gone = await store.forgetEntities(
        projectName,
        removed.map((entity) => entity.id),
      );
      await files.attach(
        projectName,
        gone.flatMap((activity) => activity.fileIds),
        null,
      );
    });
    // A deleted file is no longer listed by the activities it was attached to.
    files.onRemove((projectName, fileId) => store.forgetFile(projectName, fileId));

    ctx.provide('activities', {
      async create(projectName, entityType, entityId, activity) {
        const prepared = await service.prepareActivity(
          projectName,
          { ...activity, activityType: activity.type, entityType, entityId },
          { author: activity.author, sender: null, onConflict: 'fail', authorWatches: false },
        );
        return (await service.write(prepared)).id;
      },
      prepare: (projectName, entityType, entityId, activity) =>
        service.prepareActivity(
          projectName,
          { ...activity, activityType: activity.type, entityType, entityId },
          {
            author: activity.author,
            sender: activity.sender ?? null,
            onConflict: 'fail',
            authorWatches: activity.authorWatches ?? false,
          },
        ),
      async write(prepared) {
        return { id: (await service.write(prepared as PreparedCreate)).id };
      },
      async list(projectName, type, entityIds) {
        const rows = await store.ofEntities(projectName, type, entityIds);
        return rows.map((row) => ({
          id: row.id,
          type: row.activity_type,
          body: row.body,
          data: row.data,
          entityId: row.origin_id,
          createdAt: new Date(row.created_at),
          updatedAt: new Date(row.updated_at),
        }));
      },
      mergeData: (projectName, id, data, options = {}) =>
        service.mergeData(projectName, id, data, options.touch ?? false),
      ensureWatching: (projectName, entityType, entityId, userName) =>
        service.ensureWatching(projectName, entityType, entityId, userName),
      settled: () => hook.settled(),
    });

    ctx.use('graphql').extend(activityGraphQL(feeds, users, reader));
    await ctx.app.register(
      activityRoutes({
        service,
        operations: new ActivityOperations(ctx.db, service, ctx.log),
        suggestions: new Suggestions(ctx.db, reader, users, store),
        feeds,
      }),
    );
  },
});
