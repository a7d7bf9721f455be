import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { importAddon } from '@pipewright/core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { PASSWORD } from './fixtures/static-users/index.js';
import { authRef, oneTimeTokensRef } from '../src/api.js';
import type { OneTimeTokens } from '../src/api.js';

const fixture = join(dirname(fileURLToPath(import.meta.url)), 'fixtures/static-users');

let core: TestCore;
let tokens: OneTimeTokens;
beforeAll(async () => {
  core = await bootTestCore({ addons: ['static-users'], extraAddons: [await importAddon(fixture, false)] });
  tokens = core.services.get(oneTimeTokensRef);
});
afterAll(() => core.close());

async function login(name: string) {
  const res = await core.request('POST', '/api/auth/login', { body: { name, password: PASSWORD } });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

const tokenAuth = (q: string, token?: string) =>
  core.request('GET', `/api/auth/tokenauth?q=${encodeURIComponent(q)}`, { token });
const loginLink = (user: string, data: Record<string, unknown> = {}) =>
  tokens.issue('login', user, { ttlSeconds: 600, data });
const sessionsOf = async (token: string) =>
  (await core.request('GET', '/api/auth/sessions', { token })).status;

describe('GET /api/auth/pools', () => {
  it('answers managers an empty list: there is no licence with seats here', async () => {
    for (const name of ['boss', 'root']) {
      const res = await core.request('GET', '/api/auth/pools', { token: await login(name) });
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    }
  });

  it('refuses other users with 403 and anonymous callers with 401', async () => {
    const res = await core.request('GET', '/api/auth/pools', { token: await login('alice') });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 403, detail: 'Managers only' });
    expect((await core.request('GET', '/api/auth/pools')).status).toBe(401);
  });

  it('documents the pool fields in /openapi.json', async () => {
    const document = (await core.request('GET', '/openapi.json')).body;
    const answer = document.paths['/api/auth/pools'].get.responses['200'].content['application/json'].schema;
    expect(Object.keys(answer.items.properties)).toEqual([
      'id',
      'title',
      'type',
      'valid',
      'note',
      'exp',
      'max',
      'used',
    ]);
  });
});

describe('GET /api/auth/tokenauth', () => {
  it('logs the user of a one-time login link in, once, and says where to go', async () => {
    const q = await loginLink('alice', { redirectUrl: '/projects/demo/overview' });
    const res = await tokenAuth(q);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      detail: 'Logged in as alice',
      error: null,
      token: expect.stringMatching(/^[0-9a-f]{64}$/),
      user: expect.objectContaining({ name: 'alice' }),
      redirectUrl: '/projects/demo/overview',
    });
    expect(await sessionsOf(res.body.token)).toBe(200);
    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'auth.login')
      .where('user_name', '=', 'alice')
      .executeTakeFirst();
    expect(event).toBeDefined();

    const again = await tokenAuth(q);
    expect(again.status).toBe(401);
    expect(again.body).toEqual({
      code: 401,
      detail: 'This login link is invalid, has expired or was used already',
    });
  });

  it('keeps only a hash of the token', async () => {
    const q = await loginLink('boss');
    const rows = await core.db
      .selectFrom('one_time_tokens')
      .selectAll()
      .where('user_name', '=', 'boss')
      .execute();
    expect(rows.map((row) => row.token_hash)).toEqual([createHash('sha256').update(q).digest('hex')]);
  });

  it('lets exactly one of two simultaneous uses through', async () => {
    const q = await loginLink('alice');
    const statuses = (await Promise.all([tokenAuth(q), tokenAuth(q)])).map((res) => res.status).sort();
    expect(statuses).toEqual([200, 401]);
  });

  it('refuses expired links, unknown ones and links meant for something else', async () => {
    const expired = await loginLink('alice');
    await core.db
      .updateTable('one_time_tokens')
      .set({ expires_at: new Date(Date.now() - 1000) })
      .where('token_hash', '=', createHash('sha256').update(expired).digest('hex'))
      .execute();
    expect((await tokenAuth(expired)).status).toBe(401);
    expect((await tokenAuth('f'.repeat(64))).status).toBe(401);
    // A password reset link is not a login link, and trying it does not use it up.
    const reset = await tokens.issue('password-reset', 'alice', { ttlSeconds: 600 });
    expect((await tokenAuth(reset)).status).toBe(401);
    expect(await tokens.peek('password-reset', reset)).toMatchObject({
      userName: 'alice',
      purpose: 'password-reset',
    });
  });

  it('refuses links of users who cannot log in: inactive, service or unknown', async () => {
    for (const user of ['gone', 'svc', 'nobody']) {
      expect((await tokenAuth(await loginLink(user))).status).toBe(401);
    }
  });

  it('keeps the session of a caller who is logged in already, and leaves the link unused', async () => {
    const session = await login('boss');
    const q = await loginLink('alice', { redirectUrl: '/inbox' });
    const res = await tokenAuth(q, session);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      detail: 'User boss already logged in',
      error: null,
      token: session,
      user: expect.objectContaining({ name: 'boss' }),
      redirectUrl: '/inbox',
    });
    expect((await tokenAuth(q)).body.detail).toBe('Logged in as alice');
  });

  it('answers a missing q with 422', async () => {
    const res = await core.request('GET', '/api/auth/tokenauth');
    expect(res.status).toBe(422);
    expect(res.body.errors[0].loc).toEqual(['query', 'q']);
  });

  it("ends a user's links with the user's sessions, and carries them over a rename", async () => {
    const auth = core.services.get(authRef);
    const q = await loginLink('alice');
    const kept = await loginLink('boss');
    await auth.closeSessions('alice');
    expect(await tokens.peek('login', q)).toBeNull();
    expect(await tokens.peek('login', kept)).not.toBeNull();

    await core.db.transaction().execute(() => auth.renameSessions('boss', 'bossy'));
    expect(await tokens.peek('login', kept)).toMatchObject({ userName: 'bossy' });
  });
});
