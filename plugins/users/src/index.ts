import { defineAddon } from '@pipewright/sdk';
import { avatarRoutes } from './avatar-routes.js';
import { AvatarStore } from './avatars.js';
import { smtpMailer } from './mail.js';
import { studioMigrations } from './migrations.js';
import { PasswordResets } from './password-reset.js';
import { passwordResetRoutes } from './password-reset-routes.js';
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
    const users = new UserService(ctx.db, ctx.events, auth, ctx.server.passwordMinLength);
    auth.setUserSource(users);
    ctx.provide('users', users);
    // Without a mail server (SMTP_URL) password reset answers that it is not available.
    const mailer = ctx.server.mail ? smtpMailer(ctx.server.mail) : null;
    if (mailer) ctx.onClose(() => mailer.close());
    const resets = new PasswordResets(
      ctx.db,
      users,
      auth,
      ctx.use('oneTimeTokens'),
      mailer,
      ctx.server.publicUrl,
      ctx.log,
    );
    await ctx.app.register(userRoutes(users, ctx.use('passwordGuesses')));
    await ctx.app.register(avatarRoutes(users, new AvatarStore(ctx.db, ctx.events)));
    await ctx.app.register(passwordResetRoutes(resets));
  },
});
