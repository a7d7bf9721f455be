import { addonPackage, defineAddon, renameUserIn } from '@pipewright/sdk';
import { projectMigrations } from './migrations.js';
import { thumbnailRoutes } from './routes.js';
import { ThumbnailStore } from './service.js';
import { entityThumbnails } from './entity-thumbnails.js';
import { entitiesRef } from '@pipewright/plugin-entities/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { thumbnailsRef } from './api.js';
import { usersRef } from '@pipewright/plugin-users/api';

// Small preview images of folders, tasks, versions and workfiles, kept in each project's schema. Entities only
// hold a thumbnailId; setting it goes through the entities addon so access checks and events stay in one place.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { entities: entitiesRef, projects: projectsRef, users: usersRef },
  migrations: { project: projectMigrations },
  async setup(ctx, deps) {
    const store = new ThumbnailStore(ctx.db, ctx.projects.schemaName);
    const entities = deps.entities;
    const thumbnails = entityThumbnails(store, entities);
    ctx.provide(thumbnailsRef, thumbnails);
    deps.users.onRename(renameUserIn(ctx.db, [['thumbnails', 'created_by']]));
    await ctx.app.register(thumbnailRoutes({ store, thumbnails, projects: deps.projects, entities }));
  },
});
