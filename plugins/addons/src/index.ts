import { defineAddon } from '@pipewright/sdk';
import { catalogRoutes, staticFileRoutes } from './routes.js';
import { installRoutes } from './install-routes.js';
import { AddonInstaller } from './installer.js';

// What the server runs and the files those addons ship. The web app learns its screens from here
// (frontendModules) and loads them from here (the static routes), for internal and installed addons alike.
export default defineAddon({
  name: 'addons',
  version: '1.0.0',
  title: 'Addons',
  description: 'The loaded addons, their frontend modules and their static files',
  dependsOn: ['auth'],
  async setup(ctx) {
    const stagingAddons = async () => {
      const row = await ctx.db
        .selectFrom('public.bundles')
        .select('data')
        .where('is_staging', '=', true)
        .executeTakeFirst();
      return (row?.data as { addons?: Record<string, string | null> } | undefined)?.addons ?? {};
    };
    await ctx.app.register(catalogRoutes(ctx.addons, stagingAddons));
    await ctx.app.register(staticFileRoutes(ctx.addons));
    const installer = new AddonInstaller(ctx);
    ctx.onClose(() => installer.settle());
    await ctx.app.register(installRoutes(installer, ctx.db));
  },
});
