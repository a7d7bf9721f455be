import { addonPackage, defineAddon } from '@pipewright/sdk';
import { Attachments } from './attachments.js';
import { EntityReader } from './entity-context.js';
import { ActivityFeeds } from './feed.js';
import { activityGraphQL } from './graphql.js';
import { EntityEventHook } from './hooks.js';
import { projectMigrations } from './migrations.js';
import { ActivityOperations } from './operations.js';
import { activityRoutes } from './routes.js';
import { ActivityService, type PreparedCreate } from './service.js';
import { ActivityStore } from './store.js';
import { Suggestions } from './suggest.js';
import { carryUserRename } from './user-renames.js';
import { activitiesRef } from './api.js';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { filesRef } from '@pipewright/plugin-files/api';
import { graphqlRef } from '@pipewright/plugin-graphql/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { usersRef } from '@pipewright/plugin-users/api';

// Where artists and supervisors talk about the work: comments on a task, the review of a version, and what the
// server adds by itself (status changes, assignments, publishes), addressed to the people concerned.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: {
    entities: entitiesRef,
    files: filesRef,
    graphql: graphqlRef,
    projects: projectsRef,
    users: usersRef,
  },
  // The inbox is a page of the main navigation; the feed is embedded by other screens (ScreenProps.Extension).
  frontendModules: { activities_screens: ['./Inbox', './ActivityFeed'] },
  frontendScopes: { main: { sidebar: 'Inbox', module: './Inbox' } },
  migrations: { project: projectMigrations },
  async setup(ctx, deps) {
    const projects = deps.projects;
    const entities = deps.entities;
    const users = deps.users;
    users.onRename((oldName, newName) => carryUserRename(ctx.db, oldName, newName));
    const store = new ActivityStore(ctx.db, ctx.projects.schemaName);
    const reader = new EntityReader(entities);
    const files = deps.files;
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

    ctx.provide(activitiesRef, {
      async create(projectName, entityType, entityId, activity) {
        const prepared = await service.prepareActivity(
          projectName,
          { ...activity, activityType: activity.type, entityType, entityId },
          { author: activity.author, onConflict: 'fail', authorWatches: false },
        );
        return (await service.write(prepared)).id;
      },
      prepare: (projectName, entityType, entityId, activity) =>
        service.prepareActivity(
          projectName,
          { ...activity, activityType: activity.type, entityType, entityId },
          {
            author: activity.author,
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

    deps.graphql.extend(activityGraphQL(feeds, users, reader));
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
