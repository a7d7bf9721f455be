import { defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { onboardingRoutes } from './routes.js';

// The first minutes of a server's life: GET /api/info tells the web app whether an administrator exists,
// and initialize creates that administrator and logs them in.
export default defineAddon({
  name: 'onboarding',
  version: '1.0.0',
  title: 'Onboarding',
  description: 'Server information and the first-run flow',
  dependsOn: ['users', 'auth', 'attributes', 'system'],
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    await ctx.app.register(onboardingRoutes(ctx, ctx.use('users'), ctx.use('auth')));
  },
});
