import { addonPackage, defineAddon } from '@pipewright/sdk';
import { avatarRoutes } from './avatar-routes.js';
import { AvatarStore } from './avatars.js';
import { smtpMailer } from './mail.js';
import { studioMigrations } from './migrations.js';
import { PasswordResets } from './password-reset.js';
import { passwordResetRoutes } from './password-reset-routes.js';
import { userRoutes } from './routes.js';
import { UserService } from './service.js';
import { authRef, oneTimeTokensRef, passwordGuessesRef } from '@pipewright/plugin-auth/api';
import { usersRef } from './api.js';

// The studio's people and service accounts. It is the auth addon's user source, so logins check these users.
export default defineAddon({
  ...addonPackage(import.meta.url),
  deps: { auth: authRef, oneTimeTokens: oneTimeTokensRef, passwordGuesses: passwordGuessesRef },
  migrations: { studio: studioMigrations },
  frontendModules: { users_screens: ['./Users'] },
  frontendScopes: { settings: { sidebar: 'Users', access: 'manager' } },
  async setup(ctx, deps) {
    const auth = deps.auth;
    const users = new UserService(ctx.db, ctx.events, auth, ctx.server.passwordMinLength);
    auth.setUserSource(users);
    ctx.provide(usersRef, users);
    // Without a mail server (SMTP_URL) password reset answers that it is not available.
    const mailer = ctx.server.mail ? smtpMailer(ctx.server.mail) : null;
    if (mailer) ctx.onClose(() => mailer.close());
    const resets = new PasswordResets(
      ctx.db,
      users,
      auth,
      deps.oneTimeTokens,
      mailer,
      ctx.server.publicUrl,
      ctx.log,
    );
    await ctx.app.register(userRoutes(users, deps.passwordGuesses));
    await ctx.app.register(avatarRoutes(users, new AvatarStore(ctx.db, ctx.events)));
    await ctx.app.register(passwordResetRoutes(resets));
  },
});
