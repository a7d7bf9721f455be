import { defineAddon, renameUserIn } from '@pipewright/sdk';
import { projectMigrations, studioMigrations } from './migrations.js';
import { viewRoutes } from './routes.js';
import { ViewService } from './service.js';
import { ViewStore } from './store.js';

// A view remembers how someone set up a page of the web app (the overview's columns, filter and grouping, the
// lists page's sorting, ...): a working view keeps the current state without a save, named views can be shared.
export default defineAddon({
  name: 'views',
  version: '1.0.0',
  title: 'Views',
  description:
    'Saved views: named, shareable settings of the overview, task progress, lists and reviews pages',
  dependsOn: ['projects', 'users'],
  migrations: { studio: studioMigrations, project: projectMigrations },
  async setup(ctx) {
    const store = new ViewStore(ctx.db);
    const views = new ViewService(
      ctx.db,
      store,
      ctx.use('projects'),
      ctx.use('users'),
      ctx.projects.schemaName,
    );
    // Views and default choices name their user: on a rename they follow, in every scope, in the same commit.
    ctx.use('users').onRename(
      renameUserIn(ctx.db, [
        ['views', 'owner'],
        ['view_defaults', 'user_name'],
      ]),
    );
    await ctx.app.register(viewRoutes(views));
  },
});
