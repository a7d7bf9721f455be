import {
  type AddonApp,
  BadRequest,
  Conflict,
  excludeNone,
  Forbidden,
  isManagerOrAbove,
  JsonObject,
  NoContent,
  type RequestUser,
  requireAdmin,
  Type,
  User,
  UserParams,
  type UserRecord,
  ValidationFailed,
} from '@pipewright/sdk';
import { USER_BODY_LIMIT } from './limits.js';
import {
  isSelf,
  refuseLosingLastAdmin,
  requireManagerOf,
  requirePatchAllowed,
  requireRoleGrant,
  requireSelfOrAdmin,
} from './policy.js';
import type { UserService } from './service.js';
import {
  ApiKey,
  ApiKeyCreated,
  ApiKeyParams,
  ApiKeyPatch,
  NewApiKey,
  NewUser,
  PasswordChange,
  PasswordCheck,
  RenameRequest,
  UserList,
  UserListQuery,
  UserPatch,
} from './schemas.js';
import type { PasswordGuesses } from '@pipewright/plugin-auth/api';

/** Provided by the auth addon: guesses at passwords are slowed down, wherever a password is checked. */

/**
 * Changing your own password takes your current one, so a session left open (or stolen) cannot lock its owner
 * out. A wrong one is 403, not 401: the web app reads a 401 as a session that ended.
 */
async function requireCurrentPassword(
  users: UserService,
  guesses: PasswordGuesses,
  user: UserRecord,
  currentPassword: string | undefined,
  address: string,
): Promise<void> {
  // Accounts without a password (invited, or signing in another way) have none to give.
  if (!user.hasPassword) return;
  if (currentPassword === undefined) {
    const loc = ['body', 'currentPassword'];
    throw new ValidationFailed(
      [{ loc, msg: "must have required property 'currentPassword'", type: 'required' }],
      'Your current password is required to change your own password (body.currentPassword)',
    );
  }
  // A guess at the password like a login: the same per-account back-off stops trying passwords through here.
  const guess = guesses.attempt(user.name, address);
  if (!(await users.isPassword(user.name, currentPassword))) {
    throw new Forbidden('The current password is wrong', 'wrong-password');
  }
  guess.succeeded();
}

/** Everyone for managers and for holders of list_all_users (AYON's rule); others see only themselves. */
async function visibleUsers(
  users: UserService,
  caller: RequestUser,
  filter: { active?: boolean },
): Promise<UserRecord[]> {
  if ((await users.studioPermissions(caller)).list_all_users) return users.list(filter);
  const self = await users.get(caller.name);
  return self && (filter.active === undefined || self.active === filter.active) ? [self] : [];
}

export function userRoutes(users: UserService, guesses: PasswordGuesses) {
  return async (app: AddonApp) => {
    app.get(
      '/api/users',
      {
        schema: {
          summary: 'List users: everyone for managers and holders of list_all_users, else only yourself',
          description:
            'Other users appear without their web-app preferences; to non-managers only as who they are (name, ' +
            'full name, e-mail, picture, roles).',
          querystring: UserListQuery,
          response: { 200: UserList },
        },
      },
      async (request) => {
        const shown = (await visibleUsers(users, request.caller, request.query)).map((u) =>
          isSelf(request.caller, u.name)
            ? users.present(u)
            : isManagerOrAbove(request.caller)
              ? users.presentInList(u)
              : users.presentPublic(u),
        );
        return { count: shown.length, users: shown };
      },
    );

    app.get(
      '/api/users/me',
      { schema: { summary: 'The logged-in user', response: { 200: User } } },
      async (request) => excludeNone(users.present(await users.require(request.caller.name)), ['attrib']),
    );

    app.get(
      '/api/users/:user_name',
      { schema: { summary: 'One user', params: UserParams, response: { 200: User } } },
      async (request) => {
        const user = await users.require(request.params.user_name);
        const shown =
          isManagerOrAbove(request.caller) || user.name === request.caller.name
            ? users.present(user)
            : users.presentPublic(user);
        return excludeNone(shown, ['attrib']);
      },
    );

    app.put(
      '/api/users/:user_name',
      {
        config: { access: 'manager' },
        bodyLimit: USER_BODY_LIMIT,
        schema: { summary: 'Create a user', params: UserParams, body: NewUser, response: { 204: NoContent } },
      },
      async (request) => {
        requireRoleGrant(request.caller, request.body.data);
        if (request.body.password !== undefined)
          users.requirePassword(request.body.password, ['body', 'password']);
        const by = { user: request.caller.name };
        await users.create({ name: request.params.user_name, ...request.body }, by);
      },
    );

    app.patch(
      '/api/users/:user_name',
      {
        bodyLimit: USER_BODY_LIMIT,
        schema: {
          summary: 'Change a user: attrib and data are merged, null removes a key',
          params: UserParams,
          body: UserPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const target = await users.require(request.params.user_name);
        requirePatchAllowed(request.caller, target, request.body);
        const stillAdmin =
          request.body.active !== false &&
          (request.body.data?.isAdmin === undefined
            ? target.data.isAdmin === true
            : request.body.data.isAdmin === true);
        refuseLosingLastAdmin(target, stillAdmin, await users.activeAdmins(target.name));
        await users.update(target.name, request.body, { user: request.caller.name });
      },
    );

    app.delete(
      '/api/users/:user_name',
      { schema: { summary: 'Delete a user', params: UserParams, response: { 204: NoContent } } },
      async (request) => {
        const target = await users.require(request.params.user_name);
        requireManagerOf(request.caller, target);
        if (target.name === request.caller.name)
          throw new Conflict('You cannot delete your own account', 'delete-self');
        refuseLosingLastAdmin(target, false, await users.activeAdmins(target.name));
        await users.remove(target.name, { user: request.caller.name });
      },
    );

    app.patch(
      '/api/users/:user_name/password',
      {
        schema: {
          summary: "Set a password (other sessions of the user end), or a service user's API key",
          description:
            'Your own password: send the current one as currentPassword (422 without it, 403 when wrong, 429 after ' +
            "repeated wrong ones). Administrators set other users' passwords without it. With apiKey and no password, an " +
            "administrator sets a service user's API key (replacing its default key), as AYON does.",
          params: UserParams,
          body: PasswordChange,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        const { password, apiKey, currentPassword } = request.body;
        if (password === undefined && apiKey !== undefined) {
          // As AYON does it: an administrator gives a service user its API key through this route.
          requireAdmin(request);
          const target = await users.require(request.params.user_name);
          if (target.data.isService !== true)
            throw new BadRequest(`${target.name} is not a service account`, 'not-a-service');
          await users.setDefaultApiKey(target.name, apiKey);
          return;
        }
        if (password === undefined) throw new BadRequest('No password or API key provided', 'nothing-to-set');
        requireSelfOrAdmin(request.caller, request.params.user_name);
        const self = isSelf(request.caller, request.params.user_name);
        const target = await users.require(request.params.user_name);
        users.requirePassword(password, ['body', 'password']);
        if (self) await requireCurrentPassword(users, guesses, target, currentPassword, request.ip);
        await users.setPassword(target.name, password, self ? request.caller.sessionId : null);
      },
    );

    app.post(
      '/api/users/:user_name/checkPassword',
      {
        schema: {
          summary: 'Check that a password meets the password rules (422 when not)',
          params: UserParams,
          body: PasswordCheck,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        users.requirePassword(request.body.password, ['body', 'password']);
      },
    );

    for (const method of ['PATCH', 'POST'] as const) {
      app.route({
        method,
        url: '/api/users/:user_name/rename',
        config: { access: 'manager' },
        schema: {
          summary: 'Rename a user (managers); sessions and API keys follow',
          params: UserParams,
          body: RenameRequest,
          response: { 204: NoContent },
        },
        handler: async (request) => {
          // Refused before the lookup (config.access): who is not a manager learns nothing about the name.
          const target = await users.require(request.params.user_name);
          requireManagerOf(request.caller, target);
          await users.rename(target.name, request.body.newName, {
            user: request.caller.name,
          });
        },
      });
    }

    app.patch(
      '/api/users/:user_name/frontendPreferences',
      {
        bodyLimit: USER_BODY_LIMIT,
        schema: {
          summary: 'Merge web-app preferences (null removes a key)',
          description: 'The merged preferences may take 64 KiB as JSON (413 beyond).',
          params: UserParams,
          body: JsonObject,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        requireSelfOrAdmin(request.caller, request.params.user_name);
        await users.setFrontendPreferences(request.params.user_name, request.body);
      },
    );

    app.get(
      '/api/users/:user_name/apikeys',
      {
        schema: {
          summary: "A user's API keys (previews only)",
          params: UserParams,
          response: { 200: Type.Array(ApiKey) },
        },
      },
      async (request) => {
        requireSelfOrAdmin(request.caller, request.params.user_name);
        return users.listApiKeys(request.params.user_name);
      },
    );

    app.post(
      '/api/users/:user_name/apikeys',
      {
        schema: {
          summary: 'Add an API key; the key is shown only in this answer',
          params: UserParams,
          body: NewApiKey,
          response: { 201: ApiKeyCreated },
        },
      },
      async (request, reply) => {
        requireSelfOrAdmin(request.caller, request.params.user_name);
        return reply.code(201).send(await users.addApiKey(request.params.user_name, request.body));
      },
    );

    app.patch(
      '/api/users/:user_name/apikeys/:entity_id',
      {
        schema: {
          summary: 'Relabel an API key or change its expiry',
          params: ApiKeyParams,
          body: ApiKeyPatch,
          response: { 204: NoContent },
        },
      },
      async (request) => {
        requireSelfOrAdmin(request.caller, request.params.user_name);
        await users.updateApiKey(request.params.user_name, request.params.entity_id, request.body);
      },
    );

    app.delete(
      '/api/users/:user_name/apikeys/:entity_id',
      { schema: { summary: 'Revoke an API key', params: ApiKeyParams, response: { 204: NoContent } } },
      async (request) => {
        requireSelfOrAdmin(request.caller, request.params.user_name);
        await users.removeApiKey(request.params.user_name, request.params.entity_id);
      },
    );
  };
}
