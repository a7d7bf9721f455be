import { addonPackage, defineAddon } from '@pipewright/sdk';
import { studioMigrations } from './migrations.js';
import { authRoutes } from './routes.js';
import { Authenticator } from './service.js';
import { IdentityMemory } from './identity-memory.js';
import { OneTimeTokenStore } from './one-time-tokens.js';
import { SessionStore } from './sessions.js';
import { LoginThrottle } from './throttle.js';
import { authRef, oneTimeTokensRef, passwordGuessesRef } from './api.js';

// Who is calling. Sessions live in PostgreSQL so every server process shares them and restarts keep them;
// users come from whichever addon registers itself as the user source (the users addon by default).
export default defineAddon({
  ...addonPackage(import.meta.url),
  migrations: { studio: studioMigrations },
  async setup(ctx) {
    const memory = new IdentityMemory(ctx.events);
    const sessions = new SessionStore(ctx.db, memory);
    const tokens = new OneTimeTokenStore(ctx.db);
    const auth = new Authenticator(ctx.db, sessions, memory, ctx.events, tokens);
    ctx.provide(authRef, auth);
    ctx.provide(oneTimeTokensRef, tokens);
    const guesses = new LoginThrottle();
    ctx.provide(passwordGuessesRef, guesses);
    ctx.addRequestHook((request) => {
      const caller = auth.identify(request);
      if (caller instanceof Promise) return caller.then((found) => void (request.user = found));
      request.user = caller;
    });
    await ctx.app.register(authRoutes(auth, sessions, tokens, guesses));
  },
});
