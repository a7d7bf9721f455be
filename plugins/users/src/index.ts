import { defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { userRoutes } from './routes.js';
import { UserService } from './service.js';

// The studio's people and service accounts. It is the auth addon's user source, so logins check these users.
export default defineAddon({
  name: 'users',
  version: '1.0.0',
  title: 'Users',
  description: 'Users, roles, passwords, API keys and service users',
  dependsOn: ['auth'],
  migrations: { studio: studioMigrations },
  frontendModules: { users_screens: ['./Users'] },
  frontendScopes: { settings: { sidebar: 'Users', access: 'manager' } },
  async setup(ctx) {
    const auth = ctx.use('auth');
    const users = new UserService(ctx.db, ctx.events, auth);
    auth.setUserSource(users);
    ctx.provide('users', users);
    await ctx.app.register(userRoutes(users, ctx.db));
  },
});
