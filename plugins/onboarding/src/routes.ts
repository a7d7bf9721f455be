import { sql } from 'kysely';
import {
  Conflict,
  NoContent,
  requireAdmin,
  type AddonContext,
  type AuthService,
  type RequestUser,
  type UserDirectory,
} from '@pipewright/sdk';
import { InfoMemory, type InfoFacts } from './info-memory.js';
import { Info, InfoQuery, InitializeRequest, LoginResponse } from './schemas.js';

// Serialises initialize calls of every server process, so two people racing through the form make one admin.
const INITIALIZE_LOCK = 7_140_002;

export function onboardingRoutes(ctx: AddonContext, users: UserDirectory, auth: AuthService) {
  const memory = new InfoMemory(ctx.events, users, async () => {
    const state = await ctx.db.selectFrom('onboarding_state').select('finished').executeTakeFirstOrThrow();
    return state.finished;
  });
  const setFinished = async (finished: boolean) => {
    await ctx.db
      .updateTable('onboarding_state')
      .set({ finished, updated_at: sql`now()` })
      .execute();
    await memory.onboardingChanged();
  };
  const info = (caller: RequestUser | null, full: boolean | undefined, facts: InfoFacts) => {
    const base = {
      motd: ctx.server.loginMessage,
      version: ctx.server.apiVersion,
      noAdminUser: !facts.hasAdmin,
      // The login page offers "forgot your password" only when a reset link can be mailed.
      passwordRecoveryAvailable: Boolean(ctx.server.mail && ctx.server.publicUrl),
    };
    if (!caller) return base;
    const known = {
      ...base,
      onboarding: caller.isAdmin && !facts.onboardingFinished,
      uptime: (Date.now() - ctx.server.startedAt.getTime()) / 1000,
      user: facts.user ?? undefined,
    };
    if (!full) return known;
    const addons = Object.fromEntries(
      ctx
        .addons()
        .filter((a) => a.production)
        .map((a) => [a.name, a.version]),
    );
    return { ...known, serverTime: new Date().toISOString(), addons };
  };

  return async (app: AddonContext['app']) => {
    app.get(
      '/api/info',
      {
        schema: {
          summary:
            'Server information: the login message, the API version and whether an administrator exists; more once logged in',
          security: [],
          querystring: InfoQuery,
          response: { 200: Info },
        },
      },
      // Most calls are answered from memory, without waiting for anything.
      (request) => {
        const { user } = request;
        const { full } = request.query;
        const facts = memory.facts(user?.name ?? null);
        return facts instanceof Promise
          ? facts.then((read) => info(user, full, read))
          : info(user, full, facts);
      },
    );

    app.post(
      '/api/onboarding/initialize',
      {
        schema: {
          summary: 'Create the first administrator and log in (only while no administrator exists)',
          security: [],
          body: InitializeRequest,
          response: { 200: LoginResponse },
        },
      },
      async (request) => {
        const { adminName, adminPassword, adminFullName, adminEmail } = request.body;
        users.requirePassword(adminPassword, ['body', 'adminPassword']);
        const admin = await ctx.db.transaction().execute(async () => {
          await sql`SELECT pg_advisory_xact_lock(${INITIALIZE_LOCK})`.execute(ctx.db);
          if (await users.hasAdmin())
            throw new Conflict(
              'The server is already initialized: an administrator exists',
              'already-initialized',
            );
          const attrib = {
            ...(adminFullName ? { fullName: adminFullName } : {}),
            ...(adminEmail ? { email: adminEmail } : {}),
          };
          return users.create({
            name: adminName,
            password: adminPassword,
            attrib,
            data: { isAdmin: true },
          });
        });
        await ctx.events.emit({
          topic: 'server.initialized',
          user: admin.name,
          description: `${admin.name} created as the first administrator`,
        });
        return auth.login(admin, request);
      },
    );

    app.post(
      '/api/onboarding/abort',
      { schema: { summary: 'Dismiss the setup wizard (administrators)', response: { 204: NoContent } } },
      async (request, reply) => {
        requireAdmin(request);
        await setFinished(true);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/onboarding/restart',
      { schema: { summary: 'Show the setup wizard again (administrators)', response: { 204: NoContent } } },
      async (request, reply) => {
        requireAdmin(request);
        await setFinished(false);
        return reply.code(204).send(null);
      },
    );
  };
}
