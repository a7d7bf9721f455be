import { addonPackage, defineAddon } from '@pipewright/sdk';
import { listsRef } from '@pipewright/plugin-lists/api';
import { projectsRef } from '@pipewright/plugin-projects/api';
import { projectMigrations } from './migrations.js';
import { sessionRoutes } from './routes.js';
import { ReviewSessions } from './service.js';
import { SessionStore } from './store.js';

// Synced review sessions: a list of versions reviewed together, its state held by the server (in PostgreSQL, heard
// by every process through the event bus) and followed by every player in it.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { projects: projectsRef, lists: listsRef },
  migrations: { project: projectMigrations },
  async setup(ctx, deps) {
    const sessions = new ReviewSessions(
      ctx.db,
      new SessionStore(ctx.db, ctx.projects.schemaName),
      deps,
      ctx.events,
    );
    await ctx.app.register(sessionRoutes(sessions));
  },
});
