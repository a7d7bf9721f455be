import { defineAddon, type ProjectEntityType } from '@pipewright/sdk';
import { Attachments } from './attachments.js';
import { EntityReader } from './entity-context.js';
import { ActivityFeeds } from './feed.js';
import { activityGraphQL } from './graphql.js';
import { EntityEventHook } from './hooks.js';
import { projectMigrations } from './migrations.js';
import { ActivityOperations } from './operations.js';
import { activityRoutes } from './routes.js';
import { ActivityService, type ActivityType } from './service.js';
import { ActivityStore } from './store.js';
import { Suggestions } from './suggest.js';

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
    activity: {
      type: ActivityType;
      body?: string;
      author: string | null;
      data?: Record<string, unknown>;
      files?: string[];
      tags?: string[];
      id?: string;
    },
  ): Promise<string>;
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
  migrations: { project: projectMigrations },
  async setup(ctx) {
    const projects = ctx.use('projects');
    const entities = ctx.use('entities');
    const users = ctx.use('users');
    const store = new ActivityStore(ctx.projects.schemaName);
    const reader = new EntityReader(entities);
    const files = ctx.use('files');
    const attachments = new Attachments(files);
    const service = new ActivityService(ctx.db, store, reader, projects, users, attachments, ctx.events);
    const feeds = new ActivityFeeds(ctx.db, store, reader, projects);
    const hook = new EntityEventHook(ctx.db, ctx.events, store, reader, service, users, ctx.log);
    hook.install(ctx.events);
    // Activities of changes already heard are written before the server lets go of the database.
    ctx.onClose(() => hook.settled());

    // A deleted entity takes its activities along, in the transaction that deletes it; their files are let go
    // (the files addon removes files no activity holds).
    entities.onDelete(async (trx, projectName, removed) => {
      const gone = await store.forgetEntities(
        trx,
        projectName,
        removed.map((entity) => entity.id),
      );
      await files.attach(
        projectName,
        gone.flatMap((activity) => activity.fileIds),
        null,
        trx,
      );
    });
    // A deleted file is no longer listed by the activities it was attached to.
    files.onRemove((trx, projectName, fileId) => store.forgetFile(trx, projectName, fileId));

    ctx.provide('activities', {
      async create(projectName, entityType, entityId, activity) {
        const prepared = await service.prepareActivity(
          projectName,
          { ...activity, activityType: activity.type, entityType, entityId },
          { author: activity.author, sender: null, onConflict: 'fail', authorWatches: false },
        );
        return service.commit(prepared);
      },
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
