import { addonPackage, defineAddon } from '@pipewright/sdk';
import { eventLogRef } from './api.js';
import { eventLogReader } from './read-model.js';
import { eventRoutes } from './routes.js';
import { authRef } from '@pipewright/plugin-auth/api';

// The events API: dispatching, reading, updating and deleting events, bulk operations, and enroll, through which
// services take jobs. The table itself belongs to the core (public.events), as does the bus that stores and
// broadcasts events; this addon is the HTTP face of both, and the read models other addons query the log through.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  frontendModules: { events_screens: ['./Events'] },
  frontendScopes: { settings: { sidebar: 'Events', access: 'manager' } },
  async setup(ctx) {
    ctx.provide(eventLogRef, eventLogReader(ctx.db));
    await ctx.app.register(eventRoutes(ctx));
  },
});
