import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { bootTestCore, seedUser, type TestCore } from '@pipewright/core/testing';
import { newId } from '@pipewright/sdk';
import { EMPTY_PNG, detectImageType } from '../src/image-type.js';

// A manager deploys the project and its entities; an artist of the project checks what normal users may do.
let core: TestCore;
let boss: string;
let artie: string;
let outsider: string;
const P = '/api/projects/show';

// Real 1x1 PNGs (one red, one green pixel) and a minimal JFIF-framed JPEG: magic bytes, APP0 header, end marker.
const RED_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP4z8DwHwAFAAH/VscvDQAAAABJRU5ErkJggg==',
  'base64',
);
const GREEN_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNg+M/wHwAEAQH/rrVV9QAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01,
  0x00, 0x00, 0xff, 0xd9,
]);

const api = (method: string, url: string, body?: unknown, token = boss) =>
  core.request(method, url, { token, body });

const upload = (url: string, bytes: Buffer | string, contentType: string, token = boss, method = 'POST') =>
  core.request(method, url, { token, body: bytes, headers: { 'content-type': contentType } });

/** GET an image: the test helper's text body would mangle binary data, so read the raw payload. */
async function image(url: string, token = boss) {
  const res = await core.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    cache: res.headers['cache-control'],
    bytes: res.rawPayload,
    json: () => res.json(),
  };
}

const create = async (plural: string, body: Record<string, unknown>) => {
  const res = await api('POST', `${P}/${plural}`, body);
  if (res.status !== 201) throw new Error(`create ${plural} failed: ${res.status} ${res.text}`);
  return res.body.id as string;
};

let shot: string;
let task: string;
let product: string;
let version: string;
let workfile: string;

beforeAll(async () => {
  core = await bootTestCore({ addons: ['thumbnails', 'users'] });
  boss = await seedUser(core, 'boss', { isManager: true });
  artie = await seedUser(core, 'artie', { accessGroups: { show: ['artist'] } });
  outsider = await seedUser(core, 'otto', { accessGroups: { elsewhere: ['artist'] } });
  expect((await api('POST', '/api/projects', { name: 'show', code: 'sh' })).status).toBe(201);
  shot = await create('folders', { name: 'sh010', folderType: 'Shot' });
  task = await create('tasks', { name: 'comp', folderId: shot, taskType: 'Compositing' });
  product = await create('products', { name: 'renderMain', folderId: shot, productType: 'render' });
  version = await create('versions', { version: 1, productId: product, taskId: task });
  workfile = await create('workfiles', { path: 'work/sh010/comp_v001.nk', taskId: task });
});
afterAll(() => core.close());

describe('image type detection', () => {
  it('knows PNG and JPEG by their bytes, and nothing else', () => {
    expect(detectImageType(RED_PNG)).toBe('image/png');
    expect(detectImageType(JPEG)).toBe('image/jpeg');
    expect(detectImageType(EMPTY_PNG)).toBe('image/png');
    expect(detectImageType(Buffer.from('GIF89a........'))).toBeNull();
    expect(detectImageType(Buffer.from([0xff, 0xd8, 0xff]))).toBeNull();
    expect(detectImageType(Buffer.alloc(0))).toBeNull();
  });
});

describe('thumbnails by id', () => {
  it('stores a PNG and a JPEG and serves each with the type found in its bytes', async () => {
    const png = await upload(`${P}/thumbnails`, RED_PNG, 'image/png');
    expect(png.status).toBe(200); // as AYON answers POST .../thumbnails
    expect(png.body.id).toMatch(/^[0-9a-f]{32}$/);
    const got = await image(`${P}/thumbnails/${png.body.id}`);
    expect(got.status).toBe(200);
    expect(got.type).toBe('image/png');
    expect(got.cache).toBe('max-age=3600');
    expect(Buffer.compare(got.bytes, RED_PNG)).toBe(0);

    // Labelled as a generic stream, or even as the wrong image type: the bytes decide.
    const jpeg = await upload(`${P}/thumbnails`, JPEG, 'application/octet-stream', artie);
    expect(jpeg.status).toBe(200);
    const gotJpeg = await image(`${P}/thumbnails/${jpeg.body.id}`);
    expect(gotJpeg.type).toBe('image/jpeg');
    expect(Buffer.compare(gotJpeg.bytes, JPEG)).toBe(0);
    const mislabelled = await upload(`${P}/thumbnails`, JPEG, 'image/png');
    expect((await image(`${P}/thumbnails/${mislabelled.body.id}`)).type).toBe('image/jpeg');
  });

  it('refuses text, other formats and empty bodies with 422 on the body', async () => {
    const text = await upload(`${P}/thumbnails`, 'hello, I am an image', 'text/plain');
    expect(text.status).toBe(422);
    expect(text.body.errors[0]).toMatchObject({ loc: ['body'], type: 'raw_body_expected' });
    const garbage = await upload(`${P}/thumbnails`, Buffer.from('GIF89a\x01\x00\x01\x00'), 'image/png');
    expect(garbage.status).toBe(422);
    expect(garbage.body.errors[0]).toMatchObject({ loc: ['body'], type: 'unsupported_image' });
    expect(garbage.body.errors[0].msg).toMatch(/not a PNG or JPEG/);
    const empty = await upload(`${P}/thumbnails`, Buffer.alloc(0), 'image/jpeg');
    expect(empty.status).toBe(422);
    expect(empty.body.errors[0]).toMatchObject({ loc: ['body'], type: 'empty_thumbnail' });
    const none = await core.request('POST', `${P}/thumbnails`, { token: boss });
    expect(none.status).toBe(422);
    const json = await api('POST', `${P}/thumbnails`, { image: 'base64...' });
    expect(json.status).toBe(422);
    expect((await upload(`${P}/thumbnails`, JPEG, 'image/webp')).status).toBe(415);
  });

  it('lets only managers read and replace by id', async () => {
    const { id } = (await upload(`${P}/thumbnails`, RED_PNG, 'image/png', artie)).body;
    expect((await image(`${P}/thumbnails/${id}`, artie)).status).toBe(403);
    expect((await upload(`${P}/thumbnails/${id}`, GREEN_PNG, 'image/png', artie, 'PUT')).status).toBe(403);
    expect((await upload(`${P}/thumbnails`, RED_PNG, 'image/png', outsider)).status).toBe(403);

    const replaced = await upload(`${P}/thumbnails/${id}`, GREEN_PNG, 'image/png', boss, 'PUT');
    expect(replaced.status).toBe(204);
    expect(Buffer.compare((await image(`${P}/thumbnails/${id}`)).bytes, GREEN_PNG)).toBe(0);
    // PUT also creates: a client may pick the id first.
    const chosen = newId();
    expect((await upload(`${P}/thumbnails/${chosen}`, JPEG, 'image/jpeg', boss, 'PUT')).status).toBe(204);
    expect((await image(`${P}/thumbnails/${chosen}`)).type).toBe('image/jpeg');
    expect(
      (await upload(`${P}/thumbnails/${chosen}`, Buffer.from('nope'), 'image/jpeg', boss, 'PUT')).status,
    ).toBe(422);
  });

  it('answers a missing image with a 1x1 PNG and 203, or 404 with placeholder=none', async () => {
    const missing = newId();
    const stand = await image(`${P}/thumbnails/${missing}`);
    expect(stand.status).toBe(203);
    expect(stand.type).toBe('image/png');
    expect(stand.cache).toBe('max-age=3600');
    expect(Buffer.compare(stand.bytes, EMPTY_PNG)).toBe(0);
    expect(stand.bytes.readUInt32BE(16)).toBe(1); // IHDR width
    expect(stand.bytes.readUInt32BE(20)).toBe(1); // IHDR height
    expect((await image(`${P}/thumbnails/${missing}?placeholder=empty`)).status).toBe(203);
    const none = await image(`${P}/thumbnails/${missing}?placeholder=none`);
    expect(none.status).toBe(404);
    expect(none.json()).toMatchObject({ code: 404 });
    expect((await image(`${P}/thumbnails/${missing}?placeholder=other`)).status).toBe(422);
  });

  it('answers bad ids with 422 and unknown projects with 404', async () => {
    const bad = await image(`${P}/thumbnails/not-an-id`);
    expect(bad.status).toBe(422);
    expect(bad.json().errors[0].loc).toEqual(['path', 'thumbnail_id']);
    expect((await upload(`${P}/thumbnails/XYZ`, RED_PNG, 'image/png', boss, 'PUT')).status).toBe(422);
    expect((await upload('/api/projects/nowhere/thumbnails', RED_PNG, 'image/png')).status).toBe(404);
    expect((await image(`/api/projects/nowhere/thumbnails/${newId()}`)).status).toBe(404);
  });
});

describe('entity thumbnails', () => {
  it('sets a folder thumbnail through the entity, with its event and a new hash', async () => {
    const res = await upload(`${P}/folders/${shot}/thumbnail`, RED_PNG, 'image/png', artie);
    expect(res.status).toBe(201);
    const folder = (await api('GET', `${P}/folders/${shot}`)).body;
    expect(folder.thumbnailId).toBe(res.body.id);
    expect(folder.data.thumbnailHash).toEqual(expect.any(String));
    expect(folder.updatedBy).toBe('artie');
    const events = await core.db
      .selectFrom('events')
      .select(['topic', 'summary', 'user_name'])
      .where('topic', '=', 'entity.folder.thumbnail_changed')
      .execute();
    expect(events).toEqual([
      expect.objectContaining({
        user_name: 'artie',
        summary: expect.objectContaining({ entityId: shot, value: res.body.id }),
      }),
    ]);

    const got = await image(`${P}/folders/${shot}/thumbnail`, artie);
    expect(got.status).toBe(200);
    expect(got.cache).toBe('max-age=3600');
    expect(Buffer.compare(got.bytes, RED_PNG)).toBe(0);
  });

  it('gives a second upload a new id while the first id keeps the old image', async () => {
    const first = (await api('GET', `${P}/folders/${shot}`)).body;
    const second = await upload(`${P}/folders/${shot}/thumbnail`, GREEN_PNG, 'application/octet-stream');
    expect(second.status).toBe(201);
    expect(second.body.id).not.toBe(first.thumbnailId);
    const folder = (await api('GET', `${P}/folders/${shot}`)).body;
    expect(folder.thumbnailId).toBe(second.body.id);
    expect(folder.data.thumbnailHash).not.toBe(first.data.thumbnailHash);
    expect(Buffer.compare((await image(`${P}/thumbnails/${first.thumbnailId}`)).bytes, RED_PNG)).toBe(0);
    expect(Buffer.compare((await image(`${P}/folders/${shot}/thumbnail`)).bytes, GREEN_PNG)).toBe(0);
  });

  it('bumps the hash of entities showing an image replaced by id', async () => {
    const before = (await api('GET', `${P}/folders/${shot}`)).body;
    expect(
      (await upload(`${P}/thumbnails/${before.thumbnailId}`, JPEG, 'image/jpeg', boss, 'PUT')).status,
    ).toBe(204);
    const after = (await api('GET', `${P}/folders/${shot}`)).body;
    expect(after.thumbnailId).toBe(before.thumbnailId);
    expect(after.data.thumbnailHash).not.toBe(before.data.thumbnailHash);
    expect((await image(`${P}/folders/${shot}/thumbnail`)).type).toBe('image/jpeg');
  });

  it('serves task, version and workfile thumbnails', async () => {
    for (const [plural, id, bytes] of [
      ['tasks', task, RED_PNG],
      ['versions', version, JPEG],
      ['workfiles', workfile, GREEN_PNG],
    ] as const) {
      const before = await image(`${P}/${plural}/${id}/thumbnail`, artie);
      if (plural !== 'tasks') expect(before.status).toBe(203);
      const res = await upload(`${P}/${plural}/${id}/thumbnail`, bytes, 'application/octet-stream', artie);
      expect(res.status).toBe(201);
      expect((await api('GET', `${P}/${plural}/${id}`)).body.thumbnailId).toBe(res.body.id);
      const got = await image(`${P}/${plural}/${id}/thumbnail`, artie);
      expect(got.status).toBe(200);
      expect(got.type).toBe(detectImageType(bytes));
      expect(Buffer.compare(got.bytes, bytes)).toBe(0);
    }
    expect((await image(`${P}/tasks/${task}/thumbnail`, outsider)).status).toBe(403);
  });

  it('lets a folder or task without its own image show that of its newest version', async () => {
    const bare = await create('folders', { name: 'sh020', folderType: 'Shot' });
    const anim = await create('tasks', { name: 'anim', folderId: bare, taskType: 'Animation' });
    expect((await image(`${P}/folders/${bare}/thumbnail`)).status).toBe(203);
    expect((await image(`${P}/folders/${bare}/thumbnail?placeholder=none`)).status).toBe(404);
    const plate = await create('products', { name: 'plateMain', folderId: bare, productType: 'plate' });
    const v1 = await create('versions', { version: 1, productId: plate, taskId: anim });
    const v2 = await create('versions', { version: 2, productId: plate, taskId: anim });
    await upload(`${P}/versions/${v1}/thumbnail`, RED_PNG, 'image/png');
    await upload(`${P}/versions/${v2}/thumbnail`, JPEG, 'image/jpeg');
    for (const url of [`${P}/folders/${bare}/thumbnail`, `${P}/tasks/${anim}/thumbnail`]) {
      const got = await image(url);
      expect(got.status).toBe(200);
      expect(Buffer.compare(got.bytes, JPEG)).toBe(0);
    }
    expect((await api('GET', `${P}/folders/${bare}`)).body).not.toHaveProperty('thumbnailId');
  });

  it('answers missing entities with 404 on upload and with the placeholder rules on read', async () => {
    const ghost = newId();
    const res = await upload(`${P}/folders/${ghost}/thumbnail`, RED_PNG, 'image/png');
    expect(res.status).toBe(404);
    expect(res.body.detail).toMatch(/Folder .* not found/);
    expect((await upload(`${P}/versions/${ghost}/thumbnail`, RED_PNG, 'image/png')).status).toBe(404);
    expect((await image(`${P}/workfiles/${ghost}/thumbnail?placeholder=none`)).status).toBe(404);
    expect((await image(`${P}/tasks/${ghost}/thumbnail`)).status).toBe(203);
    const count = await core.db
      .withSchema('project_show')
      .selectFrom('thumbnails')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const before = Number(count.n);
    await upload(`${P}/folders/${ghost}/thumbnail`, RED_PNG, 'image/png');
    const after = await core.db
      .withSchema('project_show')
      .selectFrom('thumbnails')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(before);
  });

  it('answers bad ids, bad bodies and unknown projects before touching the entity', async () => {
    const bad = await upload(`${P}/folders/nope/thumbnail`, RED_PNG, 'image/png');
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].loc).toEqual(['path', 'folder_id']);
    expect((await image(`${P}/versions/123/thumbnail`)).status).toBe(422);
    const text = await upload(`${P}/folders/${shot}/thumbnail`, 'not an image', 'text/plain');
    expect(text.status).toBe(422);
    expect(text.body.errors[0].loc).toEqual(['body']);
    expect((await image(`/api/projects/nowhere/folders/${shot}/thumbnail`)).status).toBe(404);
  });
});
