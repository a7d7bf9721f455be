import { addonPackage, defineAddon, renameUserIn } from '@pipewright/sdk';
import { projectMigrations, studioMigrations } from './migrations.js';
import { viewRoutes } from './routes.js';
import { ViewService } from './service.js';
import { ViewStore } from './store.js';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { usersRef } from '@pipewright/plugin-users/api';

// A view remembers how someone set up a page of the web app (the overview's columns, filter and grouping, the
// lists page's sorting, ...): a working view keeps the current state without a save, named views can be shared.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { projects: projectsRef, users: usersRef },
  migrations: { studio: studioMigrations, project: projectMigrations },
  async setup(ctx, deps) {
    const store = new ViewStore(ctx.db);
    const views = new ViewService(ctx.db, store, deps.projects, deps.users, ctx.projects.schemaName);
    // Views and default choices name their user: on a rename they follow, in every scope, in the same commit.
    deps.users.onRename(
      renameUserIn(ctx.db, [
        ['views', 'owner'],
        ['view_defaults', 'user_name'],
      ]),
    );
    await ctx.app.register(viewRoutes(views));
  },
});
