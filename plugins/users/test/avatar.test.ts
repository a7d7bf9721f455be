import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createServer } from '@pipewright/core';
import { bootTestCore, type TestCore } from '@pipewright/core/testing';
import { PASSWORD, login, seedUser } from './helpers.js';
import { usersRef } from '../src/api.js';

let core: TestCore;
let admin: string;
let manager: string;
let alice: string;
let bob: string;

const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
// Only the first bytes decide the type, so a JPEG header and some bytes stand for a photo.
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0 jpeg body'),
]);
const WEBP = Buffer.concat([
  Buffer.from('RIFF'),
  Buffer.from([0x1a, 0, 0, 0]),
  Buffer.from('WEBPVP8L some bytes'),
]);
const SVG = Buffer.from(
  '\ufeff<?xml version="1.0"?>\n<!-- drawn by hand -->\n<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>',
);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00', 'latin1');

beforeAll(async () => {
  core = await bootTestCore({ addons: ['users'] });
  const users = core.services.get(usersRef);
  await seedUser(core, 'root', { isAdmin: true });
  await seedUser(core, 'boss', { isManager: true });
  await core.db.transaction().execute(async () => {
    await users.create({ name: 'alice', password: PASSWORD, attrib: { fullName: 'Alice Liddell' } });
    await users.create({ name: 'ada.king', password: PASSWORD });
  });
  await seedUser(core, 'bob');
  [admin, manager, alice, bob] = await Promise.all(
    ['root', 'boss', 'alice', 'bob'].map((name) => login(core, name)),
  );
});
afterAll(() => core.close());

const upload = (name: string, token: string, body: Buffer | string, type = 'application/octet-stream') =>
  core.request('PUT', `/api/users/${name}/avatar`, { token, body, headers: { 'content-type': type } });

/** The avatar as raw bytes (inject keeps the payload as sent). */
async function avatar(name: string, options: { token?: string; headers?: Record<string, string> } = {}) {
  const res = await core.app.inject({
    method: 'GET',
    url: `/api/users/${name}/avatar`,
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...options.headers },
  });
  return { status: res.statusCode, headers: res.headers, bytes: res.rawPayload, text: res.body };
}

describe('the default avatar', () => {
  it("is the user's initials on a coloured square, as SVG", async () => {
    const res = await avatar('alice', { token: bob });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/svg+xml');
    expect(res.text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(res.text).toContain('>AL</text>');
    // Without a full name the parts of the user name give the letters.
    expect((await avatar('ada.king', { token: bob })).text).toContain('>AK</text>');
    expect((await avatar('bob', { token: bob })).text).toContain('>B</text>');
  });

  it('is cached privately and revalidated with its ETag', async () => {
    const first = await avatar('alice', { token: bob });
    expect(first.headers['cache-control']).toBe('private, max-age=60');
    expect(first.headers['content-security-policy']).toContain("default-src 'none'");
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await avatar('alice', { token: bob, headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    // A full name that changes changes the picture, and so its ETag.
    await core.request('PATCH', '/api/users/alice', {
      token: alice,
      body: { attrib: { fullName: 'Alice Pleasance' } },
    });
    const renamed = await avatar('alice', { token: bob, headers: { 'if-none-match': etag } });
    expect(renamed.status).toBe(200);
    expect(renamed.text).toContain('>AP</text>');
  });
});

describe('reading avatars', () => {
  it('lets any logged-in user read, with the token in ?token= as <img> tags need, and nobody else', async () => {
    const byQuery = await core.request('GET', `/api/users/alice/avatar?token=${bob}`);
    expect(byQuery.status).toBe(200);
    const byCookie = await avatar('alice', { headers: { cookie: `accessToken=${bob}` } });
    expect(byCookie.status).toBe(200);
    const anonymous = await core.request('GET', '/api/users/alice/avatar');
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: 401, detail: 'Not logged in' });
  });

  it('answers 404 for an unknown user and 422 for a malformed name', async () => {
    const missing = await core.request('GET', '/api/users/nobody/avatar', { token: bob });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, detail: 'User nobody not found' });
    const bad = await core.request('GET', '/api/users/-x-/avatar', { token: bob });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['path', 'user_name']);
  });
});

describe('uploading an avatar', () => {
  it('stores the picture, typed by its bytes whatever the header says, and tells everyone', async () => {
    const before = (await core.request('GET', '/api/users/alice', { token: alice })).body.updatedAt;
    const res = await upload('alice', alice, PNG);
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    const stored = await avatar('alice', { token: bob });
    expect(stored.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(stored.bytes, PNG)).toBe(0);
    expect((await core.request('GET', '/api/users/alice', { token: alice })).body.updatedAt).not.toBe(before);

    const event = await core.db
      .selectFrom('events')
      .selectAll()
      .where('topic', '=', 'user.updated')
      .where('user_name', '=', 'alice')
      .orderBy('creation_order', 'desc')
      .executeTakeFirstOrThrow();
    expect(event.summary).toEqual({ userName: 'alice', fields: ['avatar'] });

    // A JPEG sent as image/png is kept, and served, as the JPEG it is.
    expect((await upload('alice', alice, JPEG, 'image/png')).status).toBe(200);
    const jpeg = await avatar('alice', { token: bob });
    expect(jpeg.headers['content-type']).toBe('image/jpeg');
    expect(Buffer.compare(jpeg.bytes, JPEG)).toBe(0);
    expect(jpeg.headers.etag).not.toBe(stored.headers.etag);
  });

  it('accepts WebP and SVG too, and forbids scripts in what it serves', async () => {
    expect((await upload('bob', bob, WEBP, 'image/webp')).status).toBe(200);
    expect((await avatar('bob', { token: alice })).headers['content-type']).toBe('image/webp');
    expect((await upload('bob', bob, SVG, 'text/plain')).status).toBe(200);
    const svg = await avatar('bob', { token: alice });
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.headers['content-security-policy']).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; sandbox",
    );
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses an empty body, other formats and JSON with 422, and keeps the picture it had', async () => {
    const current = (await avatar('alice', { token: alice })).bytes;
    const empty = await core.request('PUT', '/api/users/alice/avatar', { token: alice });
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toEqual([
      { loc: ['body'], msg: expect.stringContaining('empty'), type: 'empty_avatar' },
    ]);
    const gif = await upload('alice', alice, GIF, 'image/gif');
    expect(gif.status).toBe(422);
    expect(gif.body.errors[0].type).toBe('unsupported_image');
    expect(gif.body.detail).toMatch(/^Invalid avatar: /);
    const json = await core.request('PUT', '/api/users/alice/avatar', {
      token: alice,
      body: { image: 'png' },
    });
    expect(json.status).toBe(422);
    // Text that only mentions an svg element is not an SVG document.
    expect((await upload('alice', alice, 'hello <svg></svg>', 'image/svg+xml')).status).toBe(422);
    expect(Buffer.compare((await avatar('alice', { token: alice })).bytes, current)).toBe(0);
  });

  it('refuses more than 5 MiB with 413, declared or not', async () => {
    const huge = Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]);
    const res = await upload('alice', alice, huge, 'image/png');
    expect(res.status).toBe(413);
    expect(res.body).toEqual({
      code: 413,
      detail: `The avatar is larger than the limit of ${5 * 1024 * 1024} bytes`,
    });
    // Sent in chunks without a length, the body is counted as it arrives.
    const { Readable } = await import('node:stream');
    const chunked = await core.app.inject({
      method: 'PUT',
      url: '/api/users/alice/avatar',
      headers: { authorization: `Bearer ${alice}`, 'content-type': 'image/png' },
      payload: Readable.from([PNG, Buffer.alloc(3 * 1024 * 1024), Buffer.alloc(3 * 1024 * 1024)]),
    });
    expect(chunked.statusCode).toBe(413);
    expect((await avatar('alice', { token: alice })).headers['content-type']).toBe('image/jpeg');
  });

  it('lets only the user or an administrator set it', async () => {
    expect((await upload('alice', bob, PNG)).status).toBe(403);
    const byManager = await upload('alice', manager, PNG);
    expect(byManager.status).toBe(403);
    expect(byManager.body).toEqual({ code: 403, detail: 'Only the user or an administrator may do this' });
    expect((await upload('alice', admin, PNG)).status).toBe(200);
    expect((await avatar('alice', { token: alice })).headers['content-type']).toBe('image/png');
    expect((await upload('nobody', admin, PNG)).status).toBe(404);
    expect(
      (
        await core.request('PUT', '/api/users/alice/avatar', {
          body: PNG,
          headers: { 'content-type': 'image/png' },
        })
      ).status,
    ).toBe(401);
    const badName = await upload('x_', admin, PNG);
    expect(badName.status).toBe(422);
    expect(badName.body.errors[0].loc).toEqual(['path', 'user_name']);
  });
});

describe('removing an avatar', () => {
  it('brings the initials back, lets only the user or an administrator do it, and may be repeated', async () => {
    expect((await core.request('DELETE', '/api/users/alice/avatar', { token: bob })).status).toBe(403);
    expect((await core.request('DELETE', '/api/users/alice/avatar', { token: manager })).status).toBe(403);
    const events = async () =>
      (await core.db.selectFrom('events').select('id').where('topic', '=', 'user.updated').execute()).length;
    const eventsBefore = await events();
    const res = await core.request('DELETE', '/api/users/alice/avatar', { token: alice });
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(await events()).toBe(eventsBefore + 1);
    expect((await avatar('alice', { token: bob })).headers['content-type']).toBe('image/svg+xml');
    // Nothing left to remove: still 200, and no event about a change that did not happen.
    expect((await core.request('DELETE', '/api/users/alice/avatar', { token: admin })).status).toBe(200);
    expect(await events()).toBe(eventsBefore + 1);
    expect((await core.request('DELETE', '/api/users/nobody/avatar', { token: admin })).status).toBe(404);
  });
});

describe('avatars and the life of a user', () => {
  it('follows a renamed user and goes with a deleted one', async () => {
    await seedUser(core, 'carl');
    const carl = await login(core, 'carl');
    expect((await upload('carl', carl, PNG)).status).toBe(200);
    expect(
      (await core.request('PATCH', '/api/users/carl/rename', { token: manager, body: { newName: 'carlos' } }))
        .status,
    ).toBe(204);
    expect((await avatar('carlos', { token: bob })).headers['content-type']).toBe('image/png');
    expect((await avatar('carl', { token: bob })).status).toBe(404);

    expect((await core.request('DELETE', '/api/users/carlos', { token: manager })).status).toBe(204);
    const rows = await core.db.selectFrom('user_avatars').select('user_name').execute();
    expect(rows.map((r) => r.user_name)).not.toContain('carlos');
    // A new user of the old name starts with initials, not with the picture of someone who left.
    await seedUser(core, 'carlos');
    expect((await avatar('carlos', { token: bob })).headers['content-type']).toBe('image/svg+xml');
  });

  it('is served by another server process on the same database', async () => {
    expect((await upload('bob', bob, PNG, 'image/png')).status).toBe(200);
    const other = await createServer({
      config: core.config,
      database: { ...core.database, close: async () => undefined },
      only: ['users'],
    });
    try {
      const res = await other.app.inject({ method: 'GET', url: `/api/users/bob/avatar?token=${alice}` });
      expect(res.statusCode).toBe(200);
      expect(Buffer.compare(res.rawPayload, PNG)).toBe(0);
    } finally {
      await other.close();
    }
  });
});
