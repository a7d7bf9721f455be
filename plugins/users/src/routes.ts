import { sql } from 'kysely';
import { Conflict, JsonObject, NoContent, Type, isManagerOrAbove, requireManager, requireUser, type AddonApp, type Database } from '@pipewright/sdk';
import { refuseLosingLastAdmin, requireManagerOf, requirePatchAllowed, requireRoleGrant, requireSelfOrAdmin } from './policy.js';
import type { UserService } from './service.js';
import {
  ApiKey,
  ApiKeyCreated,
  ApiKeyParams,
  ApiKeyPatch,
  NewApiKey,
  NewUser,
  PasswordChange,
  RenameRequest,
  User,
  UserList,
  UserListQuery,
  UserParams,
  UserPatch,
} from './schemas.js';

async function otherActiveAdmins(db: Database, name: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select(sql<number>`count(*)`.as('n'))
    .where('active', '=', true)
    .where(sql<boolean>`data @> '{"isAdmin": true}'`)
    .where(sql<boolean>`lower(name) <> ${name.toLowerCase()}`)
    .executeTakeFirstOrThrow();
  return row.n;
}

export function userRoutes(users: UserService, db: Database) {
  return async (app: AddonApp) => {
    app.get('/api/users', { schema: { summary: 'List users', querystring: UserListQuery, response: { 200: UserList } } }, async (request) => {
      const caller = requireUser(request);
      const list = await users.list(request.query);
      const shown = list.map((u) => (isManagerOrAbove(caller) || u.name === caller.name ? users.present(u) : users.presentPublic(u)));
      return { count: shown.length, users: shown };
    });

    app.get('/api/users/me', { schema: { summary: 'The logged-in user', response: { 200: User } } }, async (request) => {
      const caller = requireUser(request);
      return users.present(await users.require(caller.name));
    });

    app.get('/api/users/:user_name', { schema: { summary: 'One user', params: UserParams, response: { 200: User } } }, async (request) => {
      const caller = requireUser(request);
      const user = await users.require(request.params.user_name);
      return isManagerOrAbove(caller) || user.name === caller.name ? users.present(user) : users.presentPublic(user);
    });

    app.put(
      '/api/users/:user_name',
      { schema: { summary: 'Create a user', params: UserParams, body: NewUser, response: { 204: NoContent } } },
      async (request, reply) => {
        const caller = requireManager(request);
        requireRoleGrant(caller, request.body.data);
        if (request.body.password !== undefined) users.requirePassword(request.body.password, ['body', 'password']);
        const user = await db.transaction().execute((trx) => users.create(trx, { name: request.params.user_name, ...request.body }));
        await users.emit('user.created', user.name, request.sender, caller.name);
        return reply.code(204).send(null);
      },
    );

    app.patch(
      '/api/users/:user_name',
      { schema: { summary: 'Change a user: attrib and data are merged, null removes a key', params: UserParams, body: UserPatch, response: { 204: NoContent } } },
      async (request, reply) => {
        const caller = requireUser(request);
        const target = await users.require(request.params.user_name);
        requirePatchAllowed(caller, target, request.body);
        const stillAdmin = request.body.active !== false && (request.body.data?.isAdmin === undefined ? target.data.isAdmin === true : request.body.data.isAdmin === true);
        refuseLosingLastAdmin(target, stillAdmin, await otherActiveAdmins(db, target.name));
        await users.update(target.name, request.body);
        await users.emit('user.updated', target.name, request.sender, caller.name, { fields: Object.keys(request.body) });
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/users/:user_name',
      { schema: { summary: 'Delete a user', params: UserParams, response: { 204: NoContent } } },
      async (request, reply) => {
        const caller = requireUser(request);
        const target = await users.require(request.params.user_name);
        requireManagerOf(caller, target);
        if (target.name === caller.name) throw new Conflict('You cannot delete your own account', 'delete-self');
        refuseLosingLastAdmin(target, false, await otherActiveAdmins(db, target.name));
        await users.remove(target.name);
        await users.emit('user.deleted', target.name, request.sender, caller.name);
        return reply.code(204).send(null);
      },
    );

    app.patch(
      '/api/users/:user_name/password',
      { schema: { summary: 'Set a password; other sessions of the user end', params: UserParams, body: PasswordChange, response: { 204: NoContent } } },
      async (request, reply) => {
        const caller = requireUser(request);
        requireSelfOrAdmin(caller, request.params.user_name);
        const keep = caller.name.toLowerCase() === request.params.user_name.toLowerCase() ? caller.sessionId : null;
        users.requirePassword(request.body.password, ['body', 'password']);
        await users.setPassword(request.params.user_name, request.body.password, keep);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/users/:user_name/checkPassword',
      { schema: { summary: 'Check that a password meets the password rules (422 when not)', params: UserParams, body: PasswordChange, response: { 204: NoContent } } },
      async (request, reply) => {
        requireUser(request);
        users.requirePassword(request.body.password, ['body', 'password']);
        return reply.code(204).send(null);
      },
    );

    for (const method of ['PATCH', 'POST'] as const) {
      app.route({
        method,
        url: '/api/users/:user_name/rename',
        schema: { summary: 'Rename a user (managers); sessions and API keys follow', params: UserParams, body: RenameRequest, response: { 204: NoContent } },
        handler: async (request, reply) => {
          // Refused before the lookup: who is not a manager learns nothing about the name.
          const caller = requireManager(request);
          const target = await users.require(request.params.user_name);
          requireManagerOf(caller, target);
          await users.rename(target.name, request.body.newName);
          await users.emit('user.renamed', request.body.newName, request.sender, caller.name, { oldName: target.name });
          return reply.code(204).send(null);
        },
      });
    }

    app.patch(
      '/api/users/:user_name/frontendPreferences',
      { schema: { summary: 'Merge web-app preferences (null removes a key)', params: UserParams, body: JsonObject, response: { 204: NoContent } } },
      async (request, reply) => {
        requireSelfOrAdmin(requireUser(request), request.params.user_name);
        await users.setFrontendPreferences(request.params.user_name, request.body);
        return reply.code(204).send(null);
      },
    );

    app.get(
      '/api/users/:user_name/apikeys',
      { schema: { summary: "A user's API keys (previews only)", params: UserParams, response: { 200: Type.Array(ApiKey) } } },
      async (request) => {
        requireSelfOrAdmin(requireUser(request), request.params.user_name);
        return users.listApiKeys(request.params.user_name);
      },
    );

    app.post(
      '/api/users/:user_name/apikeys',
      { schema: { summary: 'Add an API key; the key is shown only in this answer', params: UserParams, body: NewApiKey, response: { 201: ApiKeyCreated } } },
      async (request, reply) => {
        requireSelfOrAdmin(requireUser(request), request.params.user_name);
        return reply.code(201).send(await users.addApiKey(request.params.user_name, request.body));
      },
    );

    app.patch(
      '/api/users/:user_name/apikeys/:entity_id',
      { schema: { summary: 'Relabel an API key or change its expiry', params: ApiKeyParams, body: ApiKeyPatch, response: { 204: NoContent } } },
      async (request, reply) => {
        requireSelfOrAdmin(requireUser(request), request.params.user_name);
        await users.updateApiKey(request.params.user_name, request.params.entity_id, request.body);
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/users/:user_name/apikeys/:entity_id',
      { schema: { summary: 'Revoke an API key', params: ApiKeyParams, response: { 204: NoContent } } },
      async (request, reply) => {
        requireSelfOrAdmin(requireUser(request), request.params.user_name);
        await users.removeApiKey(request.params.user_name, request.params.entity_id);
        return reply.code(204).send(null);
      },
    );
  };
}
