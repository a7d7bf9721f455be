import { addonPackage, defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { onboardingRoutes } from './routes.js';
import { attributesRef } from '@pipewright/plugin-attributes/api';
import { authRef } from '@pipewright/plugin-auth/api';
import { systemRef } from '@pipewright/plugin-system/api';
import { usersRef } from '@pipewright/plugin-users/api';

// The first minutes of a server's life: GET /api/info tells the web app whether an administrator exists,
// and initialize creates that administrator and logs them in.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { attributes: attributesRef, auth: authRef, system: systemRef, users: usersRef },
  migrations: { studio: studioMigrations },
  async setup(ctx, deps) {
    await ctx.app.register(onboardingRoutes(ctx, deps));
  },
});
