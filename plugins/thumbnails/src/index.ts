import { defineAddon, renameUserIn } from '@pipewright/sdk';
import { projectMigrations } from './migrations.js';
import { thumbnailRoutes } from './routes.js';
import { ThumbnailStore } from './service.js';
import { entityThumbnails } from './entity-thumbnails.js';

// Small preview images of folders, tasks, versions and workfiles, kept in each project's schema. Entities only
// hold a thumbnailId; setting it goes through the entities addon so access checks and events stay in one place.
export default defineAddon({
  name: 'thumbnails',
  version: '1.0.0',
  title: 'Thumbnails',
  description: 'PNG and JPEG thumbnails of folders, tasks, versions and workfiles',
  dependsOn: ['entities', 'projects', 'users'],
  migrations: { project: projectMigrations },
  async setup(ctx) {
    const store = new ThumbnailStore(ctx.db, ctx.projects.schemaName);
    const entities = ctx.use('entities');
    const thumbnails = entityThumbnails(store, entities);
    ctx.provide('thumbnails', thumbnails);
    ctx.use('users').onRename(renameUserIn(ctx.db, [['thumbnails', 'created_by']]));
    await ctx.app.register(thumbnailRoutes({ store, thumbnails, projects: ctx.use('projects'), entities }));
  },
});
