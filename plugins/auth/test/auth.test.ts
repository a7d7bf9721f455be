import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer, importAddon } from '@pipewright/core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { PASSWORD, SERVICE_KEY } from './fixtures/static-users/index.js';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/static-users');

let core: TestCore;
beforeAll(async () => {
  core = await bootTestCore({ addons: ['static-users'], extraAddons: [await importAddon(fixture, false)] });
});
afterAll(() => core.close());

async function login(name: string, password = PASSWORD) {
  const res = await core.request('POST', '/api/auth/login', { body: { name, password } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

const whoAmI = async (options: Parameters<TestCore['request']>[2]) => {
  const res = await core.request('GET', '/api/auth/sessions', options);
  return res.status === 200 ? res.body : res.status;
};

describe('login', () => {
  it('answers detail, a 64-hex token and the user, with error and redirectUrl null as AYON does', async () => {
    const res = await core.request('POST', '/api/auth/login', {
      body: { name: 'Alice', password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      detail: 'Logged in as alice',
      error: null,
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      user: expect.objectContaining({ name: 'alice' }),
      redirectUrl: null,
    });
  });

  it('refuses a wrong password, an unknown user, an inactive user and a service user with 401', async () => {
    for (const [name, password] of [
      ['alice', 'nope'],
      ['nobody', PASSWORD],
      ['gone', PASSWORD],
      ['svc', PASSWORD],
    ]) {
      const res = await core.request('POST', '/api/auth/login', { body: { name, password } });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, detail: 'Invalid user name or password' });
    }
  });

  it('answers a login without password with 422', async () => {
    const res = await core.request('POST', '/api/auth/login', { body: { name: 'alice' } });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      { loc: ['body', 'password'], msg: expect.any(String), type: 'required' },
    ]);
  });

  it('records an auth.login event', async () => {
    await login('boss');
    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'auth.login')
      .where('user_name', '=', 'boss')
      .executeTakeFirst();
    expect(event).toBeDefined();
  });
});

describe('credentials', () => {
  it('accepts the token as Bearer, as the accessToken cookie and as ?token=', async () => {
    const token = await login('alice');
    expect(await whoAmI({ token })).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ user: expect.objectContaining({ name: 'alice' }), isCurrent: true }),
      ]),
    );
    expect(await whoAmI({ headers: { cookie: `accessToken=${token}` } })).not.toBe(401);
    const byQuery = await core.request('GET', `/api/auth/sessions?token=${token}`);
    expect(byQuery.status).toBe(200);
  });

  it('accepts an API key as x-api-key and as "Authorization: ApiKey"', async () => {
    expect(await whoAmI({ apiKey: SERVICE_KEY })).not.toBe(401);
    expect(await whoAmI({ headers: { authorization: `ApiKey ${SERVICE_KEY}` } })).not.toBe(401);
    expect(await whoAmI({ apiKey: 'f'.repeat(32) })).toBe(401);
  });

  it('answers 401 without credentials or with an unknown token', async () => {
    expect(await whoAmI({})).toBe(401);
    const res = await core.request('GET', '/api/auth/sessions', { token: 'a'.repeat(64) });
    expect(res.body).toEqual({ code: 401, detail: 'Not logged in' });
  });

  it('lets a service user act as another user with x-as-user', async () => {
    const sessions = await whoAmI({ apiKey: SERVICE_KEY, headers: { 'x-as-user': 'alice' } });
    // Admin-only listing is not visible to alice: only her own sessions come back.
    expect(sessions.every((s: any) => s.user.name === 'alice')).toBe(true);
  });
});

describe('sessions', () => {
  it('ends the session on logout', async () => {
    const token = await login('alice');
    const res = await core.request('POST', '/api/auth/logout', { token });
    expect(res.body).toEqual({ detail: 'Logged out alice' });
    expect(await whoAmI({ token })).toBe(401);
  });

  it('logs out a client whose session sends Content-Type: application/json with an empty body', async () => {
    const token = await login('alice');
    const res = await core.request('POST', '/api/auth/logout', {
      token,
      body: '',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ detail: 'Logged out alice' });
    expect(await whoAmI({ token })).toBe(401);
  });

  it('expires a session unused for 24 hours and extends one in use', async () => {
    // Session ids read from the table, so neither token has been used (and remembered) before its row is aged.
    const sessionOf = async (token: string) =>
      (
        await core.db
          .selectFrom('sessions')
          .select('id')
          .where('token_hash', '=', createHash('sha256').update(token).digest('hex'))
          .executeTakeFirstOrThrow()
      ).id;
    const age = (id: string, hours: number) =>
      core.db
        .updateTable('sessions')
        .set({ last_used: new Date(Date.now() - hours * 3600_000) })
        .where('id', '=', id)
        .execute();
    const stale = await login('alice');
    const fresh = await login('alice');
    await age(await sessionOf(stale), 25);
    expect(await whoAmI({ token: stale })).toBe(401);
    const freshId = await sessionOf(fresh);
    await age(freshId, 23);
    expect(await whoAmI({ token: fresh })).not.toBe(401);
    const row = await core.db
      .selectFrom('sessions')
      .select('last_used')
      .where('id', '=', freshId)
      .executeTakeFirstOrThrow();
    expect(Date.now() - new Date(row.last_used).getTime()).toBeLessThan(60_000);
  });

  it('refuses a token when its session is ended in another server process', async () => {
    const token = await login('alice');
    expect(await whoAmI({ token })).not.toBe(401); // remembered by this process now
    const other = await createServer({
      config: core.config,
      database: { ...core.database, close: async () => undefined },
      only: ['static-users'],
      extraAddons: [await importAddon(fixture, false)],
    });
    try {
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await other.close();
    }
    // The notice travels through Redis; without it (one process by design) the remembered copy lapses in 5 s.
    if (!core.config.redisUrl) await new Promise((resolve) => setTimeout(resolve, 5100));
    expect(await whoAmI({ token })).toBe(401);
  });

  it("shows a user's sessions to the user and to managers, not to other users", async () => {
    const alice = await login('alice');
    const boss = await login('boss');
    expect((await core.request('GET', '/api/users/alice/sessions', { token: alice })).status).toBe(200);
    expect((await core.request('GET', '/api/users/alice/sessions', { token: boss })).status).toBe(200);
    const other = await core.request('GET', '/api/users/boss/sessions', { token: alice });
    expect(other.status).toBe(403);
  });

  it("lists sessions in AYON's shape, and ends one by the token the list gives", async () => {
    const alice = await login('alice');
    const launcher = await core.request('POST', '/api/auth/login', {
      body: { name: 'alice', password: PASSWORD },
      headers: {
        'user-agent': 'AYON launcher',
        'x-ayon-platform': 'linux',
        'x-ayon-hostname': 'ws-07',
        'x-ayon-site-id': 'calm-blue-heron',
      },
    });
    const boss = await login('boss');
    // Managers see everyone's (a bare list, as AYON answers it); a user sees their own.
    const all = (await core.request('GET', '/api/auth/sessions', { token: boss })).body as any[];
    expect(
      all.some((item) => item.user.name === 'alice') && all.some((item) => item.user.name === 'boss'),
    ).toBe(true);
    const mine = (await core.request('GET', '/api/auth/sessions', { token: launcher.body.token }))
      .body as any[];
    const current = mine.find((item) => item.isCurrent);
    expect(current).toEqual({
      user: expect.objectContaining({ name: 'alice', attrib: expect.any(Object) }),
      token: expect.stringMatching(/^[0-9a-f]{32}$/),
      created: expect.any(Number),
      lastUsed: expect.any(Number),
      isService: false,
      isApiKey: false,
      clientInfo: {
        ip: expect.any(String),
        languages: [],
        location: null,
        agent: { platform: 'linux', client: 'AYON launcher', device: 'ws-07' },
        site_id: 'calm-blue-heron',
      },
      isCurrent: true,
    });
    expect(Math.abs(current.lastUsed - Date.now() / 1000)).toBeLessThan(60);
    // The session's secret token is never listed.
    expect(JSON.stringify(all)).not.toContain(launcher.body.token);
    const own = await core.request('GET', '/api/users/alice/sessions', { token: alice });
    expect(own.body.sessions).toContainEqual({
      token: current.token,
      isService: false,
      lastUsed: current.lastUsed,
      clientInfo: current.clientInfo,
    });
    const ended = await core.request('DELETE', `/api/users/alice/sessions/${current.token}`, {
      token: alice,
    });
    expect(ended.status).toBe(204);
    expect(await whoAmI({ token: launcher.body.token })).toBe(401);
  });

  it('lets a manager end one session of a user', async () => {
    const alice = await login('alice');
    const boss = await login('boss');
    const id = (await whoAmI({ token: alice })).find((s: any) => s.isCurrent).token;
    const res = await core.request('DELETE', `/api/users/alice/sessions/${id}`, { token: boss });
    expect(res.status).toBe(204);
    expect(await whoAmI({ token: alice })).toBe(401);
    const again = await core.request('DELETE', `/api/users/alice/sessions/${id}`, { token: boss });
    expect(again.status).toBe(404);
  });

  it('validates session routes: bad user names get 422, sessions and users nobody has 404', async () => {
    const token = await login('root');
    const badUser = await core.request('GET', '/api/users/-x-/sessions', { token });
    expect(badUser.status).toBe(422);
    expect(badUser.body.errors[0].loc).toEqual(['path', 'user_name']);
    // Session ids and the user of a new session are free text in AYON: what does not exist is not found.
    expect((await core.request('DELETE', '/api/users/alice/sessions/123', { token })).status).toBe(404);
    const nobody = await core.request('POST', '/api/auth/sessions', { token, body: { userName: 'no one' } });
    expect(nobody.status).toBe(404);
    expect((await core.request('POST', '/api/auth/sessions', { token, body: { message: 7 } })).status).toBe(
      422,
    );
  });

  it("opens another session for yourself, as AYON's launcher signs in, answered as AYON's SessionModel", async () => {
    const alice = await login('alice');
    const res = await core.request('POST', '/api/auth/sessions', { token: alice, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      user: expect.objectContaining({ name: 'alice' }),
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      created: expect.any(Number),
      lastUsed: expect.any(Number),
      isService: false,
      isApiKey: false,
      clientInfo: expect.any(Object),
    });
    expect(Math.abs(res.body.created - Date.now() / 1000)).toBeLessThan(60);
    expect(res.body.token).not.toBe(alice);
    expect(await whoAmI({ token: res.body.token })).not.toBe(401);
    // Naming yourself is the same.
    expect(
      (await core.request('POST', '/api/auth/sessions', { token: alice, body: { userName: 'ALICE' } }))
        .status,
    ).toBe(200);
  });

  it('lets an admin open a session for another user, not a normal user', async () => {
    const root = await login('root');
    const res = await core.request('POST', '/api/auth/sessions', {
      token: root,
      body: { userName: 'alice' },
    });
    expect(res.status).toBe(200);
    expect(await whoAmI({ token: res.body.token })).not.toBe(401);
    const alice = await login('alice');
    expect(
      (await core.request('POST', '/api/auth/sessions', { token: alice, body: { userName: 'boss' } })).status,
    ).toBe(403);
  });

  it('is shared by another server process on the same database', async () => {
    const token = await login('alice');
    const other = await createServer({
      config: core.config,
      database: { ...core.database, close: async () => undefined },
      only: ['static-users'],
      extraAddons: [await importAddon(fixture, false)],
    });
    try {
      const res = await other.app.inject({
        method: 'GET',
        url: '/api/auth/sessions',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });
});
