import { excludeNone, NoContent, type AddonContext, type RequestUser } from '@pipewright/sdk';
import type { AuthService } from '@pipewright/plugin-auth/api';
import type { UserDirectory } from '@pipewright/plugin-users/api';
import type { AttributeLibrary } from '@pipewright/plugin-attributes/api';
import type { SystemService } from '@pipewright/plugin-system/api';
import { InfoMemory, type InfoFacts } from './info-memory.js';
import { Info, InfoQuery, InitializeRequest, LoginResponse } from './schemas.js';
import { OnboardingService } from './service.js';

/** The services onboarding reads through. */
export interface OnboardingServices {
  users: UserDirectory;
  auth: AuthService;
  attributes: AttributeLibrary;
  system: SystemService;
}

export function onboardingRoutes(ctx: AddonContext, { users, auth, attributes, system }: OnboardingServices) {
  const onboarding = new OnboardingService(ctx.db, ctx.events, users);
  const memory = new InfoMemory(ctx.events, users, () => onboarding.finished());
  const setFinished = async (finished: boolean) => {
    await onboarding.setFinished(finished);
    await memory.onboardingChanged();
  };
  // What AYON's web app reads of /api/info once logged in: the attribute definitions (its grids and editors), the
  // caller's client sites, sign-on options and whether to show the changelog.
  // The definitions are remembered like the rest of the answer: a few seconds, or until one is saved or deleted.
  // They are the bulk of the answer, so they are kept serialized and sent as they are (see the route).
  let definitions: { json: Promise<string>; until: number } | null = null;
  for (const topic of ['attribute.updated', 'attribute.deleted'])
    ctx.events.subscribe(topic, () => void (definitions = null));
  const attributeJson = () => {
    if (!definitions || definitions.until <= Date.now())
      definitions = {
        // AYON's /api/info leaves out what is none, inside each definition's data as well (a model there).
        json: attributes
          .list()
          .then((list) => JSON.stringify(list.map((item) => excludeNone(item, ['data'])))),
        until: Date.now() + 5000,
      };
    const { json } = definitions;
    // A failed read is not remembered.
    json.catch(() => definitions?.json === json && (definitions = null));
    return json;
  };
  const loggedInExtras = async (caller: RequestUser, siteId: string | undefined) => ({
    sites: await system.userSites(caller.name, siteId ?? null),
    ssoOptions: [],
    disableChangelog: !caller.isAdmin,
  });
  const info = (
    caller: RequestUser | null,
    full: boolean | undefined,
    facts: InfoFacts,
    extras: Awaited<ReturnType<typeof loggedInExtras>> | null,
  ) => {
    const base = {
      ...(ctx.server.loginMessage === null ? {} : { motd: ctx.server.loginMessage }),
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
      ...extras,
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
      // What it reads is remembered (users and onboarding here, attributes and sites by their addons), so almost no call waits for a query.
      async (request, reply) => {
        const { user } = request;
        const { full } = request.query;
        const siteId = request.headers['x-ayon-site-id'];
        const [facts, extras, definitionsJson] = await Promise.all([
          memory.facts(user?.name ?? null),
          user ? loggedInExtras(user, typeof siteId === 'string' ? siteId : undefined) : null,
          user ? attributeJson() : null,
        ]);
        const answer = info(user, full, facts, extras);
        if (definitionsJson === null) return answer;
        // The attribute definitions go out as serialized when read: three times the answers a second of
        // serializing them on every call. The rest holds only fields the schema declares.
        const rest = JSON.stringify(answer);
        const body = `${rest.slice(0, -1)},"attributes":${definitionsJson}}`;
        return reply.type('application/json; charset=utf-8').send(body as unknown as typeof answer);
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
        users.requirePassword(request.body.adminPassword, ['body', 'adminPassword']);
        const admin = await onboarding.initialize(request.body);
        return auth.login(admin, request);
      },
    );

    app.post(
      '/api/onboarding/abort',
      {
        config: { access: 'admin' },
        schema: { summary: 'Dismiss the setup wizard (administrators)', response: { 204: NoContent } },
      },
      async () => {
        await setFinished(true);
      },
    );

    app.post(
      '/api/onboarding/restart',
      {
        config: { access: 'admin' },
        schema: { summary: 'Show the setup wizard again (administrators)', response: { 204: NoContent } },
      },
      async () => {
        await setFinished(false);
      },
    );
  };
}
