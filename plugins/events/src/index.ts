import { addonPackage, defineAddon } from '@pipewright/sdk';
import { eventRoutes } from './routes.js';
import { authRef } from '@pipewright/plugin-auth/api';

// The events API: dispatching, reading, updating and deleting events, bulk operations, and enroll, through which
// services take jobs. The table itself belongs to the core (public.events), as does the bus that stores and
// broadcasts events; this addon is the HTTP face of both.
export default defineAddon({
  ...addonPackage(import.meta.url),
  title: 'Events',
  deps: { auth: authRef },
  frontendModules: { events_screens: ['./Events'] },
  frontendScopes: { settings: { sidebar: 'Events', access: 'manager' } },
  async setup(ctx) {
    await ctx.app.register(eventRoutes(ctx));
  },
});
