import { defineAddon } from '@pipewright/sdk';
import { catalogRoutes, staticFileRoutes } from './routes.js';

// What the server runs and the files those addons ship. The web app learns its screens from here
// (frontendModules) and loads them from here (the static routes), for internal and installed addons alike.
export default defineAddon({
  name: 'addons',
  version: '1.0.0',
  title: 'Addons',
  description: 'The loaded addons, their frontend modules and their static files',
  dependsOn: ['auth'],
  async setup(ctx) {
    await ctx.app.register(catalogRoutes(ctx.addons));
    await ctx.app.register(staticFileRoutes(ctx.addons));
  },
});
