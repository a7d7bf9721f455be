import { addonPackage, defineAddon } from '@pipewright/sdk';
import { bundleRoutes } from './routes.js';
import { BundleService } from './service.js';
import { authRef } from '@pipewright/plugin-auth/api';
import { bundlesRef } from './api.js';
import { projectsRef } from '@pipewright/plugin-projects/api';

// Bundles choose which addon versions run together: the production bundle is what the studio runs (the core
// switches off the addons it sets to null), staging is tried before promotion, dev bundles belong to one user each.
// The table is the core's (public.bundles), since the core reads the production bundle at start; this addon owns
// the rules and the API. The settings addon uses the "bundles" service to resolve variants and to copy settings
// when staging is promoted.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { projects: projectsRef, auth: authRef },
  async setup(ctx, deps) {
    const bundles = new BundleService(ctx.db, ctx.events, ctx.runtime, ctx.addon.name, ctx.log);
    ctx.provide(bundlesRef, bundles);
    await ctx.app.register(bundleRoutes(bundles, deps.projects));
  },
});
