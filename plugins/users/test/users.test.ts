import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { defineAddon, outsideUnitOfWork } from '@pipewright/sdk';
import { PASSWORD, login, seedUser } from './helpers.js';
import { usersRef } from '../src/api.js';

// Studio permissions come from the access addon; here a stand-in grants list_all_users to "lister" only.
const listerPolicy = defineAddon({
  name: 'lister-policy',
  version: '1.0.0',
  title: 'list_all_users for lister (test)',
  deps: { users: usersRef },
  setup(ctx, deps) {
    deps.users.setStudioPermissionSource(async (caller) => ({
      enabled: true,
      create_projects: false,
      list_all_users: caller.name === 'lister',
    }));
  },
});

let core: TestCore;
let admin: string;
let manager: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['users'], extraAddons: [listerPolicy] });
  await seedUser(core, 'root', { isAdmin: true });
  await seedUser(core, 'boss', { isManager: true });
  admin = await login(core, 'root');
  manager = await login(core, 'boss');
});
afterAll(() => core.close());

const create = (token: string, name: string, body: Record<string, unknown> = { password: PASSWORD }) =>
  core.request('PUT', `/api/users/${name}`, { token, body });

describe('creating users', () => {
  it('lets a manager create a user who can then log in', async () => {
    const res = await create(manager, 'alice', {
      password: PASSWORD,
      attrib: { fullName: 'Alice Liddell', email: 'alice@studio.test' },
    });
    expect(res.status).toBe(204);
    const token = await login(core, 'alice');
    const me = await core.request('GET', '/api/users/me', { token });
    expect(me.body).toMatchObject({
      name: 'alice',
      active: true,
      hasPassword: true,
      attrib: { fullName: 'Alice Liddell' },
    });
    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'user.created')
      .where('description', '=', 'created alice')
      .executeTakeFirstOrThrow();
    expect(event.summary).toEqual({ userName: 'alice' });
    expect(event.user_name).toBe('boss');
  });

  it('refuses a name that exists in any letter case with 409', async () => {
    const res = await create(admin, 'ALICE');
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 409, detail: 'User ALICE already exists' });
  });

  it('answers bad input with 422 naming each problem', async () => {
    const badName = await create(admin, '-dash-');
    expect(badName.status).toBe(422);
    expect(badName.body.errors[0].loc).toEqual(['path', 'user_name']);
    const badBody = await create(admin, 'bob', {
      password: 12345678,
      attrib: { email: ['not', 'text'] },
      colour: 'red',
    });
    expect(badBody.status).toBe(422);
    const locs = badBody.body.errors.map((e: any) => e.loc.join('.'));
    expect(locs).toEqual(expect.arrayContaining(['body.attrib.email', 'body.password']));
    // Unknown fields are ignored, as AYON's models do; the password rule is checked once the body is well formed.
    expect(locs).not.toContain('body.colour');
    const short = await create(admin, 'bob', { password: 'short', colour: 'red' });
    expect(short.body.errors).toEqual([
      { loc: ['body', 'password'], msg: 'must NOT have fewer than 8 characters', type: 'minLength' },
    ]);
  });

  it('lets only managers create users, and only admins create admins or service users', async () => {
    const alice = await login(core, 'alice');
    expect((await create(alice, 'eve')).status).toBe(403);
    expect((await core.request('PUT', '/api/users/eve', { body: { password: PASSWORD } })).status).toBe(401);
    expect((await create(manager, 'eve', { password: PASSWORD, data: { isAdmin: true } })).status).toBe(403);
    expect((await create(admin, 'eve', { password: PASSWORD, data: { isAdmin: true } })).status).toBe(204);
  });
});

describe('service users and API keys', () => {
  const key = 'a1'.repeat(16);

  it('lets a service user call the API with its key but never log in with a password', async () => {
    expect(
      (await create(admin, 'farm', { password: PASSWORD, apiKey: key, data: { isService: true } })).status,
    ).toBe(204);
    const me = await core.request('GET', '/api/users/me', { apiKey: key });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ name: 'farm', data: { isService: true } });
    expect(
      (await core.request('POST', '/api/auth/login', { body: { name: 'farm', password: PASSWORD } })).status,
    ).toBe(401);
  });

  it('lists keys by preview only, honours expiry and revocation', async () => {
    const alice = await login(core, 'alice');
    const added = await core.request('POST', '/api/users/alice/apikeys', {
      token: alice,
      body: { label: 'laptop' },
    });
    expect(added.status).toBe(201);
    expect(added.body.key).toMatch(/^[0-9a-f]{32}$/);
    const list = await core.request('GET', '/api/users/alice/apikeys', { token: alice });
    expect(list.body).toEqual([
      {
        id: added.body.id,
        label: 'laptop',
        preview: `****${added.body.key.slice(-4)}`,
        created: expect.any(String),
        expires: null,
      },
    ]);
    expect(list.text).not.toContain(added.body.key);
    expect((await core.request('GET', '/api/users/me', { apiKey: added.body.key })).body.name).toBe('alice');

    const past = new Date(Date.now() - 1000).toISOString();
    expect(
      (
        await core.request('PATCH', `/api/users/alice/apikeys/${added.body.id}`, {
          token: alice,
          body: { label: 'old laptop', expires: past },
        })
      ).status,
    ).toBe(204);
    expect((await core.request('GET', '/api/users/me', { apiKey: added.body.key })).status).toBe(401);
    await core.request('PATCH', `/api/users/alice/apikeys/${added.body.id}`, {
      token: alice,
      body: { expires: null },
    });
    expect((await core.request('GET', '/api/users/me', { apiKey: added.body.key })).status).toBe(200);

    expect(
      (await core.request('DELETE', `/api/users/alice/apikeys/${added.body.id}`, { token: alice })).status,
    ).toBe(204);
    expect((await core.request('GET', '/api/users/me', { apiKey: added.body.key })).status).toBe(401);
    expect(
      (await core.request('DELETE', `/api/users/alice/apikeys/${added.body.id}`, { token: alice })).status,
    ).toBe(404);
  });

  it("takes a key of the user's own choosing in any form, as AYON does, and previews only long ones", async () => {
    const alice = await login(core, 'alice');
    for (const [key, preview] of [
      ['Studio-Render-Key/2026', '****2026'],
      ['pin42', '****'],
    ]) {
      const added = await core.request('POST', '/api/users/alice/apikeys', {
        token: alice,
        body: { label: `key ${key}`, key },
      });
      expect(added.status).toBe(201);
      expect((await core.request('GET', '/api/users/me', { apiKey: key })).body.name).toBe('alice');
      const listed = (await core.request('GET', '/api/users/alice/apikeys', { token: alice })).body;
      expect(listed.find((k: any) => k.id === added.body.id).preview).toBe(preview);
    }
  });

  it("keeps other users away from someone's keys and validates key routes", async () => {
    const alice = await login(core, 'alice');
    expect((await core.request('GET', '/api/users/boss/apikeys', { token: alice })).status).toBe(403);
    const duplicate = await core.request('POST', '/api/users/alice/apikeys', {
      token: alice,
      body: { label: 'x', key },
    });
    expect(duplicate.status).toBe(409);
    const bad = await core.request('POST', '/api/users/alice/apikeys', {
      token: alice,
      body: { label: 7, expires: 'tomorrow' },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.label', 'body.expires']),
    );
    expect(
      (await core.request('PATCH', '/api/users/alice/apikeys/nope', { token: alice, body: {} })).status,
    ).toBe(422);
    expect((await core.request('DELETE', '/api/users/alice/apikeys/nope', { token: alice })).status).toBe(
      422,
    );
  });
});

describe('changing users', () => {
  it('merges attrib and data, a null removing the key', async () => {
    const patch = (body: object) => core.request('PATCH', '/api/users/alice', { token: manager, body });
    expect(
      (await patch({ attrib: { fullName: 'Alice L.' }, data: { isManager: true, team: 'comp' } })).status,
    ).toBe(204);
    expect((await patch({ data: { isManager: null } })).status).toBe(204);
    const alice = (await core.request('GET', '/api/users/alice', { token: manager })).body;
    expect(alice.attrib).toEqual({ fullName: 'Alice L.', email: 'alice@studio.test' });
    expect(alice.data).toEqual({ team: 'comp' });
  });

  it('takes attributes sent as none on creation, and leaves them out of answers as AYON does', async () => {
    const body = { password: PASSWORD, attrib: { fullName: null, email: 'nora@studio.test' } };
    expect((await create(manager, 'nora', body)).status).toBe(204);
    for (const answer of [
      (await core.request('GET', '/api/users/nora', { token: manager })).body,
      (await core.request('GET', '/api/users/me', { token: await login(core, 'nora') })).body,
    ]) {
      expect(answer.attrib).toEqual({ email: 'nora@studio.test' });
    }
  });

  it('lets users edit their own attributes but not their roles', async () => {
    const alice = await login(core, 'alice');
    expect(
      (
        await core.request('PATCH', '/api/users/alice', {
          token: alice,
          body: { attrib: { fullName: 'Al' } },
        })
      ).status,
    ).toBe(204);
    const promote = await core.request('PATCH', '/api/users/alice', {
      token: alice,
      body: { data: { isManager: true } },
    });
    expect(promote.status).toBe(403);
    expect(
      (await core.request('PATCH', '/api/users/boss', { token: alice, body: { attrib: { fullName: 'x' } } }))
        .status,
    ).toBe(403);
  });

  it('keeps managers away from administrators', async () => {
    expect(
      (await core.request('PATCH', '/api/users/root', { token: manager, body: { active: false } })).status,
    ).toBe(403);
    expect((await core.request('DELETE', '/api/users/root', { token: manager })).status).toBe(403);
  });

  it('validates the patch body', async () => {
    const res = await core.request('PATCH', '/api/users/alice', {
      token: manager,
      body: { active: 'yes', data: { isAdmin: 'sure' } },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.loc.join('.'))).toEqual(
      expect.arrayContaining(['body.active', 'body.data.isAdmin']),
    );
  });

  it('ends the sessions of a deactivated user and refuses their logins', async () => {
    await create(admin, 'temp');
    const token = await login(core, 'temp');
    expect(
      (await core.request('PATCH', '/api/users/temp', { token: manager, body: { active: false } })).status,
    ).toBe(204);
    expect((await core.request('GET', '/api/users/me', { token })).status).toBe(401);
    expect(
      (await core.request('POST', '/api/auth/login', { body: { name: 'temp', password: PASSWORD } })).status,
    ).toBe(401);
  });

  it('applies a change of rights from the very next request of a signed-in user', async () => {
    await create(admin, 'rising');
    const token = await login(core, 'rising');
    const createUser = () =>
      core.request('PUT', '/api/users/newbie', { token, body: { password: PASSWORD } });
    // Refused, and the server now remembers who this token is.
    expect((await createUser()).status).toBe(403);
    expect(
      (
        await core.request('PATCH', '/api/users/rising', {
          token: admin,
          body: { data: { isManager: true } },
        })
      ).status,
    ).toBe(204);
    expect((await createUser()).status).toBe(204);
  });

  it('never removes the last active administrator', async () => {
    await core.request('PATCH', '/api/users/eve', { token: admin, body: { active: false } });
    const demote = await core.request('PATCH', '/api/users/root', {
      token: admin,
      body: { data: { isAdmin: false } },
    });
    expect(demote.status).toBe(409);
    expect(demote.body.detail).toBe('root is the last active administrator');
    expect((await core.request('DELETE', '/api/users/root', { token: admin })).status).toBe(409);
    await core.request('PATCH', '/api/users/eve', { token: admin, body: { active: true } });
  });

  it('deletes a user with their keys and sessions', async () => {
    await create(admin, 'leaver', { password: PASSWORD, apiKey: 'b2'.repeat(16) });
    const token = await login(core, 'leaver');
    expect((await core.request('DELETE', '/api/users/leaver', { token: manager })).status).toBe(204);
    expect((await core.request('GET', '/api/users/me', { token })).status).toBe(401);
    expect((await core.request('GET', '/api/users/me', { apiKey: 'b2'.repeat(16) })).status).toBe(401);
    expect((await core.request('GET', '/api/users/leaver', { token: manager })).status).toBe(404);
    expect((await core.request('DELETE', '/api/users/boss', { token: manager })).status).toBe(409);
  });
});

describe('passwords', () => {
  it("sets a service user's API key through the password route, as AYON's clients do it", async () => {
    await create(admin, 'farmbot', { data: { isService: true } });
    const setKey = (apiKey: string, token = admin, name = 'farmbot') =>
      core.request('PATCH', `/api/users/${name}/password`, { token, body: { apiKey } });
    const first = 'ab'.repeat(16);
    expect((await setKey(first)).status).toBe(204);
    expect((await core.request('GET', '/api/users/me', { apiKey: first })).body.name).toBe('farmbot');
    // A second key replaces the first.
    const second = 'cd'.repeat(16);
    expect((await setKey(second)).status).toBe(204);
    expect((await core.request('GET', '/api/users/me', { apiKey: first })).status).toBe(401);
    expect((await core.request('GET', '/api/users/me', { apiKey: second })).body.name).toBe('farmbot');
    expect((await setKey('ef'.repeat(16), manager)).status).toBe(403);
    await create(admin, 'person');
    const notService = await setKey('ef'.repeat(16), admin, 'person');
    expect(notService.status).toBe(400);
    expect(notService.body.detail).toBe('person is not a service account');
    expect((await setKey('not-hex')).status).toBe(422);
    const nothing = await core.request('PATCH', '/api/users/farmbot/password', { token: admin, body: {} });
    expect(nothing.status).toBe(400);
    expect(nothing.body.detail).toBe('No password or API key provided');
  });

  it('changes a password, keeps the session that did it and ends the others', async () => {
    await create(admin, 'pat');
    const here = await login(core, 'pat');
    const elsewhere = await login(core, 'pat');
    const res = await core.request('PATCH', '/api/users/pat/password', {
      token: here,
      body: { password: 'a new long secret', currentPassword: PASSWORD },
    });
    expect(res.status).toBe(204);
    expect((await core.request('GET', '/api/users/me', { token: here })).status).toBe(200);
    expect((await core.request('GET', '/api/users/me', { token: elsewhere })).status).toBe(401);
    expect(
      (await core.request('POST', '/api/auth/login', { body: { name: 'pat', password: PASSWORD } })).status,
    ).toBe(401);
    expect(await login(core, 'pat', 'a new long secret')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('lets only the user or an admin set a password, and only a long enough one', async () => {
    expect(
      (
        await core.request('PATCH', '/api/users/pat/password', {
          token: manager,
          body: { password: 'manager sets it' },
        })
      ).status,
    ).toBe(403);
    expect(
      (
        await core.request('PATCH', '/api/users/pat/password', {
          token: admin,
          body: { password: 'admin resets it' },
        })
      ).status,
    ).toBe(204);
    const short = await core.request('PATCH', '/api/users/pat/password', {
      token: admin,
      body: { password: 'short' },
    });
    expect(short.status).toBe(422);
  });

  it('asks for the current password to change your own: refused without it or when wrong', async () => {
    await create(admin, 'quinn');
    const quinn = await login(core, 'quinn');
    const change = (body: object, token = quinn) =>
      core.request('PATCH', '/api/users/quinn/password', { token, body });
    const missing = await change({ password: 'a new long secret' });
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual([
      { loc: ['body', 'currentPassword'], msg: expect.any(String), type: 'required' },
    ]);
    const wrong = await change({ password: 'a new long secret', currentPassword: 'not my password' });
    expect(wrong.status).toBe(403);
    expect(wrong.body).toEqual({ code: 403, detail: 'The current password is wrong' });
    // Neither changed anything, and the session that tried is still alive.
    expect(await login(core, 'quinn')).toMatch(/^[0-9a-f]{64}$/);
    expect((await core.request('GET', '/api/users/me', { token: quinn })).status).toBe(200);
    // AYON clients may name it in snake_case.
    expect((await change({ password: 'a new long secret', current_password: PASSWORD })).status).toBe(204);
    expect(await login(core, 'quinn', 'a new long secret')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('asks administrators for their own current password too, but not for setting someone else’s', async () => {
    await create(admin, 'ops', { password: PASSWORD, data: { isAdmin: true } });
    const ops = await login(core, 'ops');
    expect(
      (
        await core.request('PATCH', '/api/users/ops/password', {
          token: ops,
          body: { password: 'a new long secret' },
        })
      ).status,
    ).toBe(422);
    expect(
      (
        await core.request('PATCH', '/api/users/quinn/password', {
          token: ops,
          body: { password: 'ops sets this one' },
        })
      ).status,
    ).toBe(204);
    expect(await login(core, 'quinn', 'ops sets this one')).toMatch(/^[0-9a-f]{64}$/);
  });

  it('slows down guessing the current password as it slows down logins', async () => {
    await create(admin, 'rae');
    const rae = await login(core, 'rae');
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await core.request('PATCH', '/api/users/rae/password', {
        token: rae,
        body: { password: 'a new long secret', currentPassword: `guess ${i}` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([403, 403, 403, 403, 403, 429]);
    expect(
      (await core.request('POST', '/api/auth/login', { body: { name: 'rae', password: PASSWORD } })).status,
    ).toBe(429);
  });

  it('checks a password against the rules', async () => {
    expect(
      (
        await core.request('POST', '/api/users/alice/checkPassword', {
          token: manager,
          body: { password: 'long enough' },
        })
      ).status,
    ).toBe(204);
    const weak = await core.request('POST', '/api/users/alice/checkPassword', {
      token: manager,
      body: { password: 'weak' },
    });
    expect(weak.status).toBe(422);
    expect(weak.body.errors[0].loc).toEqual(['body', 'password']);
  });
});

describe('renaming users', () => {
  it('moves the user, their sessions and keys to the new name', async () => {
    await create(admin, 'carl', { password: PASSWORD, apiKey: 'c3'.repeat(16) });
    const token = await login(core, 'carl');
    expect(
      (await core.request('PATCH', '/api/users/carl/rename', { token: manager, body: { newName: 'carlos' } }))
        .status,
    ).toBe(204);
    expect((await core.request('GET', '/api/users/me', { token })).body.name).toBe('carlos');
    expect((await core.request('GET', '/api/users/me', { apiKey: 'c3'.repeat(16) })).body.name).toBe(
      'carlos',
    );
    expect((await core.request('GET', '/api/users/carl', { token: manager })).status).toBe(404);
    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'user.renamed')
      .executeTakeFirstOrThrow();
    expect(event.summary).toEqual({ userName: 'carlos', oldName: 'carl' });
  });

  it('refuses a name already taken, in any case, and refuses normal users', async () => {
    const taken = await core.request('POST', '/api/users/carlos/rename', {
      token: manager,
      body: { newName: 'Alice' },
    });
    expect(taken.status).toBe(409);
    const alice = await login(core, 'alice');
    expect(
      (await core.request('PATCH', '/api/users/carlos/rename', { token: alice, body: { newName: 'carl' } }))
        .status,
    ).toBe(403);
    expect(
      (
        await core.request('PATCH', '/api/users/carlos/rename', {
          token: manager,
          body: { newName: 'bad name' },
        })
      ).status,
    ).toBe(422);
  });
});

describe('reading users', () => {
  it('lists everyone to managers, with web-app preferences only of the caller', async () => {
    const users = core.services.get(usersRef);
    await users.update('alice', { data: { frontendPreferences: { theme: 'dark' } } });
    await users.update('boss', { data: { frontendPreferences: { theme: 'light' } } });
    const all = await core.request('GET', '/api/users', { token: manager });
    expect(all.body.count).toBe(all.body.users.length);
    expect(all.body.users.map((u: any) => u.name)).toEqual(
      expect.arrayContaining(['alice', 'boss', 'farm', 'root']),
    );
    expect(all.body.users.find((u: any) => u.name === 'alice').data).toEqual({ team: 'comp' });
    expect(all.body.users.find((u: any) => u.name === 'boss').data.frontendPreferences).toEqual({
      theme: 'light',
    });
    // One user's page of the managers' screen still shows everything.
    expect(
      (await core.request('GET', '/api/users/alice', { token: manager })).body.data.frontendPreferences,
    ).toEqual({ theme: 'dark' });
    await users.update('alice', { data: { frontendPreferences: null } });
    await users.update('boss', { data: { frontendPreferences: null } });
  });

  it('lists only the caller to a user without list_all_users', async () => {
    const alice = await login(core, 'alice');
    const seen = await core.request('GET', '/api/users', { token: alice });
    expect(seen.status).toBe(200);
    expect(seen.body).toEqual({
      count: 1,
      users: [expect.objectContaining({ name: 'alice', data: { team: 'comp' } })],
    });
    expect((await core.request('GET', '/api/users?active=false', { token: alice })).body).toEqual({
      count: 0,
      users: [],
    });
  });

  it('lists everyone to a holder of list_all_users, others only as who they are', async () => {
    await seedUser(core, 'lister');
    await core.services.get(usersRef).update('boss', {
      data: { frontendPreferences: { theme: 'light' } },
    });
    const seen = await core.request('GET', '/api/users', { token: await login(core, 'lister') });
    expect(seen.body.users.map((u: any) => u.name)).toEqual(
      expect.arrayContaining(['alice', 'boss', 'farm', 'lister']),
    );
    expect(seen.body.users.find((u: any) => u.name === 'alice').data).toEqual({});
    expect(seen.body.users.find((u: any) => u.name === 'farm').data).toEqual({ isService: true });
    expect(seen.body.users.find((u: any) => u.name === 'boss').data).toEqual({ isManager: true });
  });

  it('answers managers everything about inactive users and refuses anonymous callers', async () => {
    const inactive = await core.request('GET', '/api/users?active=false', { token: manager });
    expect(inactive.body.users.map((u: any) => u.name)).toEqual(['temp']);
    expect((await core.request('GET', '/api/users?active=maybe', { token: manager })).status).toBe(422);
    expect((await core.request('GET', '/api/users')).status).toBe(401);
  });

  it('merges frontend preferences for the user', async () => {
    const alice = await login(core, 'alice');
    await core.request('PATCH', '/api/users/alice/frontendPreferences', {
      token: alice,
      body: { theme: 'light', pinned: ['a'] },
    });
    await core.request('PATCH', '/api/users/alice/frontendPreferences', {
      token: alice,
      body: { theme: null, grid: 3 },
    });
    expect(
      (await core.request('GET', '/api/users/me', { token: alice })).body.data.frontendPreferences,
    ).toEqual({ pinned: ['a'], grid: 3 });
    expect(
      (await core.request('PATCH', '/api/users/alice/frontendPreferences', { token: alice, body: [1] }))
        .status,
    ).toBe(422);
    expect(
      (await core.request('PATCH', '/api/users/boss/frontendPreferences', { token: alice, body: {} })).status,
    ).toBe(403);
  });
});

describe('size of free-form user data', () => {
  const prefs = (token: string, body: unknown) =>
    core.request('PATCH', '/api/users/alice/frontendPreferences', { token, body });

  it('refuses web-app preferences over 64 KiB with 413, keeping what was stored', async () => {
    const alice = await login(core, 'alice');
    expect((await prefs(alice, { layout: 'x'.repeat(60_000) })).status).toBe(204);
    // The merged preferences count, not one request's part of them.
    const grown = await prefs(alice, { more: 'y'.repeat(10_000) });
    expect(grown.status).toBe(413);
    expect(grown.body).toEqual({
      code: 413,
      detail: expect.stringMatching(/^The frontendPreferences value is larger than the limit of 65536 bytes/),
    });
    const stored = (await core.request('GET', '/api/users/me', { token: alice })).body.data
      .frontendPreferences;
    expect(Object.keys(stored).sort()).toEqual(['grid', 'layout', 'pinned']);
    expect((await prefs(alice, { layout: null })).status).toBe(204);
  });

  it('refuses a 10 MB value before reading it, and the users list stays small', async () => {
    const alice = await login(core, 'alice');
    const huge = await prefs(alice, { blob: 'z'.repeat(10 * 1024 * 1024) });
    expect(huge.status).toBe(413);
    expect(huge.body).toEqual({ code: 413, detail: expect.any(String) });
    const list = await core.request('GET', '/api/users', { token: manager });
    expect(list.text.length).toBeLessThan(64 * 1024);
  });

  it('caps attributes and data too, whoever writes them', async () => {
    const alice = await login(core, 'alice');
    const attrib = await core.request('PATCH', '/api/users/alice', {
      token: alice,
      body: { attrib: { notes: 'n'.repeat(70_000) } },
    });
    expect(attrib.status).toBe(413);
    expect(attrib.body.detail).toMatch(/^The user attrib is larger than the limit of 65536 bytes/);
    const data = await core.request('PATCH', '/api/users/alice', {
      token: manager,
      body: { data: { a: 'd'.repeat(200_000), b: 'd'.repeat(100_000) } },
    });
    expect(data.status).toBe(413);
    expect(data.body.detail).toMatch(/^The user data is larger than the limit of 262144 bytes/);
    const created = await create(admin, 'bulky', {
      password: PASSWORD,
      attrib: { notes: 'n'.repeat(70_000) },
    });
    expect(created.status).toBe(413);
    expect((await core.request('GET', '/api/users/bulky', { token: manager })).status).toBe(404);
  });
});

describe('the user directory inside a unit of work', () => {
  const users = () => core.services.get(usersRef);

  it('sees a user created in the transaction, which a call outside it never sees when it rolls back', async () => {
    let seenOutside: Promise<unknown> | undefined;
    await expect(
      core.db.transaction().execute(async () => {
        await users().create({ name: 'drafted', password: PASSWORD });
        expect(await users().get('drafted')).toMatchObject({ name: 'drafted', active: true });
        // On PGlite this read waits for the unit to end; on PostgreSQL it runs now, on another connection.
        seenOutside = outsideUnitOfWork(() => users().get('drafted'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await seenOutside).toBeNull();
    expect(await users().get('drafted')).toBeNull();

    await core.db.transaction().execute(() => users().create({ name: 'drafted', password: PASSWORD }));
    expect(await users().get('drafted')).toMatchObject({ name: 'drafted' });
  });

  it('undoes users created, deactivations and ended sessions together when the caller rolls back', async () => {
    await create(admin, 'steady');
    const token = await login(core, 'steady');
    await expect(
      core.db.transaction().execute(async () => {
        await users().create({ name: 'fleeting', password: PASSWORD });
        await users().update('steady', { active: false });
        expect(await users().get('steady')).toMatchObject({ active: false });
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await users().get('fleeting')).toBeNull();
    expect(await users().get('steady')).toMatchObject({ active: true });
    expect((await core.request('GET', '/api/users/me', { token })).status).toBe(200);
  });
});

describe('bad user names in paths', () => {
  it.each([
    ['GET', '/api/users/-x-'],
    ['DELETE', '/api/users/x_'],
    ['PATCH', '/api/users/a%20b'],
    ['GET', '/api/users/.x/apikeys'],
    ['PATCH', '/api/users/x-/password'],
    ['POST', '/api/users/-/checkPassword'],
    ['PATCH', '/api/users/_x/frontendPreferences'],
  ])('%s %s answers 422 at path.user_name', async (method, url) => {
    const res = await core.request(method, url, {
      token: admin,
      body: method === 'GET' || method === 'DELETE' ? undefined : { password: PASSWORD },
    });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['path', 'user_name']);
  });
});
