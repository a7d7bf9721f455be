import { addonPackage, defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { serviceRoutes } from './routes.js';
import { ServiceStore } from './service.js';
import { authRef } from '@pipewright/plugin-auth/api';

// Services are the background processes addons describe (an ftrack processor, a transcoder); an admin assigns
// each to a host, and the service host program on that machine starts and stops containers as the heartbeat
// answer tells it. The server only keeps the records: it never starts a process itself.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    const services = new ServiceStore(ctx.db, ctx.addons);
    await ctx.app.register(serviceRoutes(services));
  },
});
