import {
  type AddonApp,
  Forbidden,
  isManagerOrAbove,
  NoContent,
  NotFound,
  type RequestUser,
  requireAdmin,
  Type,
  Unauthorized,
  UserParams,
} from '@pipewright/sdk';
import type { Authenticator } from './service.js';
import { ayonClientInfo, sessionModel, userSessionModel } from './session-view.js';
import type { SessionRow, SessionStore } from './sessions.js';
import { LoginThrottled } from './throttle.js';
import type { PasswordGuesses } from './api.js';
import { tokenAuthRoute } from './token-auth-routes.js';
import type { OneTimeTokenStore } from './one-time-tokens.js';
import {
  CreatedSession,
  CreateSessionRequest,
  DetailResponse,
  LoginRequest,
  LoginResponse,
  SessionList,
  SessionParams,
  UserPool,
  UserSessionList,
} from './schemas.js';

/** A user's own sessions, or anyone's for managers. */
function requireSelfOrManager(caller: RequestUser, userName: string) {
  if (caller.name.toLowerCase() !== userName.toLowerCase() && !isManagerOrAbove(caller)) {
    throw new Forbidden("Only managers may see or end other users' sessions");
  }
}

export function authRoutes(
  auth: Authenticator,
  sessions: SessionStore,
  tokens: OneTimeTokenStore,
  guesses: PasswordGuesses,
) {
  /** The users who own these sessions, as the API presents them (gone users are left out). */
  const ownersOf = async (rows: SessionRow[]) => {
    const owners = new Map<string, { presented: Record<string, unknown>; isService: boolean }>();
    for (const name of new Set(rows.map((row) => row.userName))) {
      const user = await auth.users?.get(name);
      if (user)
        owners.set(name, { presented: auth.users!.present(user), isService: user.data.isService === true });
    }
    return owners;
  };

  return async (app: AddonApp) => {
    tokenAuthRoute(app, auth, tokens);

    app.get(
      '/api/auth/pools',
      {
        config: { access: 'manager' },
        schema: {
          summary: 'User pools (seats) of the licence: managers',
          description:
            'Pools come with a licence (fixed or metered seats). This server has no licence mechanism, so the ' +
            'list is empty, as the AYON server answers too.',
          response: { 200: Type.Array(UserPool) },
        },
      },
      async () => [],
    );

    app.post(
      '/api/auth/login',
      {
        schema: {
          summary: 'Log in with a name and a password',
          security: [],
          body: LoginRequest,
          response: { 200: LoginResponse },
        },
      },
      async (request, reply) => {
        // request.ip is the socket's address unless the operator trusts a proxy (TRUST_PROXY): a client cannot
        // pick a fresh address for each guess with X-Forwarded-For.
        let guess;
        try {
          guess = guesses.attempt(request.body.name, request.ip);
        } catch (error) {
          if (error instanceof LoginThrottled) reply.header('retry-after', String(error.retryAfterSeconds));
          throw error;
        }
        const user = await auth.users?.authenticate(request.body.name, request.body.password);
        if (!user) throw new Unauthorized('Invalid user name or password', 'invalid-credentials');
        guess.succeeded();
        return auth.login(user, request);
      },
    );

    app.post(
      '/api/auth/logout',
      { schema: { summary: 'End the current session', response: { 200: DetailResponse } } },
      async (request) => {
        const user = request.caller;
        if (user.sessionId) await sessions.close(user.sessionId);
        return { detail: `Logged out ${user.name}` };
      },
    );

    app.get(
      '/api/auth/sessions',
      {
        schema: {
          summary: 'Live sessions: all of them for managers and services, your own otherwise',
          response: { 200: SessionList },
        },
      },
      async (request) => {
        const rows = await sessions.list(
          isManagerOrAbove(request.caller) || request.caller.isService ? undefined : request.caller.name,
        );
        const owners = await ownersOf(rows);
        return rows.flatMap((row) => {
          const owner = owners.get(row.userName);
          return owner ? [sessionModel(row, owner.presented, owner.isService, request.caller)] : [];
        });
      },
    );

    app.post(
      '/api/auth/sessions',
      {
        schema: {
          summary:
            'Open another session: for yourself (the launcher signs in so), or for another user (services)',
          description: 'Administrators may open sessions for other users too.',
          body: CreateSessionRequest,
          response: { 200: CreatedSession },
        },
      },
      async (request) => {
        const { userName, message } = request.body ?? {};
        const forOther = !!userName && userName.toLowerCase() !== request.caller.name.toLowerCase();
        if (forOther) requireAdmin(request);
        const user = await auth.users?.get(forOther ? userName : request.caller.name);
        if (!user || !user.active) throw new NotFound(`User ${userName ?? request.caller.name} not found`);
        const description = `${message ?? `Session created for ${user.name}`}${forOther ? ` by ${request.caller.name}` : ''}`;
        const { token, session, presented } = await auth.openSession(user, request, description);
        const seconds = (date: Date) => date.getTime() / 1000;
        return {
          user: presented,
          token,
          created: seconds(session.createdAt),
          lastUsed: seconds(session.lastUsed),
          isService: user.data.isService === true,
          isApiKey: false,
          clientInfo: ayonClientInfo(session.clientInfo),
        };
      },
    );

    app.get(
      '/api/users/:user_name/sessions',
      {
        schema: {
          summary: "A user's live sessions",
          params: UserParams,
          response: { 200: UserSessionList },
        },
      },
      async (request) => {
        requireSelfOrManager(request.caller, request.params.user_name);
        const rows = await sessions.list(request.params.user_name);
        const owners = await ownersOf(rows);
        return {
          sessions: rows.map((row) => userSessionModel(row, owners.get(row.userName)?.isService ?? false)),
        };
      },
    );

    app.delete(
      '/api/users/:user_name/sessions/:session_id',
      {
        schema: { summary: 'End one session of a user', params: SessionParams, response: { 204: NoContent } },
      },
      async (request) => {
        requireSelfOrManager(request.caller, request.params.user_name);
        const owned = (await sessions.list(request.params.user_name)).some(
          (s) => s.id === request.params.session_id,
        );
        if (!owned || !(await sessions.close(request.params.session_id))) {
          throw new NotFound(`Session ${request.params.session_id} of ${request.params.user_name} not found`);
        }
      },
    );
  };
}
