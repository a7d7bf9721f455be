import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { request } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { eventually } from '@pipewright/core/testing';
import { buildWorld, makeMedia, P, type World } from './world.js';

let w: World;
let png: Buffer;

/** Every file under the project's storage, relative to it (uploads in progress included). */
async function storedFiles(): Promise<string[]> {
  const entries = await readdir(w.projectDir(), { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

let address: string | null = null;
/** The core on a real port, for tests that need a real HTTP client. */
async function listening(): Promise<string> {
  address ??= await w.core.app.listen({ port: 0, host: '127.0.0.1' });
  return address;
}

beforeAll(async () => {
  w = await buildWorld();
  ({ png } = await makeMedia(await mkdtemp(join(tmpdir(), 'files-media-'))));
});
afterAll(() => w.core.close());

describe('uploading', () => {
  it('stores the raw body under a new id, with its name, type and uploader', async () => {
    const res = await w.upload('artie', png, { 'x-file-name': 'frame.png' });
    expect(res.status).toBe(201);
    const { id } = res.json();
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    const info = await w.call('artie', 'GET', `${P}/files/${id}/info`);
    expect(info.status).toBe(200);
    expect(info.json()).toEqual({
      id,
      size: png.length,
      filename: 'frame.png',
      contentType: 'image/png',
      author: 'artie',
      activityId: null,
      createdAt: expect.any(String),
    });
    // Where AYON keeps it: {root}/{project}/uploads/{id[:2]}/{id}
    expect(await storedFiles()).toContain(join(w.projectDir(), 'uploads', id.slice(0, 2), id));
    const payload = await w.call('artie', 'GET', `${P}/files/${id}/payload`);
    expect(payload.status).toBe(200);
    expect(payload.bytes.equals(png)).toBe(true);
    expect(payload.headers['content-type']).toBe('image/png');
    expect(payload.headers['content-length']).toBe(String(png.length));
    expect(payload.headers['content-disposition']).toBe(
      `inline; filename="frame.png"; filename*=UTF-8''frame.png`,
    );
    expect(payload.headers['accept-ranges']).toBe('bytes');
    expect(payload.headers['x-content-type-options']).toBe('nosniff');
  });

  it('keeps any content type as bytes, JSON included (never parsed)', async () => {
    const json = '{"not": "parsed", "big": 12345678901234567890}';
    const id = await w.uploaded('artie', json, {
      'content-type': 'application/json',
      'x-file-name': 'data.json',
    });
    const payload = await w.call('artie', 'GET', `${P}/files/${id}/payload`);
    expect(payload.bytes.toString()).toBe(json);
    expect(payload.headers['content-type']).toBe('application/json');
  });

  it('accepts a chosen X-File-Id, with or without dashes, and stores it as 32 lowercase hex', async () => {
    const id = 'A1B2C3D4-E5F6-4789-9ABC-DEF012345678';
    const res = await w.upload('artie', png, { 'x-file-id': id });
    expect(res.status).toBe(201);
    expect(res.json().id).toBe('a1b2c3d4e5f647899abcdef012345678');
    const again = await w.upload('bob', Buffer.from('other bytes'), {
      'x-file-id': 'a1b2c3d4e5f647899abcdef012345678',
    });
    expect(again.status).toBe(409);
    expect(again.json().detail).toMatch(/already exists/);
    // The first upload is untouched by the refused one.
    const payload = await w.call('artie', 'GET', `${P}/files/a1b2c3d4e5f647899abcdef012345678/payload`);
    expect(payload.bytes.equals(png)).toBe(true);
  });

  it('records the activity named by X-Activity-Id', async () => {
    const activity = 'ffeeddccbbaa99887766554433221100';
    const id = await w.uploaded('artie', png, { 'x-activity-id': activity });
    expect((await w.call('artie', 'GET', `${P}/files/${id}/info`)).json().activityId).toBe(activity);
    expect((await w.files.listByActivity('show', [activity])).map((f) => f.id)).toEqual([id]);
  });

  it('takes a UTF-8 file name and gives it back exactly in Content-Disposition', async () => {
    const name = 'plán "final".png';
    const id = await w.uploaded('artie', png, { 'x-file-name': Buffer.from(name).toString('latin1') });
    const info = (await w.call('artie', 'GET', `${P}/files/${id}/info`)).json();
    expect(info.filename).toBe(name);
    const head = await w.call('artie', 'HEAD', `${P}/files/${id}`);
    expect(head.headers['content-disposition']).toBe(
      `inline; filename="pl_n _final_.png"; filename*=UTF-8''pl%C3%A1n%20%22final%22.png`,
    );
  });

  it('refuses missing and malformed headers with 422 problems located in the header', async () => {
    const noName = await w.call('artie', 'POST', `${P}/files`, {
      body: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(noName.status).toBe(422);
    expect(noName.json().errors).toContainEqual(
      expect.objectContaining({ loc: ['header', 'x-file-name'], type: 'required' }),
    );
    const noType = await w.call('artie', 'POST', `${P}/files`, {
      body: png,
      headers: { 'x-file-name': 'a.png' },
    });
    expect(noType.status).toBe(422);
    expect(noType.json().errors).toContainEqual(expect.objectContaining({ loc: ['header', 'content-type'] }));
    // A Content-Type that is not type/subtype at all is refused by Fastify itself, as unsupported.
    const badType = await w.upload('artie', png, { 'content-type': 'png' });
    expect(badType.status).toBe(415);
    expect(badType.json()).toEqual({ code: 415, detail: expect.any(String) });
    const badId = await w.upload('artie', png, { 'x-file-id': 'not-an-id' });
    expect(badId.status).toBe(422);
    expect(badId.json().errors[0].loc).toEqual(['header', 'x-file-id']);
    const badActivity = await w.upload('artie', png, { 'x-activity-id': '1234' });
    expect(badActivity.status).toBe(422);
    expect(badActivity.json().errors[0].loc).toEqual(['header', 'x-activity-id']);
    const badProject = await w.call('boss', 'POST', '/api/projects/no-such!/files', {
      body: png,
      headers: { 'content-type': 'image/png', 'x-file-name': 'a.png' },
    });
    expect(badProject.status).toBe(422);
    expect(badProject.json().errors[0].loc).toEqual(['path', 'project_name']);
  });

  it('refuses an empty body (400) and keeps nothing of it', async () => {
    const before = await storedFiles();
    const res = await w.upload('artie', Buffer.alloc(0));
    expect(res.status).toBe(400);
    expect(res.json().detail).toMatch(/Empty file/);
    expect(await storedFiles()).toEqual(before);
  });

  it('answers 404 for a file or a project that does not exist, 422 for an id that is not one', async () => {
    const missing = 'abcdefabcdefabcdefabcdefabcdef00';
    for (const suffix of ['', '/info', '/payload', '/thumbnail', '/still']) {
      expect((await w.call('boss', 'GET', `${P}/files/${missing}${suffix}`)).status).toBe(404);
    }
    expect((await w.call('boss', 'HEAD', `${P}/files/${missing}`)).status).toBe(404);
    expect((await w.call('boss', 'DELETE', `${P}/files/${missing}`)).status).toBe(404);
    expect((await w.call('boss', 'GET', `/api/projects/nowhere/files/${missing}/info`)).status).toBe(404);
    const upload = await w.call('boss', 'POST', '/api/projects/nowhere/files', {
      body: png,
      headers: { 'content-type': 'image/png', 'x-file-name': 'a.png' },
    });
    expect(upload.status).toBe(404);
    const bad = await w.call('boss', 'GET', `${P}/files/xyz/info`);
    expect(bad.status).toBe(422);
    expect(bad.json().errors[0].loc).toEqual(['path', 'file_id']);
  });
});

describe('the upload limit', () => {
  it('refuses a declared size over the limit with 413 before reading the body', async () => {
    const res = await w.upload('artie', png, { 'content-length': String(w.files.uploadLimit + 1) });
    expect(res.status).toBe(413);
    expect(res.json()).toEqual({ code: 413, detail: expect.stringMatching(/upload limit/) });
    expect(res.headers.connection).toBe('close');
  });

  it('counts a body without a declared size as it streams in: 413, and nothing is left behind', async () => {
    const limit = w.files.uploadLimit;
    const before = await storedFiles();
    w.files.uploadLimit = 1000;
    try {
      const chunks = Array.from({ length: 8 }, () => Buffer.alloc(300, 7));
      const res = await w.core.app.inject({
        method: 'POST',
        url: `${P}/files`,
        headers: {
          authorization: `Bearer ${w.token.artie}`,
          'content-type': 'video/mp4',
          'x-file-name': 'big.mp4',
          'x-file-id': '0123456789abcdef0123456789abcdef',
        },
        payload: Readable.from(chunks),
      });
      expect(res.statusCode).toBe(413);
      // Exactly at the limit is fine.
      const fits = await w.upload('artie', Buffer.alloc(1000, 1), { 'x-file-name': 'fits.bin' });
      expect(fits.status).toBe(201);
      expect((await w.call('artie', 'GET', `${P}/files/${fits.json().id}/info`)).json().size).toBe(1000);
      await w.files.remove('show', fits.json().id);
    } finally {
      w.files.uploadLimit = limit;
    }
    expect(await storedFiles()).toEqual(before);
    expect((await w.call('artie', 'GET', `${P}/files/0123456789abcdef0123456789abcdef/info`)).status).toBe(
      404,
    );
    // The id was released with the failed upload.
    expect((await w.upload('artie', png, { 'x-file-id': '0123456789abcdef0123456789abcdef' })).status).toBe(
      201,
    );
  });

  it('answers 413 to a real client streaming too much, instead of dropping the connection', async () => {
    const limit = w.files.uploadLimit;
    w.files.uploadLimit = 1000;
    try {
      const address = await listening();
      const answer = await new Promise<{ status: number; body: string }>((done, fail) => {
        const req = request(
          `${address}${P}/files`,
          {
            method: 'POST',
            headers: {
              authorization: `Bearer ${w.token.artie}`,
              'content-type': 'video/mp4',
              'x-file-name': 'chunked.mp4',
              'transfer-encoding': 'chunked',
            },
          },
          (res) => {
            let body = '';
            res.on('data', (chunk) => (body += chunk));
            res.on('end', () => done({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', fail);
        // Chunks keep coming until the server answers.
        const timer = setInterval(() => req.write(Buffer.alloc(400, 9)), 5);
        req.on('response', () => clearInterval(timer));
        req.on('close', () => clearInterval(timer));
      });
      expect(answer.status).toBe(413);
      expect(JSON.parse(answer.body).code).toBe(413);
    } finally {
      w.files.uploadLimit = limit;
    }
  });

  it('keeps nothing of an upload whose client disconnects midway', async () => {
    const before = await storedFiles();
    const address = await listening();
    const socket = connect(Number(new URL(address).port), '127.0.0.1');
    await new Promise((done) => socket.once('connect', done));
    socket.write(
      [
        `POST ${P}/files HTTP/1.1`,
        'Host: localhost',
        `Authorization: Bearer ${w.token.artie}`,
        'Content-Type: video/mp4',
        'X-File-Name: cut.mp4',
        'X-File-Id: 99999999999999999999999999999999',
        'Content-Length: 100000',
        '',
        '',
      ].join('\r\n'),
    );
    socket.write(Buffer.alloc(20000, 3));
    // Give the server time to start writing the partial file, then vanish.
    const started = Date.now();
    while (Date.now() - started < 5000) {
      const now = await storedFiles();
      if (now.some((f) => f.includes('9999999999'))) break;
      await new Promise((done) => setTimeout(done, 20));
    }
    socket.destroy();
    const deadline = Date.now() + 5000;
    let after = await storedFiles();
    let info = await w.call('artie', 'GET', `${P}/files/99999999999999999999999999999999/info`);
    while ((after.length !== before.length || info.status !== 404) && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 50));
      after = await storedFiles();
      info = await w.call('artie', 'GET', `${P}/files/99999999999999999999999999999999/info`);
    }
    expect(after).toEqual(before);
    expect(info.status).toBe(404);
    // The id is free again: the row reserved for the broken upload is released, last (after the partial file is
    // removed, so that a retry's file is never the one removed), so a retry may meet it for a moment.
    let again = { status: 0 };
    await eventually(
      async () =>
        (again = await w.upload('artie', png, { 'x-file-id': '99999999999999999999999999999999' })).status !==
        409,
    );
    expect(again.status).toBe(201);
  });
});
