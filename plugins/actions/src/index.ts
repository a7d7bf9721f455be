import { addonPackage, defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { actionRoutes } from './routes.js';
import { ActionService } from './service.js';
import { authRef } from '@pipewright/plugin-auth/api';

// Actions users run from a context ("open in the DCC" on a task, "sync" on a project). Other addons contribute
// them through the `actions` member of their definition; this addon lists them for a context, stores each user's
// settings of an action, runs them, and hands launcher actions to the desktop launcher through pending
// action.launcher events that the launcher takes (or aborts) with a 64-hex token.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    const actions = new ActionService(ctx.db, ctx.events, ctx.addons, ctx.log);
    await ctx.app.register(actionRoutes(actions));
  },
});
