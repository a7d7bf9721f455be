import { addonPackage, defineAddon } from '@pipewright/sdk';
import { catalogRoutes, staticFileRoutes } from './routes.js';
import { installRoutes } from './install-routes.js';
import { AddonInstaller } from './installer.js';
import { roleBundles } from './bundle-roles.js';
import { authRef } from '@pipewright/plugin-auth/api';

// What the server runs and the files those addons ship. The web app learns its screens from here
// (frontendModules) and loads them from here (the static routes), for internal and installed addons alike.
// Administrators install and delete addon packages here; they run at once, without a restart.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  frontendModules: { addons_screens: ['./Addons'] },
  frontendScopes: { settings: { sidebar: 'Addons', access: 'admin' } },
  async setup(ctx) {
    const stagingAddons = async () =>
      (await roleBundles(ctx.db)).find((bundle) => bundle.role === 'staging')?.addons ?? {};
    await ctx.app.register(catalogRoutes(ctx.addons, stagingAddons));
    await ctx.app.register(staticFileRoutes(ctx.addons));
    const installer = new AddonInstaller(ctx);
    // Before installed addons are loaded: what a killed process left half done is cleared away first.
    await installer.recover();
    ctx.onClose(() => installer.settle());
    await ctx.app.register(installRoutes(installer));
  },
});
