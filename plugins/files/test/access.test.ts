import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { access, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildWorld, makeMedia, P, type World } from './world.js';

let w: World;
let png: Buffer;
const exists = (path: string) =>
  access(path).then(
    () => true,
    () => false,
  );

beforeAll(async () => {
  w = await buildWorld();
  ({ png } = await makeMedia(await mkdtemp(join(tmpdir(), 'files-media-'))));
});
afterAll(() => w.core.close());

const READS: [string, string][] = [
  ['GET', ''],
  ['HEAD', ''],
  ['GET', '/info'],
  ['GET', '/payload'],
  ['GET', '/thumbnail'],
  ['GET', '/still?t=0'],
];

describe('who may do what', () => {
  it('lets every user of the project (guests included) upload and read, and nobody else', async () => {
    for (const user of ['root', 'boss', 'artie', 'gus']) {
      expect((await w.upload(user, png)).status).toBe(201);
    }
    const id = await w.uploaded('artie', png);
    for (const user of ['root', 'boss', 'artie', 'bob', 'gus']) {
      for (const [method, suffix] of READS) {
        const res = await w.call(user, method, `${P}/files/${id}${suffix}`);
        expect([user, method, suffix, res.status]).toEqual([
          user,
          method,
          suffix,
          suffix === '' && method === 'GET' ? 302 : 200,
        ]);
      }
    }
    // A user of another project, and an anonymous caller: refused before anything is read or stored.
    for (const [user, status] of [
      ['eve', 403],
      [undefined, 401],
    ] as const) {
      expect((await w.upload(user as string, png)).status).toBe(status);
      for (const [method, suffix] of [...READS, ['DELETE', '']]) {
        expect([method, suffix, (await w.call(user, method, `${P}/files/${id}${suffix}`)).status]).toEqual([
          method,
          suffix,
          status,
        ]);
      }
    }
    // Outsiders learn nothing about which projects exist.
    expect((await w.call('eve', 'GET', `/api/projects/nowhere/files/${id}/info`)).status).toBe(403);
  });

  it('lets the uploader delete a file, and managers any file; other users of the project get 403', async () => {
    const mine = await w.uploaded('artie', png);
    expect((await w.call('bob', 'DELETE', `${P}/files/${mine}`)).status).toBe(403);
    expect((await w.call('gus', 'DELETE', `${P}/files/${mine}`)).status).toBe(403);
    expect((await w.call('artie', 'GET', `${P}/files/${mine}/info`)).status).toBe(200);
    expect((await w.call('artie', 'DELETE', `${P}/files/${mine}`)).status).toBe(204);
    for (const manager of ['boss', 'root']) {
      const theirs = await w.uploaded('bob', png);
      expect((await w.call(manager, 'DELETE', `${P}/files/${theirs}`)).status).toBe(204);
      expect((await w.call('bob', 'GET', `${P}/files/${theirs}/info`)).status).toBe(404);
    }
  });
});

describe('deleting', () => {
  it('removes the record, the bytes and the cached thumbnail', async () => {
    const id = await w.uploaded('artie', png);
    expect((await w.call('artie', 'GET', `${P}/files/${id}/thumbnail`)).status).toBe(200);
    const upload = join(w.projectDir(), 'uploads', id.slice(0, 2), id);
    const preview = join(w.projectDir(), 'previews', id.slice(0, 2), id);
    expect([await exists(upload), await exists(preview)]).toEqual([true, true]);
    expect((await w.call('artie', 'DELETE', `${P}/files/${id}`)).status).toBe(204);
    expect([await exists(upload), await exists(preview)]).toEqual([false, false]);
    for (const [method, suffix] of READS) {
      expect((await w.call('artie', method, `${P}/files/${id}${suffix}`)).status).toBe(404);
    }
    expect((await w.call('artie', 'DELETE', `${P}/files/${id}`)).status).toBe(404);
  });

  it("runs other addons' hooks in the deleting transaction: a failing hook keeps the file", async () => {
    const id = await w.uploaded('artie', png);
    const seen: string[] = [];
    let fail = true;
    w.files.onRemove(async (project, fileId) => {
      if (fileId !== id) return;
      // The hook, given no transaction, sees the record already gone: its queries join the unit of work.
      const left = await w.core.db
        .withSchema('project_show')
        .selectFrom('files')
        .select('id')
        .where('id', '=', fileId)
        .execute();
      seen.push(`${project}:${left.length}`);
      if (fail) throw new Error('refused by a hook');
    });
    expect((await w.call('artie', 'DELETE', `${P}/files/${id}`)).status).toBe(500);
    expect((await w.call('artie', 'GET', `${P}/files/${id}/payload`)).status).toBe(200);
    fail = false;
    expect((await w.call('artie', 'DELETE', `${P}/files/${id}`)).status).toBe(204);
    expect(seen).toEqual(['show:0', 'show:0']);
  });

  it("removes a project's files when the project is deleted", async () => {
    const created = await w.call('boss', 'POST', '/api/projects', {
      body: JSON.stringify({ name: 'doomed', code: 'dm' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(created.status).toBe(201);
    const up = await w.call('boss', 'POST', '/api/projects/doomed/files', {
      body: png,
      headers: { 'content-type': 'image/png', 'x-file-name': 'a.png' },
    });
    expect(up.status).toBe(201);
    expect(await exists(w.projectDir('doomed'))).toBe(true);
    expect((await w.call('boss', 'DELETE', '/api/projects/doomed')).status).toBe(204);
    const deadline = Date.now() + 5000;
    while ((await exists(w.projectDir('doomed'))) && Date.now() < deadline) {
      await new Promise((done) => setTimeout(done, 25));
    }
    expect(await exists(w.projectDir('doomed'))).toBe(false);
    // Other projects keep theirs.
    expect(await exists(w.projectDir('show'))).toBe(true);
  });
});
