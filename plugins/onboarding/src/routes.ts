import { sql } from 'kysely';
import {
  Conflict,
  NoContent,
  requireAdmin,
  type AddonContext,
  type AuthService,
  type UserDirectory,
} from '@pipewright/sdk';
import { InfoMemory } from './info-memory.js';
import { Info, InfoQuery, InitializeRequest, LoginResponse } from './schemas.js';

// Serialises initialize calls of every server process, so two people racing through the form make one admin.
const INITIALIZE_LOCK = 7_140_002;

export function onboardingRoutes(ctx: AddonContext, users: UserDirectory, auth: AuthService) {
  const memory = new InfoMemory(ctx.events, users);
  const setFinished = async (finished: boolean) => {
    await ctx.db
      .updateTable('onboarding_state')
      .set({ finished, updated_at: sql`now()` })
      .execute();
    await memory.onboardingChanged();
  };
  const readFinished = async () =>
    (await ctx.db.selectFrom('onboarding_state').select('finished').executeTakeFirstOrThrow()).finished;

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
      async (request) => {
        const base = {
          motd: ctx.server.loginMessage,
          version: ctx.server.apiVersion,
          noAdminUser: !(await memory.hasAdmin()),
          // The login page offers "forgot your password" only when a reset link can be mailed.
          passwordRecoveryAvailable: Boolean(ctx.server.mail && ctx.server.publicUrl),
        };
        if (!request.user) return base;
        const me = await memory.user(request.user.name);
        const finished = await memory.onboardingFinished(readFinished);
        const info = {
          ...base,
          onboarding: request.user.isAdmin && !finished,
          uptime: (Date.now() - ctx.server.startedAt.getTime()) / 1000,
          user: me ?? undefined,
        };
        if (!request.query.full) return info;
        const addons = Object.fromEntries(
          ctx
            .addons()
            .filter((a) => a.production)
            .map((a) => [a.name, a.version]),
        );
        return { ...info, serverTime: new Date().toISOString(), addons };
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
