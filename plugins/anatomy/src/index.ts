import { addonPackage, defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { AnatomyPresetService } from './presets.js';
import { anatomyRoutes } from './routes.js';
import { anatomyRef } from './api.js';
import { authRef } from '@pipewright/plugin-auth/api';

// Anatomy presets are the templates new projects are created from; the projects addon uses this service to
// turn a preset into a project's fields and back.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef },
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    const presets = new AnatomyPresetService(ctx.db, ctx.events);
    ctx.provide(anatomyRef, presets);
    await ctx.app.register(anatomyRoutes(presets));
  },
});
